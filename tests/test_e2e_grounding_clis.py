"""End to end, grounded, with the real Codex CLI and Gemini CLI (npm, pinned) on the
scripted model: our Stop hook reads the agent's own log (Codex's rollout, Gemini's chat
file), so a failing run claimed as passing is sent back naming the failing tests, and
once the agent has fixed the code and re-run the tests the same claim is delivered with
the run cited."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cli_e2e_support import PYTEST, CodexSandbox, GeminiSandbox
from coachloop.testing import ScriptedModel, text, tool_use
from e2e_support import git

BUGGY = "def add(a, b):\n    return a - b\n"
PROMPT = "test_calc.py fails: fix add() in calc.py."
CLAIM = "All tests pass now."
FIXED = "Fixed add(); all tests pass now."


def buggy(project: Path) -> None:
    (project / "calc.py").write_text(BUGGY)
    git(project, "commit", "-qam", "a bug")


def check(stops: list[Any], source: str) -> None:
    continued, delivered = stops
    assert (continued.decision, delivered.decision) == ("continue", "deliver")
    assert "test_calc.py::test_add, test_calc.py::test_add_negative" in continued.message
    assert f"`{PYTEST}` → 2 failed" in continued.message
    assert delivered.text == FIXED and delivered.verdict_type == "completion"
    assert delivered.verdict["evidence"]["recorded"] == [
        f"from the {source}: `{PYTEST}` → 2 tests OK, after the last edit"
    ]


def test_codex_a_failing_run_claimed_as_passing_is_sent_back(
    tmp_path: Path, agent_clis: dict[str, Path]
) -> None:
    sandbox = CodexSandbox(tmp_path, agent_clis["codex"])
    buggy(sandbox.project)
    run_tests = tool_use("exec_command", {"cmd": PYTEST})
    fix = tool_use("exec_command", {"cmd": "sed -i 's/a - b/a + b/' calc.py"})
    with ScriptedModel([run_tests, text(CLAIM), fix, run_tests, text(FIXED)]) as model:
        sandbox.configure(model)
        sandbox.install("codex", "--user")
        run = sandbox.run(PROMPT)
    assert run.returncode == 0 and model.errors == [], run.stderr
    check(sandbox.stops(sandbox.thread(run)), "Codex rollout")


def test_gemini_a_failing_run_claimed_as_passing_is_sent_back(
    tmp_path: Path, agent_clis: dict[str, Path]
) -> None:
    sandbox = GeminiSandbox(tmp_path, agent_clis["gemini"])
    buggy(sandbox.project)
    calc = str(sandbox.project / "calc.py")
    run_tests = tool_use("run_shell_command", {"command": PYTEST})
    read = tool_use("read_file", {"file_path": calc})
    fix = tool_use(
        "replace",
        {"file_path": calc, "old_string": "a - b", "new_string": "a + b", "instruction": "fix"},
    )
    script = [run_tests, text(CLAIM), read, fix, run_tests, text(FIXED)]
    with ScriptedModel(script, default=text("unexpected")) as model:
        sandbox.install("gemini", "--user")
        run = sandbox.run(model, PROMPT)
    assert run.returncode == 0 and model.errors == [], run.stderr
    check(sandbox.stops(sandbox.result(run)["session_id"]), "Gemini chat")
