"""Shared helpers for the duel tests (no tests here): a throw-away git project, player
scripts, and coaches that answer adversarially.

`make_project` builds a real git repository with a pytest configuration; tests run the
real pytest in it. Plugin autoloading is switched off for those runs (the dev
environment carries slow-starting pytest plugins) through the environment, which the
duel's tools pass on.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from coachloop.duel.coaches import CoachContext, CoachReply

PY = sys.executable
REQUIREMENTS = "# Task\n\nWrite `calc.add(a, b)` returning the sum of a and b, with a test.\n"


def git(project: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-C", str(project), "-c", "user.name=t", "-c", "user.email=t@example.com", *args],
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout


def make_project(root: Path, *, files: dict[str, str] | None = None) -> Path:
    """A git project with a pytest config, REQUIREMENTS.md and `files`, committed."""
    project = root / "project"
    project.mkdir(parents=True)
    (project / "pyproject.toml").write_text('[tool.pytest.ini_options]\npythonpath = ["."]\n')
    (project / "REQUIREMENTS.md").write_text(REQUIREMENTS)
    for name, text in (files or {}).items():
        path = project / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    git(project, "add", "-A")
    git(project, "commit", "-qm", "start")
    return project


def fast_pytest(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make the pytest runs inside duels start fast (no third-party plugin autoload)."""
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")


# Turn 1 writes a buggy add() and its test, and claims success; turn 2 reads the
# feedback, checks it names the failing test, and fixes the bug.
TWO_TURN_PLAYER = textwrap.dedent(
    """
    import json, os, pathlib, sys
    turn = int(os.environ["COACHLOOP_TURN"])
    pathlib.Path("tests").mkdir(exist_ok=True)
    if turn == 1:
        assert "COACHLOOP_FEEDBACK" not in os.environ
        pathlib.Path("calc.py").write_text("def add(a, b):\\n    return a - b\\n")
        pathlib.Path("tests/test_calc.py").write_text(
            "from calc import add\\n\\n\\ndef test_add():\\n    assert add(2, 3) == 5\\n"
        )
        files = ["calc.py", "tests/test_calc.py"]
    else:
        feedback = json.loads(pathlib.Path(os.environ["COACHLOOP_FEEDBACK"]).read_text())
        named = [i for i in feedback["items"] if "test_add" in i["issue"] + str(i["location"])]
        if not named:
            sys.exit("the feedback does not name the failing test")
        pathlib.Path("calc.py").write_text("def add(a, b):\\n    return a + b\\n")
        files = ["calc.py"]
    pathlib.Path(os.environ["COACHLOOP_REPORT"]).write_text(json.dumps({
        "task_id": os.environ["COACHLOOP_TASK_ID"],
        "turn": turn,
        "files_modified": files,
        "tests_written": ["tests/test_calc.py::test_add"],
        "tests_passing": True,
        "implementation_notes": "Implemented add with a test.",
        "concerns": [],
    }))
    """
)


def write_player(root: Path, source: str, name: str = "player.py") -> str:
    """Write a player script outside the project; returns its command line."""
    path = root / name
    path.write_text(source)
    return f"{PY} {path}"


def report_source(body: str) -> str:
    """A player that writes `body` (Python expression for the report text) and nothing else."""
    return textwrap.dedent(
        f"""
        import json, os, pathlib
        turn = int(os.environ["COACHLOOP_TURN"])
        task = os.environ["COACHLOOP_TASK_ID"]
        pathlib.Path(os.environ["COACHLOOP_REPORT"]).write_text({body})
        """
    )


class FixedCoach:
    """A coach that always answers `raw` (an adversarial coach, e.g. one that approves
    everything); the orchestrator must still validate and enforce."""

    def __init__(self, raw: str | dict[str, Any], name: str = "fixed") -> None:
        self.raw = raw
        self.name = name
        self.contexts: list[CoachContext] = []

    def decide(self, context: CoachContext) -> CoachReply:
        self.contexts.append(context)
        return CoachReply(self.raw, tokens=0)


APPROVE = {"decision": "approve", "rationale": "Looks great.", "items": [], "severity": "minor"}
