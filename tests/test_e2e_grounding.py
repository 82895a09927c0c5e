"""End to end, grounded: the real Claude Code on the scripted model runs real tests in a
throw-away project, and coachloop checks the agent's claims against what it did: by our
Stop hook reading the transcript, and by the runners (CLI and Agent SDK) reading the
turn's stream when no hook is installed.

The three cases of issue 11: a failing run claimed as passing is sent back naming the
failing tests; a passing run not pasted is delivered; a pasted run followed by an edit is
sent back naming the edited file.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from coachloop.runners.claude_cli import ClaudeCode
from coachloop.runners.sdk import ClaudeAgentSDK
from coachloop.runners.supervised import SupervisedRunner
from coachloop.runners.turn import request_feedback
from coachloop.testing import Reply, ScriptedModel, ScriptItem, text, tool_use
from e2e_support import TURN_TIMEOUT, Sandbox, decisions, git, tool_results

BUGGY = "def add(a, b):\n    return a - b\n"
PROMPT = "test_calc.py fails: fix add() in calc.py."
TESTS = "python -m pytest -q"


@pytest.fixture
def sandbox(tmp_path: Path) -> Iterator[Sandbox]:
    box = Sandbox(tmp_path)
    (box.project / "calc.py").write_text(BUGGY)
    git(box.project, "commit", "-qam", "a bug")
    yield box


def read(box: Sandbox) -> Reply:
    return tool_use("Read", {"file_path": str(box.project / "calc.py")})


def edit(box: Sandbox, old: str, new: str) -> Reply:
    path = str(box.project / "calc.py")
    return tool_use("Edit", {"file_path": path, "old_string": old, "new_string": new})


def run_tests() -> Reply:
    return tool_use("Bash", {"command": TESTS})


def pasted(body: dict[str, Any]) -> ScriptItem:
    """The answer after a test run: it quotes the last real test output."""
    runs = [o.strip() for o in tool_results(body) if "passed" in o or "failed" in o]
    return text(f"Fixed `add()` in `calc.py`:\n\n```\n$ {TESTS}\n{runs[-1]}\n```")


def test_a_failing_run_claimed_as_passing_is_sent_back_naming_the_failing_tests(
    sandbox: Sandbox,
) -> None:
    fix = edit(sandbox, "return a - b", "return a + b")
    script = [run_tests(), text("All tests pass now."), read(sandbox), fix, run_tests()]
    script.append(text("Fixed add(); all tests pass now."))
    with ScriptedModel(script, side_call="Title") as model:
        judged = sandbox.runner(model).run(PROMPT)
        requests = [r.json for r in model.model_requests]
    turn = judged.turn
    assert not turn.is_error and model.errors == []
    [coaching] = turn.hook_blocks
    assert "test_calc.py::test_add, test_calc.py::test_add_negative" in coaching
    assert f"`{TESTS}` → 2 failed" in coaching
    assert request_feedback(requests[2]) == [coaching]  # the model was told
    # after the fix, the claim holds: delivered without pasted output, the run cited
    assert judged.by == "hook" and judged.decision.kind == "deliver"
    assert judged.verdict.type == "completion"
    assert judged.verdict.evidence.recorded == (
        f"from the transcript: `{TESTS}` → 2 tests OK, after the last edit",
    )
    assert decisions(sandbox.stops(turn.session_id)) == ["continue", "deliver"]


def test_a_passing_run_not_pasted_is_delivered(sandbox: Sandbox) -> None:
    fix = edit(sandbox, "return a - b", "return a + b")
    script = [read(sandbox), fix, run_tests(), text("Fixed add(). All tests pass now.")]
    with ScriptedModel(script, side_call="Title") as model:
        judged = sandbox.runner(model).run(PROMPT)
    assert judged.turn.hook_blocks == [] and model.errors == []
    assert judged.by == "hook" and judged.decision.kind == "deliver"
    assert judged.verdict.type == "completion" and "backs it" in judged.verdict.reason
    [delivered] = sandbox.outbox(judged.turn.session_id)
    assert delivered.text == "Fixed add(). All tests pass now."
    cited = f"from the transcript: `{TESTS}` → 2 tests OK, after the last edit"
    assert cited in sandbox.show(judged.turn.session_id)


def test_an_edit_after_the_pasted_run_is_sent_back_naming_the_file(sandbox: Sandbox) -> None:
    fix = edit(sandbox, "return a - b", "return a + b")
    tidy = edit(sandbox, "def add(a, b):\n", 'def add(a, b):\n    """The sum."""\n')
    script = [read(sandbox), fix, run_tests(), tidy, pasted, run_tests(), pasted]
    with ScriptedModel(script, side_call="Title") as model:
        judged = sandbox.runner(model).run(PROMPT)
        requests = [r.json for r in model.model_requests]
    turn = judged.turn
    [coaching] = turn.hook_blocks
    assert re.search(r"The code changed after the last test run \(.*\): calc\.py\.", coaching)
    assert "Re-run the tests" in coaching and request_feedback(requests[5]) == [coaching]
    assert judged.decision.kind == "deliver" and judged.verdict.type == "completion"
    assert decisions(sandbox.stops(turn.session_id)) == ["continue", "deliver"]


def _unhooked(box: Sandbox) -> None:
    shutil.rmtree(box.project / ".claude")


@pytest.mark.parametrize("runner", ["cli", "sdk"])
def test_without_hooks_the_runner_checks_the_stream(sandbox: Sandbox, runner: str) -> None:
    _unhooked(sandbox)
    with ScriptedModel([run_tests(), text("All tests pass now.")], side_call="Title") as model:
        env = sandbox.env(model)
        agent: Any = (
            ClaudeCode(sandbox.project, env=env, timeout=TURN_TIMEOUT)
            if runner == "cli"
            else ClaudeAgentSDK(sandbox.project, env=env, timeout=TURN_TIMEOUT)
        )
        judged = SupervisedRunner(agent, sandbox.project, supervisor=sandbox.supervisor()).run(
            PROMPT
        )
    assert judged.by == "runner" and judged.decision.kind == "continue"
    assert [p.kind for p in judged.verdict.problems] == ["run_failed"]
    assert "test_calc.py::test_add" in judged.decision.text
    assert "the Claude Code stream contradicts the message" in judged.verdict.reason
