"""The main-job demo: a real Claude Code session on the scripted model, supervised by us.

`run_demo(workdir)` builds a throw-away project in `workdir` (a tiny Python package
whose `add()` subtracts, and its unittest tests), installs our hooks in its
`.claude/settings.json`, starts the package's `ScriptedModel` and runs ONE real Claude
Code turn against it through the headless runner. The model reads and edits the code,
then claims "It should work now" without running anything: our Stop hook blocks that
hedge with specific coaching; the model runs the tests (Claude Code really runs them)
and reports their actual output: our hook delivers that evidenced completion.

Everything stays inside `workdir`: Claude Code's HOME, coachloop's data directory and
the SQLite store (`store.db`). No network, no API key: the judge is the offline rules.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from coachloop.runners.claude_env import hook_settings, offline_env
from coachloop.runners.supervised import JudgedTurn
from coachloop.testing import ScriptItem, Step, text, tool_use

__all__ = ["PROMPT", "DemoRun", "make_project", "run_demo", "script"]

PROMPT = "The tests in test_calc.py fail. Fix add() in calc.py so that they pass."
CALC = 'def add(a, b):\n    """The sum of a and b."""\n    return a - b\n'
TEST_CALC = """import unittest

from calc import add


class TestAdd(unittest.TestCase):
    def test_small_numbers(self):
        self.assertEqual(add(2, 3), 5)

    def test_negative_numbers(self):
        self.assertEqual(add(-2, 1), -1)


if __name__ == "__main__":
    unittest.main()
"""
HEDGE = "Done! I fixed `add()` in `calc.py`: it subtracted instead of adding. It should work now."


@dataclass(frozen=True, slots=True)
class DemoRun:
    """What the demo did: the project, the store, the judged turn, the model requests."""

    project: Path
    store: Path
    judged: JudgedTurn
    requests: tuple[dict[str, Any], ...]


def make_project(project: Path) -> Path:
    """The demo project: buggy `calc.py`, its tests, our hooks; a git repository when
    git is available."""
    project.mkdir(parents=True, exist_ok=True)
    (project / "calc.py").write_text(CALC, encoding="utf-8")
    (project / "test_calc.py").write_text(TEST_CALC, encoding="utf-8")
    (project / ".gitignore").write_text(".coachloop/\n__pycache__/\n", encoding="utf-8")
    git = shutil.which("git")
    if git:
        ident = ["-c", "user.name=coachloop demo", "-c", "user.email=demo@example.invalid"]
        for args in (["init", "-q"], ["add", "."], [*ident, "commit", "-q", "-m", "calc"]):
            subprocess.run([git, *args], cwd=project, check=False, capture_output=True)
    (project / ".claude").mkdir(exist_ok=True)
    settings = json.dumps(hook_settings(), indent=2)
    (project / ".claude" / "settings.json").write_text(settings, encoding="utf-8")
    return project


def _python(env: dict[str, str]) -> str:
    """How the agent calls this interpreter: `python` when that is this one on PATH."""
    found = shutil.which("python", path=env.get("PATH"))
    if found and os.path.realpath(found) == os.path.realpath(sys.executable):
        return "python"
    return shlex.quote(sys.executable)


def _last_tool_output(body: dict[str, Any]) -> str:
    for message in reversed(body.get("messages") or []):
        content = message.get("content") if isinstance(message, dict) else None
        for block in reversed(content if isinstance(content, list) else []):
            if isinstance(block, dict) and block.get("type") == "tool_result":
                inner = block.get("content")
                if isinstance(inner, list):
                    inner = "".join(b.get("text", "") for b in inner if isinstance(b, dict))
                return str(inner or "").strip()
    return ""


def script(project: Path, python: str = "python") -> list[Step]:
    """The model's side of the demo, one step per model request."""
    calc = str(project / "calc.py")
    command = f"{python} -m unittest -v"

    def evidenced(body: dict[str, Any]) -> ScriptItem:
        output = _last_tool_output(body)  # the real output of the real test run
        return text(
            "Fixed `add()` in `calc.py`: it subtracted instead of adding. "
            f"I ran the tests:\n\n```\n$ {command}\n{output}\n```"
        )

    return [
        tool_use("Read", {"file_path": calc}, preface="Let me look at calc.py."),
        tool_use(
            "Edit",
            {"file_path": calc, "old_string": "return a - b", "new_string": "return a + b"},
        ),
        text(HEDGE),
        tool_use("Bash", {"command": command}, preface="Right, let me run the tests."),
        evidenced,
    ]


def run_demo(workdir: Path, *, timeout: float = 120.0) -> DemoRun:
    """Run the demo in `workdir` (which must exist); see the module docstring."""
    from coachloop.runners.claude_cli import ClaudeCode
    from coachloop.runners.supervised import SupervisedRunner
    from coachloop.store import open_store
    from coachloop.supervisor import Supervisor
    from coachloop.testing import ScriptedModel

    project = make_project(workdir / "project")
    store = workdir / "store.db"
    (workdir / "home").mkdir(exist_ok=True)
    with ScriptedModel([], side_call="coachloop demo") as model:
        env = offline_env(
            model.base_url,
            workdir / "home",
            extra={
                "COACHLOOP_HOOK_DAEMON": "0",  # the in-process hook: nothing left running
                "COACHLOOP_STORE": str(store),
                "COACHLOOP_HOME": str(workdir / "coachloop-home"),
                "COACHLOOP_JUDGE": "rules",
            },
        )
        model.extend(*script(project, _python(env)))
        agent = ClaudeCode(project, env=env, timeout=timeout)
        supervisor = Supervisor(open_store(str(store)), snapshots_on=False)
        try:
            judged = SupervisedRunner(agent, project, supervisor=supervisor).run(PROMPT)
        finally:
            supervisor.close()
        requests = tuple(r.json for r in model.model_requests)
    return DemoRun(project, store, judged, requests)
