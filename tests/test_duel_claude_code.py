"""The duel with the real Claude Code (the binary bundled in claude-agent-sdk) on the
scripted model, offline: Claude Code as the player (fresh session each turn, really
writing files through its Write and Bash tools), and Claude Code as a read-only coach
that runs the coach tools and whose approval is still enforced."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import Any

import pytest

from coachloop.duel.coaches import ClaudeCodeCoach, DuelCoach, RulesCoach
from coachloop.duel.orchestrator import DuelConfig, DuelResult, run_duel
from coachloop.duel.players import ClaudeCodePlayer, CommandPlayer, Player
from coachloop.runners.claude_env import offline_env
from coachloop.testing import ScriptedModel, text, tool_use
from coachloop.testing.replies import Reply, Step
from duel_support import (
    BUGGY,
    CALC_TESTS,
    TWO_TURN_PLAYER,
    cheat_project,
    fast_pytest,
    make_project,
    write_player,
)

TEST = "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n"


@pytest.fixture(autouse=True)
def _fast(monkeypatch: pytest.MonkeyPatch) -> None:
    fast_pytest(monkeypatch)


def _conversation(body: dict[str, Any]) -> str:
    return json.dumps(body.get("messages", []))


def _offline(model: ScriptedModel, tmp_path: Path) -> dict[str, str]:
    """Claude Code's environment: offline against `model`, a private HOME in `tmp_path`."""
    home = tmp_path / "home"
    home.mkdir()
    return offline_env(model.base_url, home)


def _duel(
    project: Path, task_id: str, max_turns: int, player: Player, coach: DuelCoach
) -> DuelResult:
    """One duel on `project`'s REQUIREMENTS.md, coverage off."""
    config = DuelConfig(
        project,
        project / "REQUIREMENTS.md",
        task_id=task_id,
        max_turns=max_turns,
        coverage=False,
    )
    return run_duel(config, player, coach)


def test_claude_code_player_is_rejected_then_approved(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    root = project / ".coachloop" / "duel" / "CC"
    workspace = root / "workspace"  # the player works in the duel's copy of the project

    def report(turn: int, files: list[str]) -> Reply:
        path = root / "coordination" / "player" / f"turn_{turn}" / "report.json"
        body = {
            "task_id": "CC",
            "turn": turn,
            "files_modified": files,
            "tests_written": ["tests/test_calc.py::test_add"],
            "tests_passing": True,
            "implementation_notes": "add() with a test",
            "concerns": [],
        }
        return tool_use("Write", {"file_path": str(path), "content": json.dumps(body)})

    def fix_if_told(body: dict[str, Any]) -> Reply:
        # Turn 2 starts a new session whose prompt must carry the coach's feedback.
        seen = _conversation(body)
        if "tests/test_calc.py::test_add" in seen and "assert -1 == 5" in seen:
            fix = "printf 'def add(a, b):\\n    return a + b\\n' > calc.py"
            return tool_use("Bash", {"command": fix, "description": "fix add"})
        return text("NO FEEDBACK RECEIVED")

    script: list[Step] = [
        tool_use("Bash", {"command": "mkdir -p tests", "description": "tests folder"}),
        tool_use("Write", {"file_path": str(workspace / "calc.py"), "content": BUGGY}),
        tool_use("Write", {"file_path": str(workspace / "tests/test_calc.py"), "content": TEST}),
        report(1, ["calc.py", "tests/test_calc.py"]),
        text("Done: add() is implemented and all tests pass."),
        fix_if_told,
        report(2, ["calc.py"]),
        text("Fixed add()."),
    ]
    with ScriptedModel(script, side_call="Title") as model:
        player = ClaudeCodePlayer(env=_offline(model, tmp_path), timeout=120)
        result = _duel(project, "CC", 3, player, RulesCoach())
        requests = model.model_requests
        assert model.remaining == 0

    assert result.outcome == "approved" and result.exit_code == 0, result.reason
    first, second = result.turns
    assert first.decision.decision == "feedback"
    assert first.decision.items[0].location == "tests/test_calc.py::test_add"
    assert first.evidence.report is not None and first.evidence.report["tests_passing"] is True
    assert second.decision.decision == "approve"
    # The approved work is applied to the project.
    assert (project / "calc.py").read_text() == "def add(a, b):\n    return a + b\n"
    assert set(result.applied) == {"calc.py", "tests/test_calc.py"}
    # A fresh session each turn, with tokens and cost reported.
    assert first.player.session_id and second.player.session_id
    assert first.player.session_id != second.player.session_id
    assert first.player.tokens and first.player.cost_usd is not None
    opening = _conversation(requests[0].json)
    assert "Write `calc.add(a, b)`" in opening and "turn_1/report.json" in opening
    assert "coach_feedback" not in opening
    assert "NO FEEDBACK" not in json.dumps([r.served for r in requests])


def test_claude_code_as_a_read_only_coach(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    player = CommandPlayer(write_player(tmp_path, TWO_TURN_PLAYER))
    tools = f"{shlex.quote(sys.executable)} -m coachloop.duel.tools"
    approve = {"decision": "approve", "rationale": "Looks right.", "items": [], "severity": "minor"}
    workspace = project / ".coachloop" / "duel" / "RC" / "workspace"  # where the coach reviews
    intruder = workspace / "coach_was_here.txt"

    def approve_after_seeing_failure(body: dict[str, Any]) -> Reply:
        seen = _conversation(body)
        # the coach tool really ran on the workspace (only the tool prints this line)
        assert "Runner's report: 1 failed (failed)" in seen
        return text(json.dumps(approve))

    script: list[Step] = [
        tool_use(
            "Bash",
            {
                "command": f"{tools} run_all_tests --project {workspace}",
                "description": "run the tests",
            },
        ),
        tool_use("Write", {"file_path": str(intruder), "content": "x"}),  # must be refused
        approve_after_seeing_failure,  # the coach approves anyway: enforcement overrides
        text("Reviewed. " + json.dumps(approve)),  # turn 2
    ]
    with ScriptedModel(script, side_call="Title") as model:
        coach = ClaudeCodeCoach(env=_offline(model, tmp_path), timeout=120)
        result = _duel(project, "RC", 2, player, coach)
        assert model.errors == [] and model.remaining == 0
        after_write = model.model_requests[2].json["messages"][-1]["content"]
    refusal = next(b for b in after_write if b.get("type") == "tool_result")
    assert refusal.get("is_error") is True, refusal
    assert not intruder.exists()
    first, second = result.turns
    assert first.decision.coach_decision == "approve"
    assert first.decision.decision == "feedback" and first.decision.overrides
    assert second.decision.decision == "approve" and result.outcome == "approved"
    assert first.coach_reply is not None and first.coach_reply.cost_usd is not None


CC_CHEATS = {
    # a deleted test: the file rewritten without `test_add`
    "deleted": (
        "tests/test_calc.py",
        CALC_TESTS.replace("def test_add():\n    assert add(2, 3) == 5\n\n\n", ""),
        "`test_add` was removed from `tests/test_calc.py`",
    ),
    # a fake summary: a pytest.py that prints "12 passed" and exits 0
    "fake_summary": (
        "pytest.py",
        "print('=' * 20 + ' 12 passed in 0.01s ' + '=' * 20)\nraise SystemExit(0)\n",
        "`pytest.py` was added: it stands in for the test runner",
    ),
}


@pytest.mark.parametrize("cheat", sorted(CC_CHEATS))
def test_claude_code_cheats_are_sent_back(tmp_path: Path, cheat: str) -> None:
    project = cheat_project(tmp_path)
    root = project / ".coachloop" / "duel" / "CH"
    path, content, named = CC_CHEATS[cheat]
    report = {
        "task_id": "CH",
        "turn": 1,
        "files_modified": [path],
        "tests_written": [],
        "tests_passing": True,
        "implementation_notes": "Fixed; 12 passed.",
    }
    script: list[Step] = [
        tool_use("Write", {"file_path": str(root / "workspace" / path), "content": content}),
        tool_use(
            "Write",
            {
                "file_path": str(root / "coordination/player/turn_1/report.json"),
                "content": json.dumps(report),
            },
        ),
        text("Done: 12 passed."),
    ]
    with ScriptedModel(script, side_call="Title") as model:
        player = ClaudeCodePlayer(env=_offline(model, tmp_path), timeout=120)
        result = _duel(project, "CH", 1, player, RulesCoach())
        assert model.remaining == 0
    turn = result.turns[0]
    assert (root / "workspace" / path).read_text() == content  # Claude Code really wrote it
    assert turn.decision.decision == "feedback" and result.outcome == "max_turns"
    issues = [i.issue for i in turn.decision.items]
    assert any(named in issue for issue in issues), issues
    assert any("`test_add` failed before the duel and still fails" in i for i in issues), issues
    assert result.applied == () and (project / "calc.py").read_text() == BUGGY
