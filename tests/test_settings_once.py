"""The config files are parsed once per process and content, whoever reads them."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from coachloop.chat.config import user_table
from coachloop.config import ConfigError, load_settings
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


def test_the_environment_is_read_once_until_a_variable_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One `Environment` per process and environment: the same object on every read,
    a new one as soon as a test (or anyone) sets a COACHLOOP_* variable."""
    from coachloop.cli.errors import is_debug
    from coachloop.config import home
    from coachloop.config.env import environment
    from coachloop.store import resolve
    from coachloop.supervisor.service import retention_days

    monkeypatch.delenv("COACHLOOP_DEBUG", raising=False)
    monkeypatch.delenv("COACHLOOP_STORE", raising=False)
    first = environment()
    assert environment() is first and not is_debug([])
    monkeypatch.setenv("COACHLOOP_DEBUG", "1")
    monkeypatch.setenv("COACHLOOP_STORE", str(tmp_path / "env.db"))
    monkeypatch.setenv("COACHLOOP_SNAPSHOT_RETENTION_DAYS", "2.5")
    monkeypatch.setenv("COACHLOOP_MAX_AUTO_CONTINUES", "5")
    second = environment()
    assert second is not first and environment() is second
    assert is_debug([]) and retention_days() == 2.5
    assert resolve().text == str(tmp_path / "env.db") and resolve().chosen == "env"
    assert load_settings().max_auto_continues == 5
    monkeypatch.setenv("COACHLOOP_HOME", str(tmp_path / "elsewhere"))
    assert home() == tmp_path / "elsewhere"
    monkeypatch.delenv("COACHLOOP_STORE")
    assert resolve().chosen == "default" and environment().store is None
    monkeypatch.setenv("COACHLOOP_MAX_AUTO_CONTINUES", "nine")
    with pytest.raises(ConfigError, match="COACHLOOP_MAX_AUTO_CONTINUES"):
        load_settings()


def test_secrets_stay_out_of_the_environment_repr(monkeypatch: pytest.MonkeyPatch) -> None:
    from coachloop.config.env import environment

    monkeypatch.setenv("COACHLOOP_SERVE_TOKEN", "  zq-serve-7781 ")
    monkeypatch.setenv("COACHLOOP_TELEGRAM_TOKEN", "123:zq-tg-4456")
    env = environment()
    assert env.serve_token == "zq-serve-7781"  # stripped, as `read_token` did
    assert "zq-" not in repr(env) and "serve_token='***'" in repr(env)
