"""Which Claude Code runs: `$COACHLOOP_CLAUDE`, else `claude` on PATH, else the bundled
one (the `claude` extra), and the core install does not pull the bundled one in."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from coachloop.runners.claude_env import describe_claude, find_claude

ROOT = Path(__file__).resolve().parents[1]


def test_a_claude_on_path_is_preferred_to_the_bundled_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("COACHLOOP_CLAUDE", raising=False)
    own = tmp_path / "bin" / "claude"
    own.parent.mkdir()
    own.write_text("#!/bin/sh\necho 2.0.0\n")
    own.chmod(0o755)
    monkeypatch.setenv("PATH", f"{own.parent}:/usr/bin:/bin")
    assert find_claude() == own
    assert describe_claude(own) == f"{own} (on PATH)"


def test_without_one_on_path_the_bundled_one_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("COACHLOOP_CLAUDE", raising=False)
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    found = find_claude()
    assert "claude_agent_sdk" in str(found)
    assert describe_claude(found).endswith("(bundled in claude-agent-sdk)")


def test_the_core_install_leaves_the_bundled_claude_code_to_an_extra() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert not any(dep.startswith("claude-agent-sdk") for dep in project["dependencies"])
    extras = project["optional-dependencies"]
    for extra in ("claude", "dev"):
        assert any(dep.startswith("claude-agent-sdk") for dep in extras[extra])
