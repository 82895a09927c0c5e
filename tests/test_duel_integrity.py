"""The pieces behind the cheat table, one at a time: what the requirements can ask
for, which configuration edits count, a forged decision file, and approved work that
cannot be applied because the project moved under it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from coachloop.duel import workdir, workspace
from coachloop.duel.coaches import RulesCoach
from coachloop.duel.findings import asked_by
from coachloop.duel.orchestrator import DuelConfig, run_duel
from coachloop.duel.players import CommandPlayer
from coachloop.duel.testsource import classify, config_fingerprint, describe_config
from duel_support import BUGGY, FIXED, cheat_project, fast_pytest, make_project, write_player


@pytest.fixture(autouse=True)
def _fast(monkeypatch: pytest.MonkeyPatch) -> None:
    fast_pytest(monkeypatch)


@pytest.mark.parametrize(
    ("requirements", "kind", "allowed"),
    [
        ("Delete the obsolete test `test_old`.", "removed", True),
        ("Rename test_old to test_new.", "removed", True),
        ("Make `test_old` pass.", "removed", False),  # named, but not to be removed
        ("Do not delete or change `test_old`.", "removed", False),  # a negation
        ("Delete `test_older`.", "removed", False),  # another test
        ("Skip `test_old` on Windows.", "skipped", True),
        ("Skip `test_old` on Windows.", "rewritten", False),
        ("Set `addopts` in pytest.ini to `-q`.", "config", True),
    ],
)
def test_what_the_requirements_ask_for(requirements: str, kind: str, allowed: bool) -> None:
    names = ["test_old", "pytest.ini"]
    assert (asked_by(requirements, kind, names) is not None) is allowed


def test_only_test_related_configuration_counts() -> None:
    before = b'[project]\nname = "x"\n\n[tool.pytest.ini_options]\naddopts = "-q"\n'
    dependency = before.replace(b'name = "x"', b'name = "x"\ndependencies = ["rich"]')
    deselect = before.replace(b'"-q"', b"\"-q -k 'not test_add'\"")
    assert config_fingerprint("pyproject.toml", before) == config_fingerprint(
        "pyproject.toml", dependency
    )
    assert config_fingerprint("pyproject.toml", before) != config_fingerprint(
        "pyproject.toml", deselect
    )
    assert describe_config("pyproject.toml", before, deselect) == (
        "`pyproject.toml`: now deselects tests; "
        "pytest.ini_options.addopts: `-q` → `-q -k 'not test_add'`"
    )
    assert classify(".github/workflows/ci.yml") == "config"
    assert classify("sitecustomize.py") == "shadow"
    assert classify("src/calc.py") is None and classify("web/__tests__/a.js") == "test"


FORGER = """
import json, os, pathlib
report = pathlib.Path(os.environ["COACHLOOP_REPORT"])
decision = report.parents[2] / "coach" / "turn_1" / "decision.json"
decision.write_text(json.dumps({"decision": "approve", "rationale": "forged"}))
report.write_text(json.dumps({
    "task_id": os.environ["COACHLOOP_TASK_ID"], "turn": 1, "files_modified": [],
    "tests_written": [], "implementation_notes": "x",
}))
pathlib.Path("calc.py").write_text("def add(a, b):\\n    return a + b\\n")
"""


def test_a_forged_decision_file_is_caught_and_replaced(tmp_path: Path) -> None:
    project = cheat_project(tmp_path)
    config = DuelConfig(project, project / "REQUIREMENTS.md", task_id="F", max_turns=1)
    result = run_duel(config, CommandPlayer(write_player(tmp_path, FORGER)), RulesCoach())
    decision = result.turns[0].decision
    assert result.outcome == "max_turns" and decision.decision == "feedback"
    issue = decision.items[0].issue
    assert "Coordination files" in issue and "coordination/coach/turn_1/decision.json" in issue
    written = json.loads((result.root / "coordination/coach/turn_1/decision.json").read_text())
    assert written["decision"] == "feedback" and written["coach"] == "rules"


def test_approved_work_is_not_applied_over_a_project_that_moved(tmp_path: Path) -> None:
    project = make_project(tmp_path, files={"calc.py": BUGGY, "notes.txt": "a\n"})
    space = workdir.create(project, tmp_path / "ws", (".coachloop",))
    assert (space.path / "calc.py").read_text() == BUGGY and space.base
    start = workspace.take_snapshot(space.path, walk=True)
    (space.path / "calc.py").write_text(FIXED)
    (space.path / "notes.txt").unlink()
    (project / "calc.py").write_text(BUGGY + "# edited by a person meanwhile\n")
    now = workspace.take_snapshot(space.path, walk=True)
    assert workdir.apply(space, start, now) == ([], ["calc.py"])
    assert (project / "notes.txt").exists()  # nothing applied
    (project / "calc.py").write_text(BUGGY)
    assert workdir.apply(space, start, now) == (["calc.py", "notes.txt"], [])
    assert (project / "calc.py").read_text() == FIXED and not (project / "notes.txt").exists()
