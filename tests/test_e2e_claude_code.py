"""End to end: the real Claude Code (the binary in the claude-agent-sdk wheel), our hooks
(`coachloop hook claude-code`, in-process path), the package's scripted model, and the
headless runner, in a throw-away git project with a tiny Python package and its tests.

What each test proves is in its name; the model requests the scripted model received
are the ground truth of what Claude Code sent the model.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from coachloop.runners.turn import request_feedback
from coachloop.testing import Fail, ScriptedModel, ScriptItem, text, tool_use
from e2e_support import Sandbox, decisions, evidenced, tool_results

HEDGE = "Done! I fixed the rounding in `add()` in `calc.py`. It should work now."
QUESTION = "Should `add()` also accept strings, or only numbers?"
PROMPT = "The tests in test_calc.py fail sometimes; fix add() in calc.py."


@pytest.fixture
def sandbox(tmp_path: Path) -> Iterator[Sandbox]:
    yield Sandbox(tmp_path)


def never_stops_hedging() -> Any:
    count = iter(range(1, 100))

    def hedge(body: dict[str, Any]) -> ScriptItem:
        n = next(count)
        return text(f"Attempt {n}: I tweaked `add()` in `calc.py` again. It should work now.")

    return hedge


def test_a_hedged_done_is_coached_runs_the_tests_and_the_evidence_is_delivered(
    sandbox: Sandbox,
) -> None:
    script = [text(HEDGE), tool_use("Bash", {"command": "python -m pytest -q"}), evidenced]
    with ScriptedModel(script, side_call="Title") as model:
        judged = sandbox.runner(model).run(PROMPT)
        requests = [r.json for r in model.model_requests]
    turn = judged.turn
    assert not turn.is_error and model.errors == []
    assert len(requests) == 3  # hedge, then the test run, then the evidenced answer

    # (1) the hedge was blocked with coaching that quotes it
    [coaching] = turn.hook_blocks
    assert "should work now" in coaching.lower()
    # (2) the next model request carried that coaching, the first did not
    assert request_feedback(requests[0]) == []
    assert request_feedback(requests[1]) == [coaching]
    # (3) Claude Code really ran the tests and sent their output back
    [output] = tool_results(requests[2])
    assert re.search(r"\b2 passed\b", output), output
    # (4) the evidenced answer was delivered, not blocked again
    assert "2 passed" in turn.result and turn.result.startswith("Fixed")
    assert judged.by == "hook" and judged.decision.kind == "deliver"
    assert judged.verdict.type == "completion"

    stops = sandbox.stops(turn.session_id)
    assert decisions(stops) == ["continue", "deliver"]
    assert stops[0].message == coaching and stops[1].text == turn.result
    assert [e.text for e in sandbox.outbox(turn.session_id)] == [turn.result]
    shown = sandbox.show(turn.session_id)
    assert shown.index("-> continue") < shown.index("-> deliver")
    assert "coaching:" in shown and "2 passed" in shown


def test_b_a_question_is_delivered_at_once(sandbox: Sandbox) -> None:
    with ScriptedModel([text(QUESTION)], side_call="Title") as model:
        judged = sandbox.runner(model).run(PROMPT)
        requests = model.model_requests
    assert len(requests) == 1 and judged.turn.hook_blocks == []
    assert judged.turn.result == QUESTION
    assert judged.decision.kind == "deliver" and judged.verdict.type == "question"
    assert decisions(sandbox.stops(judged.turn.session_id)) == ["deliver"]
    assert [e.text for e in sandbox.outbox(judged.turn.session_id)] == [QUESTION]


def test_c_the_cap_holds_against_a_model_that_never_stops_hedging(sandbox: Sandbox) -> None:
    with ScriptedModel([], default=never_stops_hedging(), side_call="Title") as model:
        judged = sandbox.runner(model).run(PROMPT)
        requests = [r.json for r in model.model_requests]
    turn = judged.turn
    # exactly 3 blocks (our cap), then delivery; Claude Code's own cap (8) never reached
    assert len(turn.hook_blocks) == 3 and len(requests) == 4
    assert [len(request_feedback(r)) for r in requests] == [0, 1, 2, 3]
    assert turn.result.startswith("Attempt 4:")
    assert decisions(sandbox.stops(turn.session_id)) == ["continue"] * 3 + ["deliver"]
    assert judged.decision.kind == "deliver" and "cap reached" in judged.decision.text
    [delivered] = sandbox.outbox(turn.session_id)
    assert delivered.text.startswith("Attempt 4:") and "cap reached" in delivered.text


def test_d_a_model_api_failure_is_recorded_as_an_error_and_never_continued(
    sandbox: Sandbox,
) -> None:
    # Claude Code retries once (CLAUDE_CODE_MAX_RETRIES=1), then fires StopFailure.
    with ScriptedModel([Fail(529), Fail(529)], default=text("unexpected")) as model:
        runner = sandbox.runner(model, CLAUDE_CODE_MAX_RETRIES="1")
        judged = runner.run(PROMPT)
        served = [r.served for r in model.model_requests]
    turn = judged.turn
    assert turn.is_error and turn.api_error_status == 529 and "529" in turn.result
    assert len(served) == 2 and all("529" in s for s in served)  # no continuation request
    assert turn.hook_blocks == []
    # our StopFailure hook recorded it (the runner waited for it), as an error
    assert judged.by == "hook" and judged.verdict.type == "error"
    assert judged.decision.kind == "deliver"
    stops = sandbox.stops(turn.session_id)
    assert decisions(stops) == ["deliver"] and stops[0].verdict_type == "error"
    store = sandbox.store()
    try:
        assert store.get_session(turn.session_id).status == "failed"
    finally:
        store.close()


def test_e_a_human_prompt_resets_the_cap(sandbox: Sandbox) -> None:
    with ScriptedModel([], default=never_stops_hedging(), side_call="Title") as model:
        runner = sandbox.runner(model)
        first = runner.run(PROMPT)
        second = runner.run("Please try once more.", resume=first.turn.session_id)
        requests = model.model_requests
    session = first.turn.session_id
    assert second.turn.session_id == session
    assert len(first.turn.hook_blocks) == 3 and len(second.turn.hook_blocks) == 3
    assert len(requests) == 8
    assert first.decision.kind == second.decision.kind == "deliver"
    timeline = sandbox.timeline(session)
    kinds = [r.kind if r.kind != "stop" else str(r.decision) for r in timeline]
    turn = ["human"] + ["continue"] * 3 + ["deliver"]
    assert [k for k in kinds if k in ("human", "continue", "deliver")] == turn + turn


# --- coachloop demo: the same story, as the README's first command runs it -------------


def test_demo_runs_a_real_session_that_is_coached_and_then_delivered() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "coachloop", "demo"],
        capture_output=True,
        text=True,
        timeout=150,
        check=False,
    )
    out = done.stdout
    assert done.returncode == 0, out + done.stderr
    coached = out.index("  coached  [System Coach]")
    ran = out.index("  runs     Bash: python -m unittest -v")
    assert out.index("It should work now.") < coached < ran < out.index("Ran 2 tests")
    assert re.search(r"-> continue: .*auto-continue 1/3", out)
    assert out.index("-> continue") < out.index("-> deliver: completion")
    assert "model request 4 of 5 carried it" in out
    assert "holds 1 message(s):\n  [deliver] Fixed `add()`" in out
    project = re.search(r"project +(\S+)/project", out)
    assert project is not None and not Path(project.group(1)).exists()  # cleaned up


def test_demo_offline_judges_the_built_in_examples() -> None:
    from coachloop.cli.demo_cmd import EXAMPLES

    done = subprocess.run(
        [sys.executable, "-m", "coachloop", "demo", "--offline"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("type:       ") == len(EXAMPLES) == 6
