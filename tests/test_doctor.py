"""`coachloop doctor` through click's runner: it reads the real settings files and
really runs the installed hook (`.venv/bin/coachloop hook ...`, with
COACHLOOP_HOOK_DAEMON=0), POSTs to a real local HTTP server, and opens the store."""

from __future__ import annotations

import json
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from install_support import (
    CLAUDE_EVENTS,
    HOOK_PREFIX,
    SCRIPT,
    project_fixture,  # noqa: F401 - a fixture
    run,
)


def doctor(project: Path, *args: str) -> tuple[int, dict[str, Any]]:
    res = run("doctor", "--json", "--dir", str(project), *args)
    return res.exit_code, json.loads(res.stdout)


def installation(report: dict[str, Any], agent: str, scope: str) -> dict[str, Any]:
    return next(i for i in report["installations"] if i["agent"] == agent and i["scope"] == scope)


def test_nothing_installed_is_a_problem(project: Path) -> None:
    code, report = doctor(project)
    assert code == 1 and not report["ok"]
    assert [(i["agent"], i["scope"]) for i in report["installations"]] == [
        ("claude-code", "project"),
        ("claude-code", "local"),
        ("claude-code", "user"),
        ("codex", "project"),
        ("codex", "user"),
        ("gemini", "project"),
        ("gemini", "user"),
    ]
    assert not any(i["installed"] for i in report["installations"])
    assert report["probes"] == []
    assert any("no coachloop hooks installed" in p for p in report["problems"])
    text = run("doctor", "--dir", str(project))
    assert text.exit_code == 1 and "problem: no coachloop hooks installed" in text.output


def test_installed_command_hook_answers(project: Path, tmp_path: Path) -> None:
    home = tmp_path / "coachloop-home"  # COACHLOOP_HOME (tests/conftest.py)
    assert run("install", "--dir", str(project)).exit_code == 0
    code, report = doctor(project)
    assert code == 0, report["problems"]
    claude = installation(report, "claude-code", "project")
    assert claude["installed"] and [h["event"] for h in claude["hooks"]] == CLAUDE_EVENTS
    assert {h["kind"] for h in claude["hooks"]} == {"command"}
    [probe] = report["probes"]  # one target, probed once
    assert probe["target"] == f"{HOOK_PREFIX} hook claude-code"  # the launcher, shown
    assert probe["resolves"] and probe["resolved"] == sys.executable
    assert probe["answers"] and probe["agents"] == ["claude-code"]
    assert 0 < probe["seconds"] < 30
    assert report["store"]["ok"] and report["store"]["location"] == str(home / "coachloop.db")
    assert report["judge"] == {"ok": True, "judge": "rules", "detail": "offline, no key needed"}
    text = run("doctor", "--dir", str(project))
    assert text.exit_code == 0 and "answers" in text.output and text.output.endswith("OK\n")
    # The probe is ignored by the hook: no session recorded, nothing logged as a failure.
    sessions = run("sessions", "--json", "--project", str(project))
    assert json.loads(sessions.stdout) == {"sessions": []}
    assert not (home / "logs" / "hook.log").exists()


def _write_hook(settings: Path, command: str, timeout: int = 30) -> None:
    settings.parent.mkdir(parents=True, exist_ok=True)
    handler = {"type": "command", "command": command, "timeout": timeout}
    settings.write_text(json.dumps({"hooks": {"Stop": [{"hooks": [handler]}]}}))


@pytest.mark.parametrize(
    ("body", "timeout", "expected"),
    [
        (None, 30, "not found"),
        ("echo hello", 30, "not JSON"),
        ('echo \'{"decision": "block"}\'; exit 3', 30, "exit 3"),
        ("sleep 5", 1, "no answer within 1 s"),
    ],
)
def test_a_hook_that_does_not_answer_fails(
    project: Path, tmp_path: Path, body: str | None, timeout: int, expected: str
) -> None:
    program = tmp_path / "bin" / "coachloop"  # named like ours, so it is recognised
    if body is not None:
        program.parent.mkdir()
        program.write_text(f"#!/bin/sh\ncat > /dev/null\n{body}\n")
        program.chmod(0o755)
    _write_hook(project / ".claude" / "settings.json", f"{program} hook claude-code", timeout)
    code, report = doctor(project, "--agent", "claude-code")
    assert code == 1
    [probe] = report["probes"]
    assert not probe["answers"] and expected in probe["detail"]
    assert probe["resolves"] == (body is not None)
    assert any(expected in p for p in report["problems"])


class _HookServer(BaseHTTPRequestHandler):
    received: list[tuple[str, dict[str, Any]]] = []  # noqa: RUF012 - shared with the test

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        self.received.append((self.path, json.loads(body)))
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(b"{}")

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def hook_server() -> Iterator[tuple[str, list[tuple[str, dict[str, Any]]]]]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _HookServer)
    _HookServer.received = []
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", _HookServer.received
    finally:
        server.shutdown()
        server.server_close()


def test_http_hook_answers_and_a_closed_port_does_not(
    project: Path, hook_server: tuple[str, list[tuple[str, dict[str, Any]]]]
) -> None:
    base, received = hook_server
    assert run("install", "--http", base, "--user", "--dir", str(project)).exit_code == 0
    code, report = doctor(project, "--agent", "claude-code")
    assert code == 0, report["problems"]
    [probe] = report["probes"]
    assert probe["kind"] == "http" and probe["answers"]
    [(path, payload)] = received
    assert path == "/hooks/claude-code"
    assert payload["hook_event_name"] == "CoachloopDoctor"  # no adapter acts on it
    assert payload["session_id"].startswith("coachloop-doctor-")
    assert installation(report, "claude-code", "user")["hooks"][0]["kind"] == "http"

    assert (
        run("install", "--http", "http://127.0.0.1:9", "--user", "--dir", str(project)).exit_code
        == 0
    )
    code, report = doctor(project, "--agent", "claude-code")
    assert code == 1 and "no answer" in report["probes"][0]["detail"]


def test_codex_and_gemini_hooks_answer(project: Path) -> None:
    user = ("--user", "--dir", str(project))
    assert run("install", "--agent", "codex", "--notify", *user).exit_code == 0
    assert run("install", "--agent", "gemini", *user).exit_code == 0
    gemini = Path.home() / ".gemini" / "settings.json"
    data = json.loads(gemini.read_text())
    data["hooks"]["disabled"] = ["coachloop"]  # not a key Gemini CLI reads: still runs
    gemini.write_text(json.dumps(data))
    trust_gemini_folder(project)
    code, report = doctor(project, "--agent", "codex", "--agent", "gemini")
    assert code == 0, report["problems"]
    kinds = {p["kind"]: p for p in report["probes"]}
    notify, command = kinds["notify"], kinds["command"]
    assert notify["target"] == f"{HOOK_PREFIX} hook codex-notify" and notify["answers"]
    assert command["target"] == f"{HOOK_PREFIX} hook gemini" and command["answers"]
    [notify] = installation(report, "codex", "user")["hooks"]
    assert notify["file"] == str(Path.home() / ".codex" / "config.toml")  # not hooks.json
    found = installation(report, "gemini", "user")
    assert found["hooks"][0]["timeout_s"] == 30.0 and found["problems"] == []
    assert any("hooks.disabled is not read by Gemini CLI" in n for n in found["notes"])


def trust_gemini_folder(project: Path, level: str = "TRUST_FOLDER", **more: str) -> None:
    """Gemini CLI's trusted folders file with one rule for `project` (and `more`)."""
    folders = Path.home() / ".gemini" / "trustedFolders.json"
    folders.parent.mkdir(exist_ok=True)
    folders.write_text(json.dumps({str(project): level, **more}))


def problems_of(project: Path, agent: str, scope: str) -> list[str]:
    code, report = doctor(project, "--agent", agent)
    problems: list[str] = installation(report, agent, scope)["problems"]
    assert (code == 1) == bool(problems), report["problems"]
    return problems


def test_doctor_says_why_a_gemini_hook_will_not_run_and_how_to_fix_it(project: Path) -> None:
    assert run("install", "--agent", "gemini", "--dir", str(project)).exit_code == 0
    [untrusted] = problems_of(project, "gemini", "project")
    assert f"it does not trust {project}" in untrusted and "--skip-trust" in untrusted
    assert '"TRUST_FOLDER"' in untrusted and "GEMINI_CLI_TRUST_WORKSPACE=true" in untrusted
    # the longest rule wins: the project is distrusted inside a trusted parent
    trust_gemini_folder(project, "DO_NOT_TRUST", **{str(project.parent): "TRUST_FOLDER"})
    assert problems_of(project, "gemini", "project") != []
    trust_gemini_folder(project / "notes.md", "TRUST_PARENT")  # trusts the file's folder
    assert problems_of(project, "gemini", "project") == []
    settings = project / ".gemini" / "settings.json"
    data = json.loads(settings.read_text())
    data["hooksConfig"] = {"disabled": ["coachloop"]}  # what /hooks disable writes
    settings.write_text(json.dumps(data))
    [disabled] = problems_of(project, "gemini", "project")
    assert "hooksConfig.disabled" in disabled and "/hooks enable coachloop" in disabled
    data["hooksConfig"] = {"enabled": False}
    settings.write_text(json.dumps(data))
    [off] = problems_of(project, "gemini", "project")
    assert "runs no hooks: hooksConfig.enabled is false" in off
    text = run("doctor", "--agent", "gemini", "--dir", str(project)).output
    assert "WILL NOT RUN: Gemini CLI runs no hooks" in text


def test_doctor_says_why_a_codex_hook_will_not_run_and_how_to_fix_it(project: Path) -> None:
    from coachloop.install.codex_trust import handler_hash

    assert run("install", "--agent", "codex", "--dir", str(project)).exit_code == 0
    [project_trust, hook_trust] = problems_of(project, "codex", "project")
    assert "only when the project is trusted" in project_trust
    assert "the Stop and UserPromptSubmit hooks: they are not trusted yet" in hook_trust
    assert "/hooks" in hook_trust and "codex exec --dangerously-bypass-hook-trust" in hook_trust
    hooks_path = project / ".codex" / "hooks.json"
    hooks = json.loads(hooks_path.read_text())["hooks"]
    config = Path.home() / ".codex" / "config.toml"
    config.parent.mkdir()
    lines = [f'[projects."{project}"]', 'trust_level = "trusted"']
    for event, key in (("Stop", "stop"), ("UserPromptSubmit", "user_prompt_submit")):
        handler = hooks[event][0]["hooks"][0]
        lines += [f'[hooks.state."{hooks_path}:{key}:0:0"]']
        lines += [f'trusted_hash = "{handler_hash(event, handler)}"']
    config.write_text("\n".join(lines) + "\n")
    assert problems_of(project, "codex", "project") == []
    hooks["Stop"][0]["hooks"][0]["timeout"] = 31  # a changed hook needs trusting again
    hooks_path.write_text(json.dumps({"hooks": hooks}))
    [changed] = problems_of(project, "codex", "project")
    assert "the Stop hook: it has changed since it was trusted" in changed
    config.write_text(config.read_text() + "enabled = false\n")  # the last table: prompt
    assert any("disabled in Codex" in p for p in problems_of(project, "codex", "project"))


def test_a_codex_notify_in_a_project_config_is_reported_as_not_running(project: Path) -> None:
    config = project / ".codex" / "config.toml"
    config.parent.mkdir()
    config.write_text(f'notify = ["{SCRIPT}", "hook", "codex-notify"]\n')  # an older install
    [problem] = problems_of(project, "codex", "project")
    assert f"notify in {config} does not run" in problem
    assert "coachloop install --agent codex --user --notify" in problem


def test_hooks_that_would_run_twice_are_reported(project: Path) -> None:
    assert run("install", "--dir", str(project)).exit_code == 0
    assert run("install", "--user", "--dir", str(project)).exit_code == 0
    code, report = doctor(project, "--agent", "claude-code")
    assert code == 0 and report["warnings"] == []  # identical handlers: Claude Code runs one
    assert (
        run("install", "--local", "--http", "http://127.0.0.1:9", "--dir", str(project)).exit_code
        == 0
    )
    assert run("install", "--agent", "codex", "--dir", str(project)).exit_code == 0
    assert run("install", "--agent", "codex", "--user", "--dir", str(project)).exit_code == 0
    report = doctor(project, "--agent", "claude-code", "--agent", "codex")[1]
    assert "claude-code Stop: coachloop is installed 2 ways" in "\n".join(report["warnings"])
    assert "codex Stop: coachloop is installed 2 ways" in "\n".join(report["warnings"])
    assert not any("SessionStart" in w for w in report["warnings"])  # no http SessionStart


def test_bad_settings_file_is_reported_not_fatal(project: Path) -> None:
    assert run("install", "--dir", str(project)).exit_code == 0
    bad = project / ".gemini" / "settings.json"
    bad.parent.mkdir()
    bad.write_text("{ // comments\n}")
    code, report = doctor(project)
    assert code == 0
    assert installation(report, "gemini", "project")["error"]
    assert any("not valid JSON" in w for w in report["warnings"])


def test_judge_key_is_reported_never_printed(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert run("install", "--dir", str(project)).exit_code == 0
    monkeypatch.setenv("COACHLOOP_JUDGE", "anthropic")
    code, report = doctor(project)
    assert code == 0  # the LLM judge falls back to the rules: a warning, not a failure
    assert report["judge"]["key_env"] == "ANTHROPIC_API_KEY" and not report["judge"]["key_present"]
    assert any("ANTHROPIC_API_KEY is not set" in w for w in report["warnings"])
    secret = "sk-ant-test-0123456789-secret"
    monkeypatch.setenv("ANTHROPIC_API_KEY", secret)
    for args in (("--json",), ()):
        res = run("doctor", "--dir", str(project), *args)
        assert res.exit_code == 0 and secret not in res.output
    assert doctor(project)[1]["judge"]["key_present"] is True


def test_store_that_does_not_open_fails_without_leaking_the_password(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert run("install", "--dir", str(project)).exit_code == 0
    monkeypatch.setenv("COACHLOOP_STORE", "redis://:hunter2secret@127.0.0.1:9/0")
    res = run("doctor", "--json", "--dir", str(project))
    report = json.loads(res.stdout)
    assert res.exit_code == 1 and not report["store"]["ok"]
    assert any(p.startswith("store:") for p in report["problems"])
    assert "hunter2secret" not in res.output


def test_http_hooks_with_a_token_against_coachloop_serve_and_the_real_claude_code(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import os
    import socket
    import subprocess
    import time

    from coachloop.runners.claude_env import offline_env
    from coachloop.testing import ScriptedModel, text
    from e2e_support import claude_print
    from hookd_support import health

    secret = "serve-token-0123456789"
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    base = f"http://127.0.0.1:{port}"
    env = {**os.environ, "COACHLOOP_SERVE_TOKEN": secret}
    server = subprocess.Popen(
        [str(SCRIPT), "serve", "--port", str(port), "--no-socket"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                health(base, timeout=1, token=secret)
                break
            except OSError:
                assert time.monotonic() < deadline and server.poll() is None, "serve did not start"
                time.sleep(0.1)
        res = run(
            "install", "--http", base, "--token-env", "COACHLOOP_SERVE_TOKEN", "--dir", str(project)
        )
        assert res.exit_code == 0, res.output
        settings = (project / ".claude" / "settings.json").read_text()
        assert secret not in settings and "Bearer $COACHLOOP_SERVE_TOKEN" in settings

        code, report = doctor(project, "--agent", "claude-code")  # no token here: 401
        assert code == 1 and "HTTP 401" in report["probes"][0]["detail"]
        assert "$COACHLOOP_SERVE_TOKEN not set here" in report["probes"][0]["detail"]
        monkeypatch.setenv("COACHLOOP_SERVE_TOKEN", secret)
        res = run("doctor", "--json", "--dir", str(project), "--agent", "claude-code")
        assert res.exit_code == 0 and secret not in res.output
        assert json.loads(res.stdout)["probes"][0]["answers"]

        question = "Should the cache live in Redis or in memory?"
        with ScriptedModel([text(question)], side_call="Title") as model:
            claude_env = offline_env(
                model.base_url, tmp_path / "home", extra={"COACHLOOP_SERVE_TOKEN": secret}
            )
            session = claude_print(project, "add a cache", claude_env)["session_id"]
        rows = json.loads(run("sessions", "--json", "--project", str(project)).stdout)
        [row] = [r for r in rows["sessions"] if r["session"] == session]
        assert row["last_verdict"] == "question" and row["last_decision"] == "deliver"
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_doctor_says_where_reactions_reach_the_bot_and_where_replies_do(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import os

    from coachloop.testing.telegram_api import TelegramBotAPI

    _, report = doctor(project)
    assert (
        report["chat"]["configured"] is False
        and "no Telegram bot token" in report["chat"]["detail"]
    )
    home = Path(os.environ["COACHLOOP_HOME"])
    home.mkdir(parents=True, exist_ok=True)
    chats = "\n".join(f'"{c}" = "{project}"' for c in (42, -100, -200))
    (home / "config.toml").write_text(f"[telegram.chats]\n{chats}\n")
    with TelegramBotAPI() as api:
        api.make_admin(-200)
        monkeypatch.setenv("COACHLOOP_TELEGRAM_TOKEN", api.token)
        monkeypatch.setenv("COACHLOOP_TELEGRAM_API_URL", api.base_url)
        monkeypatch.setenv("COACHLOOP_TELEGRAM_ALLOWED", "42,-100,-200")
        res = run("doctor", "--dir", str(project))
    assert api.token not in res.output
    lines = [line for line in res.output.splitlines() if line.startswith("chat ")]
    assert lines[0].startswith("chat  Telegram bot @") and lines[0].endswith("answers")
    said = "\n".join(lines[1:])
    assert "chat 42: reactions reach the bot (private chat)" in said
    assert "chat -100: reactions do not reach the bot (not an administrator);" in said
    assert "chat -100: reactions do not reach the bot (not an administrator); reply /done" in said
    assert "chat -200: reactions reach the bot (it is an administrator)" in said
