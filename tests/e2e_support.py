"""End-to-end support: the real Claude Code, our hooks, the scripted model, one sandbox.

`Sandbox` is a throw-away git project with a tiny Python package and its test, our hooks
in `<project>/.claude/settings.json` (the in-process hook path: COACHLOOP_HOOK_DAEMON=0),
a private HOME for Claude Code and one SQLite store that the hooks, the runner and
`coachloop show` all use. `Sandbox.runner(model)` gives a `SupervisedRunner` driving the
real binary against `model`.
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from coachloop.runners.claude_cli import ClaudeCode
from coachloop.runners.claude_env import hook_settings, offline_env
from coachloop.runners.supervised import SupervisedRunner
from coachloop.store import EventRecord, Store, open_store
from coachloop.supervisor import Supervisor
from coachloop.testing import ScriptedModel, ScriptItem, text, tool_results, tool_use

CALC = "def add(a, b):\n    return a + b\n"
TEST_CALC = (
    "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n"
    "\n\ndef test_add_negative():\n    assert add(-2, 1) == -1\n"
)
TURN_TIMEOUT = 60.0
# The agent really runs the tests before it reports them: claims are checked against
# the turn's record, and output pasted from a run that never happened is sent back.
RUN_TESTS = tool_use("Bash", {"command": "python -m pytest -q"})
CLAUDE_PRINT_TIMEOUT = 120


def claude_print(project: Path, prompt: str, env: dict[str, str], *args: str) -> Any:
    """The JSON output of one real `claude -p PROMPT --output-format json ARGS` in
    `project` with `env`; fails the test when it does not exit 0 (with its stderr)."""
    from coachloop.runners.claude_env import find_claude

    done = subprocess.run(
        [str(find_claude()), "-p", prompt, "--output-format", "json", *args],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=CLAUDE_PRINT_TIMEOUT,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def git(project: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", *args],
        cwd=project,
        check=True,
        capture_output=True,
    )


def calc_project(project: Path) -> Path:
    """A git work tree with `calc.py` and its pytest test, committed (no hooks)."""
    project.mkdir(parents=True)
    (project / "calc.py").write_text(CALC)
    (project / "test_calc.py").write_text(TEST_CALC)
    (project / ".gitignore").write_text(".coachloop/\n.pytest_cache/\n__pycache__/\n")
    git(project, "init", "-q")
    git(project, "add", ".")
    git(project, "commit", "-q", "-m", "calc")
    return project


def make_project(project: Path) -> Path:
    """`calc_project` with our hooks installed in `.claude/settings.json` (uncommitted)."""
    calc_project(project)
    (project / ".claude").mkdir()
    (project / ".claude" / "settings.json").write_text(json.dumps(hook_settings(), indent=2))
    return project


@dataclass
class Sandbox:
    """One throw-away project, HOME and store (see the module docstring)."""

    root: Path

    def __post_init__(self) -> None:
        self.project = make_project(self.root / "project")
        self.home = self.root / "home"
        self.home.mkdir()
        self.store_path = self.root / "store" / "coachloop.db"

    def env(self, model: ScriptedModel, **extra: str) -> dict[str, str]:
        """Claude Code's environment: offline against `model`, our in-process hook."""
        return offline_env(
            model.base_url,
            self.home,
            extra={
                "COACHLOOP_HOOK_DAEMON": "0",
                "COACHLOOP_STORE": str(self.store_path),
                **extra,
            },
        )

    def runner(self, model: ScriptedModel, **extra: str) -> SupervisedRunner:
        agent = ClaudeCode(self.project, env=self.env(model, **extra), timeout=TURN_TIMEOUT)
        return SupervisedRunner(agent, self.project, supervisor=self.supervisor())

    def supervisor(self) -> Supervisor:
        return Supervisor.open(self.project, store=str(self.store_path))

    def store(self) -> Store:
        return open_store(str(self.store_path))

    def timeline(self, session_id: str) -> list[EventRecord]:
        store = self.store()
        try:
            return store.timeline(session_id)
        finally:
            store.close()

    def stops(self, session_id: str) -> list[EventRecord]:
        return [r for r in self.timeline(session_id) if r.kind == "stop"]

    def outbox(self, session_id: str) -> list[Any]:
        store = self.store()
        try:
            return [e for e in store.outbox_pending(1000) if e.session_id == session_id]
        finally:
            store.close()

    def show(self, session_id: str) -> str:
        """`coachloop show SESSION` as a real process, on the sandbox's store."""
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "coachloop",
                "show",
                session_id,
                "--store",
                str(self.store_path),
            ],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        return done.stdout


def decisions(records: list[EventRecord]) -> list[str]:
    return [str(r.decision) for r in records]


def evidenced(body: dict[str, Any]) -> ScriptItem:
    """The model's answer after running the tests: it quotes the real tool output."""
    output = list(tool_results(body))[-1].strip()
    return text(
        f"Fixed `add()` in `calc.py`. I ran the tests:\n\n```\n$ python -m pytest -q\n{output}\n```"
    )
