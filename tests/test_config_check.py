"""Configuration values are checked when read: one line with file, key, range and fix;
`doctor` reports it; a hook fails open and says so once on stderr."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from coachloop.cli import cli
from coachloop.config import ConfigError, load_settings, trust
from coachloop.config.check import ALLOWED
from hook_support import make_project, run_hook, stop


def bad_project(tmp_path: Path, line: str = "max_auto_continues = 9") -> Path:
    project = make_project(tmp_path)
    (project / ".coachloop").mkdir()
    path = project / ".coachloop" / "config.toml"
    path.write_text(line + "\n")
    trust.record(path, path.read_text())  # the user trusted it: every key counts
    return project


def test_an_out_of_range_value_names_file_key_range_and_fix(tmp_path: Path) -> None:
    project = bad_project(tmp_path)
    with pytest.raises(ConfigError) as caught:
        load_settings(project)
    message = str(caught.value)
    assert str(project / ".coachloop" / "config.toml") in message
    assert "max_auto_continues = 9" in message
    assert "from 0 to 7" in message and "fix:" in message
    assert "\n" not in message


@pytest.mark.parametrize(
    ("line", "needle"),
    [
        ('judge = "gpt"', "rules, anthropic"),
        ("confidence_threshold = 1.5", "from 0 to 1"),
        ("llm_timeout = 0", "more than 0"),
        ("max_text_chars = 10", "from 1000"),
        ('max_auto_continues = "many"', "an integer"),
        ("max_auto_continues = true", "an integer"),
    ],
)
def test_each_rule_refuses_its_bad_values(tmp_path: Path, line: str, needle: str) -> None:
    with pytest.raises(ConfigError, match=needle):
        load_settings(bad_project(tmp_path, line))


def test_the_edges_of_every_range_are_accepted(tmp_path: Path) -> None:
    settings = load_settings(
        bad_project(
            tmp_path, "max_auto_continues = 7\nconfidence_threshold = 0\njudge = 'openai:x'"
        )
    )
    assert settings.max_auto_continues == 7
    assert set(ALLOWED) <= {
        "judge",
        "confidence_threshold",
        "llm_timeout",
        "max_text_chars",
        "max_auto_continues",
    }


def test_an_environment_variable_is_named_with_its_fix() -> None:
    with pytest.raises(ConfigError, match="COACHLOOP_MAX_AUTO_CONTINUES: max_auto_continues = 12"):
        load_settings(None, env={"COACHLOOP_MAX_AUTO_CONTINUES": "12"})


def test_doctor_reports_the_bad_value_and_fails(tmp_path: Path) -> None:
    project = bad_project(tmp_path)
    res = CliRunner().invoke(cli, ["doctor", "--dir", str(project)], catch_exceptions=False)
    assert res.exit_code == 1
    problems = [line for line in res.output.splitlines() if line.startswith("problem:")]
    found = [p for p in problems if "max_auto_continues = 9" in p]
    assert found and "config.toml" in found[0] and "from 0 to 7" in found[0], res.output
    assert "OK" not in res.output.splitlines()


def test_a_hook_fails_open_and_says_so_once_on_stderr(tmp_path: Path) -> None:
    project = bad_project(tmp_path)
    payload = json.dumps(stop("s1", project, "It should work now.")).encode()
    first = run_hook("claude-code", payload)
    assert first.returncode == 0 and first.stdout == b""  # fail open: the agent stops
    lines = first.stderr.decode().splitlines()
    assert len(lines) == 1 and "supervision is OFF" in lines[0]
    assert "max_auto_continues = 9" in lines[0]
    second = run_hook("claude-code", payload)
    assert second.returncode == 0 and second.stdout == b"" and second.stderr == b""


def test_doctor_warns_about_a_bridge_setting_the_bridge_would_refuse(tmp_path: Path) -> None:
    home = tmp_path / "coachloop-home"
    home.mkdir(exist_ok=True)
    (home / "config.toml").write_text("[telegram]\noutbox_interval = -1\n")
    project = make_project(tmp_path)
    res = CliRunner().invoke(cli, ["doctor", "--dir", str(project)], catch_exceptions=False)
    warning = [line for line in res.output.splitlines() if line.startswith("warning: bridge:")]
    assert warning and "config.toml" in warning[0] and "outbox_interval" in warning[0]
