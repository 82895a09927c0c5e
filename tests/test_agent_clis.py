"""The installer of the real Codex and Gemini CLIs used by the end-to-end tests (that it
installs and that they run is shown by those tests themselves)."""

from __future__ import annotations

from pathlib import Path

import pytest

import agent_clis as installer


def test_without_npm_the_install_fails_with_a_clear_message(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(installer, "CACHE", tmp_path / "npm-agents")
    monkeypatch.setenv("PATH", str(tmp_path))  # no npm here
    assert not installer.installed()
    with pytest.raises(installer.AgentCliError, match="npm is not on PATH"):
        installer.ensure()
    assert not (tmp_path / "npm-agents").exists()  # nothing half-installed
