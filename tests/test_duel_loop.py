"""The duel end to end with command players and the real pytest in real git projects:
outcomes, coordination files, the report, and bad input that must never be approved."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from coachloop.cli.duel_cmd import duel
from coachloop.duel import schemas
from coachloop.duel.coaches import RulesCoach
from coachloop.duel.orchestrator import DuelConfig, run_duel
from coachloop.duel.players import CommandPlayer
from coachloop.duel.testcmd import from_string
from duel_support import (
    APPROVE,
    PY,
    TWO_TURN_PLAYER,
    FixedCoach,
    fast_pytest,
    make_project,
    report_source,
    write_player,
)

GOOD_TEST = "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n"
GOOD_CODE = "def add(a, b):\n    return a + b\n"


@pytest.fixture(autouse=True)
def _fast(monkeypatch: pytest.MonkeyPatch) -> None:
    fast_pytest(monkeypatch)


def _decision(root: Path, turn: int) -> dict[str, object]:
    path = root / "coordination" / "coach" / f"turn_{turn}" / "decision.json"
    data: dict[str, object] = json.loads(path.read_text())
    assert schemas.validate(data, schemas.load("decision")) == []
    return data


def test_command_player_rejected_then_approved_through_the_cli(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = make_project(tmp_path)
    player = write_player(tmp_path, TWO_TURN_PLAYER)
    monkeypatch.chdir(project)  # run in the project to change, as a user would
    result = CliRunner().invoke(
        duel,
        ["REQUIREMENTS.md", "--player", player, "--task-id", "T1", "--json"],
        catch_exceptions=False,
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["outcome"] == "approved"
    assert [t["decision"]["decision"] for t in report["turns"]] == ["feedback", "approve"]
    root = project / ".coachloop" / "duel" / "T1"
    first = _decision(root, 1)
    assert first["decision"] == "feedback" and first["severity"] == "critical"
    items = first["items"]
    assert isinstance(items, list)
    assert items[0]["location"] == "tests/test_calc.py::test_add"
    assert "assert -1 == 5" in items[0]["issue"]
    assert any("claims the tests pass" in i["issue"] for i in items)
    assert _decision(root, 2)["decision"] == "approve"
    assert (root / "coordination" / "player" / "turn_1" / "report.json").is_file()
    on_disk = json.loads((root / "duel.json").read_text())
    assert on_disk["outcome"] == "approved" and len(on_disk["turns"]) == 2
    # the player worked in the duel's workspace; the approved work was applied back
    assert on_disk["workspace"] == str(root / "workspace")
    assert on_disk["applied"] == ["calc.py", "tests/test_calc.py"] and on_disk["conflicts"] == []
    assert (project / "calc.py").read_text() == GOOD_CODE
    assert on_disk["baseline"] == {
        "status": "no_tests",
        "tests": 0,
        "failing": [],
        "seconds": on_disk["baseline"]["seconds"],
    }
    assert on_disk["turns"][0]["evidence"]["integrity"] == []
    assert on_disk["turns"][0]["evidence"]["reach"] == []
    turn1 = on_disk["turns"][0]
    assert turn1["claims"]["tests_passing"] is True
    assert turn1["evidence"]["tests"]["status"] == "failed"
    assert turn1["evidence"]["tests"]["failing"][0]["test"] == "tests/test_calc.py::test_add"
    assert turn1["evidence"]["changed_this_turn"] == ["calc.py", "tests/test_calc.py"]
    assert on_disk["turns"][1]["evidence"]["changed_this_turn"] == ["calc.py"]
    assert turn1["player"]["seconds"] > 0 and turn1["coach"]["seconds"] >= 0


def test_a_player_that_never_changes_anything_stalls(tmp_path: Path) -> None:
    project = make_project(tmp_path, files={"calc.py": GOOD_CODE, "tests/test_calc.py": GOOD_TEST})
    body = (
        'json.dumps({"task_id": task, "turn": turn, "files_modified": [], "tests_written": [], '
        '"implementation_notes": "Nothing to do."})'
    )
    player = CommandPlayer(write_player(tmp_path, report_source(body)))
    config = DuelConfig(project, project / "REQUIREMENTS.md", task_id="S", max_turns=5)
    result = run_duel(config, player, RulesCoach())
    assert result.outcome == "stalled" and result.exit_code == 3
    assert len(result.turns) == 3
    assert all(t.decision.decision == "feedback" for t in result.turns)
    assert "Nothing in the project has changed" in result.turns[0].decision.items[0].issue


def test_feedback_that_keeps_changing_ends_at_max_turns(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    # Each turn adds a new failing test with a new name: the feedback differs every turn.
    source = report_source(
        'json.dumps({"task_id": task, "turn": turn, "files_modified": [], '
        '"tests_written": [], "implementation_notes": "x"})'
    ) + (
        "pathlib.Path(f'test_t{turn}.py').write_text("
        "f'def test_n{turn}():\\n    assert False\\n')\n"
    )
    player = CommandPlayer(write_player(tmp_path, source))
    config = DuelConfig(project, project / "REQUIREMENTS.md", task_id="M", max_turns=3)
    result = run_duel(config, player, RulesCoach())
    assert result.outcome == "max_turns" and result.exit_code == 1
    assert len(result.turns) == 3


def test_a_report_that_is_not_json_is_never_approved(tmp_path: Path) -> None:
    project = make_project(tmp_path, files={"calc.py": GOOD_CODE, "tests/test_calc.py": GOOD_TEST})
    source = report_source('"{not json"') + (
        "pathlib.Path('calc.py').write_text('def add(a, b):\\n    return b + a\\n')\n"
    )
    coach = FixedCoach(APPROVE, name="approves-everything")
    config = DuelConfig(project, project / "REQUIREMENTS.md", task_id="J", max_turns=1)
    result = run_duel(config, CommandPlayer(write_player(tmp_path, source)), coach)
    assert result.outcome == "max_turns"
    decision = result.turns[0].decision
    assert decision.decision == "feedback" and decision.coach_decision == "approve"
    assert any("not valid JSON" in o for o in decision.overrides)
    assert result.turns[0].evidence.tests.status == "passed"  # only the report blocks it
    assert _decision(result.root, 1)["overrides"] == list(decision.overrides)


def test_a_coach_answer_without_a_decision_ends_in_error(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    player = write_player(tmp_path, TWO_TURN_PLAYER)
    coach = FixedCoach({"rationale": "All good, ship it."})
    config = DuelConfig(project, project / "REQUIREMENTS.md", task_id="E", max_turns=3)
    result = run_duel(config, CommandPlayer(player), coach)
    assert result.outcome == "error" and result.exit_code == 4
    assert "no 'decision' field" in result.reason
    written = _decision(result.root, 1)
    assert written["decision"] == "feedback" and written["coach_decision"] is None


def test_prose_without_json_is_no_decision(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    coach = FixedCoach("I approve this work, it is excellent.")
    player = write_player(tmp_path, TWO_TURN_PLAYER)
    config = DuelConfig(project, project / "REQUIREMENTS.md", task_id="P", max_turns=2)
    result = run_duel(config, CommandPlayer(player), coach)
    assert result.outcome == "error"
    assert all(t.decision.decision == "feedback" for t in result.turns)


def test_a_hanging_test_command_times_out_and_is_never_approved(tmp_path: Path) -> None:
    project = make_project(tmp_path, files={"calc.py": GOOD_CODE})
    source = (
        report_source(
            'json.dumps({"task_id": task, "turn": turn, "files_modified": ["calc.py"], '
            '"tests_written": [], "implementation_notes": "x"})'
        )
        + "pathlib.Path('calc.py').write_text('def add(a, b):\\n    return a + b  # ok\\n')\n"
    )
    hang = from_string(f"{PY} -c 'import time; time.sleep(60)'")
    config = DuelConfig(
        project,
        project / "REQUIREMENTS.md",
        task_id="H",
        max_turns=1,
        test_command=hang,
        test_timeout=1.0,
    )
    coach = FixedCoach(APPROVE)
    result = run_duel(config, CommandPlayer(write_player(tmp_path, source)), coach)
    assert result.outcome == "max_turns" and result.seconds < 20
    turn = result.turns[0]
    assert turn.evidence.tests.status == "timeout"
    assert turn.decision.decision == "feedback" and turn.decision.coach_decision == "approve"
    assert "did not finish" in turn.decision.items[0].issue


def test_claims_the_repository_contradicts_block_approval(tmp_path: Path) -> None:
    project = make_project(tmp_path, files={"calc.py": GOOD_CODE, "tests/test_calc.py": GOOD_TEST})
    body = (
        'json.dumps({"task_id": task, "turn": turn, "files_modified": ["calc.py", "README.md"], '
        '"tests_written": ["tests/test_calc.py::test_add", "tests/test_calc.py::test_sub", '
        '"tests/test_missing.py"], "tests_passing": True, "implementation_notes": "x"})'
    )
    source = report_source(body) + (
        "pathlib.Path('calc.py').write_text('def add(a, b):\\n    return a + b\\n\\n')\n"
    )
    config = DuelConfig(project, project / "REQUIREMENTS.md", task_id="C", max_turns=1)
    result = run_duel(config, CommandPlayer(write_player(tmp_path, source)), FixedCoach(APPROVE))
    turn = result.turns[0]
    assert turn.evidence.tests.status == "passed"
    assert turn.evidence.claims.files_unchanged == ("README.md",)
    assert turn.evidence.claims.tests_absent == (
        "tests/test_calc.py::test_sub",
        "tests/test_missing.py",
    )
    assert turn.decision.decision == "feedback"
    assert len(turn.decision.overrides) == 2
    assert result.outcome != "approved"


def test_cli_errors_before_the_first_turn(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    runner = CliRunner()
    missing = runner.invoke(duel, [str(tmp_path / "NOPE.md"), "--project", str(project)])
    assert missing.exit_code == 4 and "requirements file not found" in missing.output
    bad_coach = runner.invoke(
        duel, [str(project / "REQUIREMENTS.md"), "--project", str(project), "--coach", "x:y"]
    )
    assert bad_coach.exit_code == 4 and "unknown coach" in bad_coach.output
    no_key = runner.invoke(
        duel,
        [
            str(project / "REQUIREMENTS.md"),
            "--project",
            str(project),
            "--coach",
            "anthropic",
            "--json",
        ],
    )
    assert no_key.exit_code == 4
    assert json.loads(no_key.output) == {
        "outcome": "error",
        "reason": "no API key for anthropic (set ANTHROPIC_API_KEY)",
    }


def test_an_unstartable_player_and_a_used_task_id_are_errors(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    config = DuelConfig(project, project / "REQUIREMENTS.md", task_id="U", max_turns=2)
    result = run_duel(config, CommandPlayer("/nonexistent/player"), RulesCoach())
    assert result.outcome == "error" and "cannot start the player" in result.reason
    with pytest.raises(ValueError, match="already holds a duel"):
        run_duel(config, CommandPlayer("/nonexistent/player"), RulesCoach())
