"""The config files are parsed once per process and content, whoever reads them."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from coachloop.chat.config import user_table
from coachloop.config import load_settings
from coachloop.store import config_table, store_config


def test_each_config_file_is_parsed_once_until_it_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("COACHLOOP_HOME", str(home))
    (home / "config.toml").write_text("max_auto_continues = 2\n[snapshots]\nretention_days = 3\n")
    proj = tmp_path / "proj"
    (proj / ".coachloop").mkdir(parents=True)
    project_file = proj / ".coachloop" / "config.toml"
    project_file.write_text("max_auto_continues = 1\n")
    parsed: list[str] = []
    real = tomllib.loads

    def counting(text: str) -> dict[str, object]:
        parsed.append(text)
        return real(text)

    monkeypatch.setattr(tomllib, "loads", counting)
    for _ in range(3):  # a cold stop reads settings twice, the store's and snapshots' tables
        assert load_settings(proj).max_auto_continues == 1
        assert config_table("snapshots", proj) == {"retention_days": 3}
        assert store_config(proj) == {}
        assert user_table()[0] == {}  # the bridge's [telegram] table, from the same parse
    assert len(parsed) == 2
    project_file.write_text("max_auto_continues = 0\n")  # same size, new content
    assert load_settings(proj).max_auto_continues == 0
    assert len(parsed) == 3
    project_file.unlink()
    assert load_settings(proj).max_auto_continues == 2
