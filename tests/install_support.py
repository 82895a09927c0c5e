"""Helpers for the `coachloop install` / `doctor` tests: the CLI through click's runner
and a fresh project with its own HOME.

The fixture `project` is defined here as `project_fixture`; a test module imports that
name to use it.
"""

from __future__ import annotations

import shlex
import sysconfig
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from coachloop.cli import cli
from coachloop.install.common import coachloop_executable

# This installation's console script (the tests run the CLI with it).
SCRIPT = Path(sysconfig.get_path("scripts")) / "coachloop"
# What `install` writes before "hook AGENT": this interpreter running the entry point.
LAUNCH = coachloop_executable()
HOOK_PREFIX = shlex.join(LAUNCH)
# The Claude Code events `install` adds a handler for, in order.
CLAUDE_EVENTS = [
    "Stop",
    "SubagentStop",
    "StopFailure",
    "UserPromptSubmit",
    "Notification",
    "SessionStart",
    "SessionEnd",
    "PostToolUse",
    "PreToolUse",
]


@pytest.fixture(name="project")
def project_fixture(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty project directory `tmp_path/proj`, with HOME at `tmp_path/home`, a PATH
    without this installation's scripts directory, and no CLAUDE_CONFIG_DIR, CODEX_HOME
    or COACHLOOP_STORE from the calling environment."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    for name in ("CLAUDE_CONFIG_DIR", "CODEX_HOME", "COACHLOOP_STORE"):
        monkeypatch.delenv(name, raising=False)
    proj = tmp_path / "proj"
    proj.mkdir()
    return proj


def run(*args: str) -> Result:
    """`coachloop ARGS` through click's runner (exceptions propagate)."""
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)
