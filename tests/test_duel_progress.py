"""The duel says what happens as it happens, and stops at once when it cannot work."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from coachloop.cli.duel_cmd import duel
from coachloop.duel.coaches import RulesCoach
from coachloop.duel.orchestrator import DuelConfig, run_duel
from coachloop.duel.players import ClaudeCodePlayer
from coachloop.runners.claude_env import offline_env
from conftest import CLOSED_URL
from duel_support import TWO_TURN_PLAYER, make_project, write_player


def test_each_turn_prints_its_outcome_and_the_coachs_first_point(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = make_project(tmp_path)
    player = write_player(tmp_path, TWO_TURN_PLAYER)
    monkeypatch.chdir(project)
    result = CliRunner().invoke(
        duel, ["REQUIREMENTS.md", "--player", player, "--task-id", "P1"], catch_exceptions=False
    )
    assert result.exit_code == 0, result.output
    lines = result.stderr.splitlines()
    first = lines.index(next(line for line in lines if line.startswith("turn 1:")))
    assert "tests failed -> feedback (critical)" in lines[first]
    assert lines[first + 1].startswith("  coach: ") and "assert -1 == 5" in lines[first + 1]
    assert any(line.startswith("turn 2:") and "-> approve" in line for line in lines)


def test_no_test_command_stops_before_turn_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = tmp_path / "bare"
    project.mkdir()
    (project / "REQUIREMENTS.md").write_text("Write hello.py printing hello.\n")
    monkeypatch.chdir(project)
    result = CliRunner().invoke(
        duel, ["REQUIREMENTS.md", "--player", "true"], catch_exceptions=False
    )
    assert result.exit_code == 4
    assert "no test command configured or detected" in result.stderr
    assert "--test-cmd" in result.stderr
    assert "turn 1" not in result.stderr


def test_a_player_that_cannot_run_ends_the_duel_after_one_turn(tmp_path: Path) -> None:
    """The real Claude Code with no model to reach (as when not logged in) fails its turn
    without a report or a change: the duel stops with that cause, not after 3 stalls."""
    project = make_project(tmp_path)
    subprocess.run(["git", "-C", str(project), "add", "-A"], check=True)
    env = offline_env(CLOSED_URL, tmp_path / "claude-home", base=dict(os.environ))
    player = ClaudeCodePlayer(timeout=120, env=env)
    config = DuelConfig(project, project / "REQUIREMENTS.md", task_id="C1", max_turns=5)
    result = run_duel(config, player, RulesCoach())
    assert result.outcome == "error" and len(result.turns) == 1
    assert result.reason.startswith("the player could not run: Claude Code turn failed")
