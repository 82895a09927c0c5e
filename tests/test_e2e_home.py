"""End to end, the README's path for a new user, with no store named anywhere.

`coachloop install --project` in a fresh git project; the real Claude Code (bundled in
claude-agent-sdk), the real Codex CLI or the real Gemini CLI runs there on the scripted
model and stops with a question; the hook records it in the one store under
`$COACHLOOP_HOME` (not in the project). Then, every command started from another
directory and with no `--store`: `coachloop bridge` sends the question to the allowed
chat on the local Telegram Bot API, and `coachloop sessions` and `coachloop show SESSION`
list it. Before one home store, the hook wrote `<project>/.coachloop/coachloop.db` and the
bridge and the CLI read `$COACHLOOP_HOME/coachloop.db`: the question never left.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from cli_e2e_support import CodexSandbox, GeminiSandbox, Sandbox
from coachloop.runners.claude_env import offline_env
from coachloop.testing import ScriptedModel, text
from coachloop.testing.telegram_api import TelegramBotAPI
from e2e_support import claude_print, git
from install_support import SCRIPT

CHAT = 4242
QUESTION = "Should the cart use Postgres or SQLite? I need your call before I change the schema."


def coachloop(cwd: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    """The installed `coachloop ARGS` as a real process in `cwd`; fails on a non-zero exit."""
    done = subprocess.run(
        [str(SCRIPT), *args],
        cwd=cwd,
        check=False,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return done


def user_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    """A new user's environment: their own HOME and COACHLOOP_HOME, no store named."""
    env = {k: v for k, v in os.environ.items() if k not in ("COACHLOOP_STORE", "HOME")}
    env.update(HOME=str(tmp_path / "home"), COACHLOOP_HOME=str(tmp_path / "home" / ".coachloop"))
    env.update(extra)
    return env


@contextmanager
def bridge(cwd: Path, env: dict[str, str]) -> Iterator[subprocess.Popen[str]]:
    """`coachloop bridge` running in `cwd` until the block ends (then SIGTERM)."""
    proc = subprocess.Popen(
        [str(SCRIPT), "bridge"],
        cwd=cwd,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        yield proc
    finally:
        proc.terminate()
        proc.communicate(timeout=20)


def wait_for(predicate: object, timeout: float = 30.0) -> bool:
    assert callable(predicate)
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.1)
    return bool(predicate())


@pytest.mark.slow
def test_readme_path_a_claude_code_question_reaches_the_chat_and_the_cli(tmp_path: Path) -> None:
    project = tmp_path / "shop"
    project.mkdir()
    (project / "cart.py").write_text("CART = []\n")
    git(project, "init", "-q")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (tmp_path / "home").mkdir()
    env = user_env(tmp_path)
    coachloop(project, env, "install", "--project")  # as the README prints it

    with ScriptedModel([text(QUESTION)], side_call="Title") as model:
        claude_env = offline_env(model.base_url, tmp_path / "home", base=env)
        result = claude_print(project, "Set up the cart storage", claude_env)
    session = result["session_id"]
    assert not (project / ".coachloop" / "coachloop.db").exists()  # one home for the data
    assert (tmp_path / "home" / ".coachloop" / "coachloop.db").exists()

    assert_reaches_the_chat_and_the_cli(elsewhere, env, session, "claude-code", project)


def assert_reaches_the_chat_and_the_cli(
    elsewhere: Path, env: dict[str, str], session: str, agent: str, project: Path
) -> None:
    """`coachloop bridge`, `sessions` and `show`, run in `elsewhere` with no store named,
    see the question `session` asked in `project`."""
    # The agent's own files list the project: where `coachloop upgrade --scan` and the
    # bridge look for stores that earlier versions kept in projects.
    known = "from coachloop.install.known import known_projects as k; print(*k())"
    listed = subprocess.run(
        [sys.executable, "-c", known], env=env, capture_output=True, text=True, check=True
    )
    assert str(project) in listed.stdout.split(), listed.stdout
    with TelegramBotAPI() as api:
        chat_env = {
            **env,
            "COACHLOOP_TELEGRAM_TOKEN": api.token,
            "COACHLOOP_TELEGRAM_ALLOWED": str(CHAT),
            "COACHLOOP_TELEGRAM_API_URL": api.base_url,
        }
        with bridge(elsewhere, chat_env) as proc:
            delivered = wait_for(lambda: any(QUESTION in m.text for m in api.sent))
            assert delivered, proc.stdout and proc.poll()
        (message,) = api.sent
    assert message.chat_id == CHAT and session[:8] in message.text

    listed = coachloop(elsewhere, env, "sessions", "--json").stdout
    (row,) = json.loads(listed)["sessions"]
    assert row["session"] == session and row["agent"] == agent
    assert row["project"] == str(project) and row["last_verdict"] == "question"
    table = coachloop(elsewhere, env, "sessions").stdout
    assert session[:8] in table and "No sessions recorded yet." not in table
    shown = coachloop(elsewhere, env, "show", session).stdout
    assert f"Session {session} ({agent}, {project})" in shown and QUESTION in shown
    assert "-> deliver" in shown
    only = coachloop(elsewhere, env, "sessions", "--json", "--project", str(elsewhere)).stdout
    assert json.loads(only)["sessions"] == []  # --project filters


@pytest.mark.slow
@pytest.mark.parametrize("agent", ["codex", "gemini"])
def test_readme_path_a_codex_or_gemini_question_reaches_the_chat_and_the_cli(
    tmp_path: Path, agent_clis: dict[str, Path], agent: str
) -> None:
    sandbox: Sandbox
    with ScriptedModel([text(QUESTION)], default=text("unexpected")) as model:
        if agent == "codex":
            sandbox = codex = CodexSandbox(tmp_path, agent_clis["codex"])
            codex.configure(model, trust_project=True)
        else:
            sandbox = gemini = GeminiSandbox(tmp_path, agent_clis["gemini"])
        sandbox.extra_env["COACHLOOP_STORE"] = ""  # no store named: the default home
        env = sandbox.env()
        coachloop(sandbox.project, env, "install", "--agent", agent, "--project")
        if agent == "codex":
            run = codex.run("Set up the cart storage")
            session = codex.thread(run)
        else:
            run = gemini.run(model, "Set up the cart storage")
            session = str(gemini.result(run)["session_id"])
        assert run.returncode == 0, run.stderr
    assert not (sandbox.project / ".coachloop" / "coachloop.db").exists()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    assert_reaches_the_chat_and_the_cli(elsewhere, env, session, agent, sandbox.project)
