"""`coachloop install` / `uninstall` through click's runner, on real files in tmp dirs.

Each test gets a fresh project directory and HOME, and a PATH without this
installation's scripts directory, so the installed command is the absolute path of
`.venv/bin/coachloop` (the test with the scripts directory on PATH checks the bare
`coachloop`).
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import tomllib
from pathlib import Path
from typing import Any

import pytest

from coachloop.install.common import is_our_command, is_our_handler, is_our_url
from install_support import (
    CLAUDE_EVENTS,
    HOOK_PREFIX,
    LAUNCH,
    SCRIPT,
    project_fixture,  # noqa: F401 - a fixture
    run,
)


def load(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def ours(command: str = "claude-code") -> str:
    return f"{HOOK_PREFIX} hook {command}"


def reinstall_then_uninstall(agent: str, project: Path, path: Path, theirs: Any) -> None:
    """Installing `agent` in `project` again leaves `path` byte for byte as it is; then
    uninstalling gives back `theirs`, the JSON that was there before coachloop's hooks."""
    first = path.read_bytes()
    assert run("install", "--agent", agent, "--dir", str(project)).exit_code == 0
    assert path.read_bytes() == first
    assert run("uninstall", "--agent", agent, "--dir", str(project)).exit_code == 0
    assert load(path) == theirs


FOREIGN_CLAUDE: dict[str, Any] = {
    "permissions": {"allow": ["Bash(npm test:*)"], "deny": []},
    "model": "opus",
    "hooks": {
        "Stop": [{"hooks": [{"type": "command", "command": "afplay done.aiff", "timeout": 5}]}],
        "PreToolUse": [
            {"matcher": "Bash", "hooks": [{"type": "command", "command": "./guard.sh"}]}
        ],
        "Notification": [
            {
                "matcher": "permission_prompt",
                "hooks": [{"type": "http", "url": "http://alerts.local/hooks/tool-executed"}],
            }
        ],
    },
    "statusLine": {"type": "command", "command": "echo hi"},
}


def test_fresh_install_adds_one_command_handler_per_event(project: Path) -> None:
    res = run("install", "--dir", str(project))
    assert res.exit_code == 0, res.output
    path = project / ".claude" / "settings.json"
    data = load(path)
    assert list(data["hooks"]) == CLAUDE_EVENTS
    for event in CLAUDE_EVENTS:
        assert data["hooks"][event] == [
            {"hooks": [{"type": "command", "command": ours(), "timeout": 30}]}
        ]
    assert not (project / ".claude" / "settings.json.bak").exists()  # nothing to back up
    assert "[changed]" in res.output and str(path) in res.output


def test_installing_twice_changes_nothing(project: Path) -> None:
    path = project / ".claude" / "settings.json"
    path.parent.mkdir()
    path.write_text(json.dumps(FOREIGN_CLAUDE, indent=4))
    assert run("install", "--dir", str(project)).exit_code == 0
    first, first_mtime = path.read_bytes(), path.stat().st_mtime_ns
    res = run("install", "--dir", str(project))
    assert res.exit_code == 0 and "already installed" in res.output and "[unchanged]" in res.output
    assert path.read_bytes() == first and path.stat().st_mtime_ns == first_mtime
    assert sorted(p.name for p in path.parent.iterdir()) == ["settings.json"]  # no backup


def test_foreign_hooks_and_settings_are_kept_and_uninstall_restores_them(project: Path) -> None:
    path = project / ".claude" / "settings.json"
    path.parent.mkdir()
    original = json.dumps(FOREIGN_CLAUDE, indent=4).encode()
    path.write_bytes(original)
    assert run("install", "--dir", str(project)).exit_code == 0
    data = load(path)
    assert not path.with_name("settings.json.bak").exists()  # only with --backup
    for key in ("permissions", "model", "statusLine"):
        assert data[key] == FOREIGN_CLAUDE[key]
    stop = data["hooks"]["Stop"]
    assert stop[0] == FOREIGN_CLAUDE["hooks"]["Stop"][0]  # theirs first, untouched
    assert stop[1] == {"hooks": [{"type": "command", "command": ours(), "timeout": 30}]}
    pre = data["hooks"]["PreToolUse"]  # theirs first, untouched; ours (for /stop) after
    assert pre[0] == FOREIGN_CLAUDE["hooks"]["PreToolUse"][0] and len(pre) == 2
    assert data["hooks"]["Notification"][0] == FOREIGN_CLAUDE["hooks"]["Notification"][0]
    assert len(data["hooks"]["Notification"]) == 2

    res = run("uninstall", "--agent", "claude-code", "--dir", str(project))
    assert res.exit_code == 0 and "removed" in res.output
    assert load(path) == FOREIGN_CLAUDE
    again = run("uninstall", "--agent", "claude-code", "--dir", str(project))
    assert again.exit_code == 0 and "no coachloop hooks found" in again.output


def test_uninstall_keeps_foreign_handlers_in_a_group_we_share(project: Path) -> None:
    path = project / ".claude" / "settings.json"
    path.parent.mkdir()
    mixed = {
        "hooks": {
            "Stop": [
                {
                    "hooks": [
                        {"type": "command", "command": "coachloop hook claude-code"},
                        {"type": "command", "command": "./notify.sh"},
                    ]
                }
            ],
            "SessionEnd": [],
        }
    }
    path.write_text(json.dumps(mixed))
    assert run("uninstall", "--dir", str(project)).exit_code == 0
    assert load(path) == {
        "hooks": {
            "Stop": [{"hooks": [{"type": "command", "command": "./notify.sh"}]}],
            "SessionEnd": [],
        }
    }


def test_http_hooks_replace_command_hooks_and_skip_session_start(project: Path) -> None:
    assert run("install", "--dir", str(project)).exit_code == 0
    res = run("install", "--http", "http://127.0.0.1:8787/", "--dir", str(project))
    assert res.exit_code == 0, res.output
    data = load(project / ".claude" / "settings.json")
    assert "SessionStart" not in data["hooks"]  # Claude Code ignores http SessionStart hooks
    assert list(data["hooks"]) == [e for e in CLAUDE_EVENTS if e != "SessionStart"]
    for groups in data["hooks"].values():
        assert groups == [
            {
                "hooks": [
                    {
                        "type": "http",
                        "url": "http://127.0.0.1:8787/hooks/claude-code",
                        "timeout": 30,
                        # `coachloop serve` always wants its token: by default from here
                        "headers": {"Authorization": "Bearer $COACHLOOP_SERVE_TOKEN"},
                        "allowedEnvVars": ["COACHLOOP_SERVE_TOKEN"],
                    }
                ]
            }
        ]
    run("uninstall", "--dir", str(project))
    assert not (project / ".claude").exists()  # install created it; uninstall removed it


def test_user_scope_writes_under_home(project: Path, tmp_path: Path) -> None:
    res = run("install", "--user", "--dir", str(project))
    assert res.exit_code == 0, res.output
    user = tmp_path / "home" / ".claude" / "settings.json"
    assert load(user)["hooks"]["Stop"][0]["hooks"][0]["command"] == ours()
    assert not (project / ".claude").exists()
    assert run("uninstall", "--user", "--dir", str(project)).exit_code == 0
    assert not user.exists()


def test_claude_config_dir_and_local_scope(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "cfg"))
    assert run("install", "--user", "--dir", str(project)).exit_code == 0
    assert (tmp_path / "cfg" / "settings.json").is_file()
    assert run("install", "--local", "--dir", str(project)).exit_code == 0
    assert (project / ".claude" / "settings.local.json").is_file()
    assert not (project / ".claude" / "settings.json").exists()


@pytest.mark.parametrize(
    "content",
    [b"{not json", b'{"hooks": {}, "hooks": {}}', b"[]", b'{"hooks": []}', b"\xff\xfe{}"],
)
def test_a_file_we_cannot_trust_is_refused_untouched(project: Path, content: bytes) -> None:
    path = project / ".claude" / "settings.json"
    path.parent.mkdir()
    path.write_bytes(content)
    res = run("install", "--dir", str(project))
    assert res.exit_code == 2
    assert str(path) in res.output and "Error:" in res.output
    assert path.read_bytes() == content
    assert sorted(p.name for p in path.parent.iterdir()) == ["settings.json"]
    assert run("uninstall", "--dir", str(project)).exit_code == 2
    assert path.read_bytes() == content


def test_write_keeps_file_mode_and_first_backup(project: Path) -> None:
    path = project / ".claude" / "settings.json"
    path.parent.mkdir()
    path.write_text('{"model": "opus"}')
    path.chmod(0o600)
    run("install", "--backup", "--dir", str(project))
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    run("uninstall", "--backup", "--dir", str(project))
    run("install", "--backup", "--dir", str(project))
    assert path.with_name("settings.json.bak").read_text() == '{"model": "opus"}'


@pytest.mark.parametrize("older", [f"{SCRIPT} hook claude-code", "coachloop hook claude-code"])
def test_the_launcher_replaces_an_older_command_whatever_is_on_path(
    project: Path, monkeypatch: pytest.MonkeyPatch, older: str
) -> None:
    monkeypatch.setenv("PATH", f"{SCRIPT.parent}:/usr/bin:/bin")
    path = project / ".claude" / "settings.json"
    path.parent.mkdir()
    # An older install (the script's path, or the bare name): replaced, never duplicated.
    path.write_text(
        json.dumps({"hooks": {"Stop": [{"hooks": [{"type": "command", "command": older}]}]}})
    )
    assert run("install", "--dir", str(project)).exit_code == 0
    stop = load(path)["hooks"]["Stop"]
    assert stop == [{"hooks": [{"type": "command", "command": ours(), "timeout": 30}]}]
    done = subprocess.run(  # the command as the agent runs it: by a shell
        ["bash", "-c", ours()], input=b"not json", capture_output=True, check=False
    )
    assert done.returncode == 0 and done.stdout == b""  # fails open, like the script


def test_usage_errors_exit_2(project: Path) -> None:
    assert (
        run("install", "--agent", "codex", "--http", "http://x", "--dir", str(project)).exit_code
        == 2
    )
    assert run("install", "--agent", "gemini", "--local", "--dir", str(project)).exit_code == 2
    assert run("install", "--http", "ftp://x", "--dir", str(project)).exit_code == 2
    assert run("install", "--notify", "--dir", str(project)).exit_code == 2
    assert run("install", "--token-env", "TOKEN", "--dir", str(project)).exit_code == 2
    bad_name = run("install", "--http", "http://x", "--token-env", "A-B", "--dir", str(project))
    assert bad_name.exit_code == 2 and "not an environment variable name" in bad_name.output
    assert list(project.iterdir()) == []


def test_http_token_header_names_the_variable_never_the_value(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COACHLOOP_SERVE_TOKEN", "do-not-write-me")
    res = run(
        "install",
        "--http",
        "https://coach.example",
        "--token-env",
        "COACHLOOP_SERVE_TOKEN",
        "--dir",
        str(project),
    )
    assert res.exit_code == 0, res.output
    path = project / ".claude" / "settings.json"
    assert "do-not-write-me" not in path.read_text()
    assert load(path)["hooks"]["Stop"] == [
        {
            "hooks": [
                {
                    "type": "http",
                    "url": "https://coach.example/hooks/claude-code",
                    "timeout": 30,
                    "headers": {"Authorization": "Bearer $COACHLOOP_SERVE_TOKEN"},
                    "allowedEnvVars": ["COACHLOOP_SERVE_TOKEN"],
                }
            ]
        }
    ]


def test_we_recognise_only_our_handlers() -> None:
    assert is_our_command("coachloop hook claude-code")
    assert is_our_command("/opt/venv/bin/coachloop hook codex")
    assert is_our_command("'/path with space/coachloop' hook gemini")
    assert is_our_command("python3 -m coachloop hook claude-code")
    assert is_our_command(ours("gemini"))
    assert not is_our_command("python3 -c 'print(1)' hook claude-code")
    assert not is_our_command("echo coachloop hook claude-code")
    assert not is_our_command("coachloop judge")
    assert not is_our_command("coachloop-other hook x")
    assert not is_our_command("unbalanced 'quote")
    assert is_our_url("http://127.0.0.1:8787/hooks/claude-code")
    assert is_our_url("https://coach.example/team/hooks/codex")
    assert not is_our_url("http://alerts.local/hooks/tool-executed")
    assert not is_our_handler({"type": "prompt", "prompt": "coachloop hook claude-code"})
    assert not is_our_handler("coachloop hook claude-code")


# --- Codex CLI ---------------------------------------------------------------------------

CODEX_CONFIG = """\
# my codex config
# (hand-written)

model = "gpt-5-codex"  # the default model
approval_policy = "on-request"

[features]
web_search = true

[mcp_servers.docs]
command = "npx"
args = ["-y", "docs-mcp"]
"""


def test_codex_hooks_round_trip(project: Path) -> None:
    hooks = project / ".codex" / "hooks.json"
    hooks.parent.mkdir()
    theirs: dict[str, Any] = {
        "hooks": {
            "Stop": [{"hooks": [{"type": "command", "command": "python3 .codex/stop.py"}]}],
            "SessionStart": [
                {"matcher": "startup", "hooks": [{"type": "command", "command": "./ctx.sh"}]}
            ],
        }
    }
    hooks.write_text(json.dumps(theirs))
    res = run("install", "--agent", "codex", "--dir", str(project))
    assert res.exit_code == 0, res.output
    # the install says, with the fix, that Codex will not run them yet
    assert "only when the project is trusted" in res.output
    assert "UserPromptSubmit hooks: they are not trusted yet" in res.output
    assert "/hooks" in res.output
    assert "--dangerously-bypass-hook-trust" in res.output
    data = load(hooks)
    assert data["hooks"]["SessionStart"] == theirs["hooks"]["SessionStart"]
    handler = {"type": "command", "command": ours("codex"), "timeout": 30}
    assert data["hooks"]["Stop"] == [theirs["hooks"]["Stop"][0], {"hooks": [handler]}]
    assert data["hooks"]["UserPromptSubmit"] == [{"hooks": [handler]}]
    reinstall_then_uninstall("codex", project, hooks, theirs)


def user_codex(project: Path) -> Path:
    """The user's Codex directory of the `project` fixture (HOME/.codex; no CODEX_HOME)."""
    return Path(os.environ["HOME"]) / ".codex"


def test_codex_notify_is_a_minimal_text_edit_of_the_users_config(project: Path) -> None:
    config = user_codex(project) / "config.toml"
    config.parent.mkdir()
    config.write_text(CODEX_CONFIG)
    res = run("install", "--agent", "codex", "--user", "--notify", "--dir", str(project))
    assert res.exit_code == 0, res.output
    text = config.read_text()
    parsed = tomllib.loads(text)
    assert parsed.pop("notify") == [*LAUNCH, "hook", "codex-notify"]
    assert parsed == tomllib.loads(CODEX_CONFIG)
    assert text.startswith("# my codex config\n# (hand-written)\n\n# coachloop:")
    assert all(line in text.splitlines() for line in CODEX_CONFIG.splitlines())
    assert not (config.parent / "hooks.json").exists()  # notify instead of the hooks
    assert run("install", "--agent", "codex", "--user", "--notify").exit_code == 0
    assert config.read_text() == text
    assert run("uninstall", "--agent", "codex", "--user").exit_code == 0
    assert config.read_text() == CODEX_CONFIG


def test_codex_notify_at_project_scope_is_refused_with_the_reason(project: Path) -> None:
    config = project / ".codex" / "config.toml"
    config.parent.mkdir()
    config.write_text(CODEX_CONFIG)
    res = run("install", "--agent", "codex", "--notify", "--dir", str(project))
    assert res.exit_code == 1 and "[refused]" in res.output
    assert "Codex ignores notify in a project's .codex/config.toml" in res.output
    assert "coachloop install --agent codex --user --notify" in res.output
    assert config.read_text() == CODEX_CONFIG
    assert not (project / ".codex" / "hooks.json").exists()


def test_codex_switches_between_notify_and_the_hooks(project: Path) -> None:
    user = ("--agent", "codex", "--user", "--dir", str(project))
    assert run("install", "--notify", *user).exit_code == 0
    config = user_codex(project) / "config.toml"
    assert "notify" in tomllib.loads(config.read_text())
    res = run("install", *user)
    assert res.exit_code == 0 and "removed coachloop's notify" in res.output
    assert tomllib.loads(config.read_text()) == {}
    assert "Stop" in load(user_codex(project) / "hooks.json")["hooks"]
    assert run("install", "--notify", *user).exit_code == 0
    assert not (user_codex(project) / "hooks.json").exists()  # emptied: removed


def test_codex_never_replaces_a_users_notify(project: Path) -> None:
    config = user_codex(project) / "config.toml"
    config.parent.mkdir()
    mine = 'notify = ["notify-send", "Codex"]\n' + CODEX_CONFIG
    config.write_text(mine)
    res = run("install", "--agent", "codex", "--user", "--notify", "--dir", str(project))
    assert res.exit_code == 1 and "notify-send Codex" in res.output and "[refused]" in res.output
    assert config.read_text() == mine
    assert run("uninstall", "--agent", "codex", "--user", "--dir", str(project)).exit_code == 0
    assert config.read_text() == mine


def test_codex_user_scope_and_bad_toml(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CODEX_HOME", str(tmp_path / "codex-home"))
    assert run("install", "--agent", "codex", "--user", "--dir", str(project)).exit_code == 0
    assert (tmp_path / "codex-home" / "hooks.json").is_file()
    config = tmp_path / "codex-home" / "config.toml"
    config.write_text("model = \n")
    res = run("install", "--agent", "codex", "--user", "--notify", "--dir", str(project))
    assert res.exit_code == 2 and "not valid TOML" in res.output
    assert config.read_text() == "model = \n"


def test_codex_uninstall_with_an_unreadable_config_still_removes_the_hook(project: Path) -> None:
    assert run("install", "--agent", "codex", "--dir", str(project)).exit_code == 0
    config = project / ".codex" / "config.toml"
    config.write_text("[broken\n")
    res = run("uninstall", "--agent", "codex", "--dir", str(project))
    assert res.exit_code == 0 and "not checked for a notify entry" in res.output
    assert not (project / ".codex" / "hooks.json").exists()
    assert config.read_text() == "[broken\n"


# --- Gemini CLI --------------------------------------------------------------------------


def test_gemini_after_agent_round_trip(project: Path) -> None:
    path = project / ".gemini" / "settings.json"
    path.parent.mkdir()
    theirs: dict[str, Any] = {
        "general": {"vimMode": True},
        "hooksConfig": {"enabled": True},
        "hooks": {
            "disabled": ["secret-scanner"],
            "BeforeTool": [
                {
                    "matcher": "write_file|replace",
                    "hooks": [
                        {"name": "secret-scanner", "type": "command", "command": "./scan.sh"}
                    ],
                }
            ],
            "AfterAgent": [
                {"hooks": [{"type": "command", "command": "./log.sh", "timeout": 5000}]}
            ],
        },
    }
    path.write_text(json.dumps(theirs, indent=2))
    res = run("install", "--agent", "gemini", "--dir", str(project))
    assert res.exit_code == 0, res.output
    data = load(path)
    after = data["hooks"]["AfterAgent"]
    assert after[0] == theirs["hooks"]["AfterAgent"][0]
    assert after[1]["hooks"][0]["command"] == ours("gemini")
    assert after[1]["hooks"][0]["timeout"] == 30000  # milliseconds
    assert after[1]["hooks"][0]["name"] == "coachloop"
    for key in ("general", "hooksConfig"):
        assert data[key] == theirs[key]
    assert data["hooks"]["disabled"] == ["secret-scanner"]
    reinstall_then_uninstall("gemini", project, path, theirs)


def test_uninstall_without_agent_covers_every_agent(project: Path) -> None:
    for agent in ("claude-code", "codex", "gemini"):
        assert run("install", "--agent", agent, "--dir", str(project)).exit_code == 0
    res = run("uninstall", "--dir", str(project))
    assert res.exit_code == 0 and res.output.count("removed coachloop's hooks") == 3
    # the files install created are gone, and their folders (no temp files, no backups)
    for folder in (".claude", ".codex", ".gemini"):
        assert not (project / folder).exists()


# --- the real Claude Code runs what we installed -----------------------------------------


def test_real_claude_code_runs_the_installed_hooks_until_uninstalled(
    project: Path, tmp_path: Path
) -> None:
    from coachloop.runners.claude_env import offline_env
    from coachloop.testing import ScriptedModel, text
    from e2e_support import claude_print

    assert run("install", "--dir", str(project)).exit_code == 0

    def claude_session(model: ScriptedModel) -> str:
        env = offline_env(model.base_url, tmp_path / "home", extra={"COACHLOOP_HOOK_DAEMON": "0"})
        return str(claude_print(project, "set up the database", env)["session_id"])

    def recorded() -> dict[str, dict[str, Any]]:
        res = run("sessions", "--json", "--project", str(project))
        return {row["session"]: row for row in json.loads(res.stdout)["sessions"]}

    question = "Which database should I use, Postgres or SQLite?"
    with ScriptedModel([text(question)], side_call="Title") as model:
        first = claude_session(model)
    row = recorded()[first]  # UserPromptSubmit, Stop and SessionEnd reached our hook
    assert row["agent"] == "claude-code" and row["last_verdict"] == "question"
    assert row["last_decision"] == "deliver" and row["status"] == "done"

    assert run("uninstall", "--dir", str(project)).exit_code == 0
    with ScriptedModel([text(question)], side_call="Title") as model:
        second = claude_session(model)
    assert second != first and list(recorded()) == [first]  # no hook ran this time
