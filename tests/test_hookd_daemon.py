"""The hook daemon's side of the unix-socket protocol, against real `coachloop serve`
processes: bad requests get the empty reply, generated garbage never stops it, one
daemon per socket, and it ends on idle, on SIGTERM or when its socket file goes away."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

from coachloop.agents import client
from coachloop.server import daemon_pid
from hookd_support import (
    HEDGED,
    blocks,
    generated_bad_payloads,
    health,
    hook_env,
    project_fixture,  # noqa: F401 - a fixture
    read_all,
    short_dir_fixture,  # noqa: F401 - a fixture
    start_serve,
    stop,
    valid_reply,
)


def test_daemon_answers_bad_requests_with_the_empty_reply(short_dir: Path, tmp_path: Path) -> None:
    env = hook_env(COACHLOOP_STORE=str(tmp_path / "b.db"))
    path = str(short_dir / "hookd.sock")
    daemon = start_serve("--no-http", "--socket", path, env=env)
    try:
        for request in (b"", b"hello", client.MAGIC + b"\n{}", client.MAGIC + b"x" * 100 + b"\n{}"):
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.settimeout(5)
            s.connect(path)
            s.sendall(request)
            s.shutdown(socket.SHUT_WR)
            assert read_all(s) == b"+0\n", request  # taken at once, then the empty reply
            s.close()
        reply = client.ask_daemon(path, "claude-code", b"\xff\xfe binary", 5)
        assert reply is not None and reply[0] == 0 and valid_reply(reply[1])
    finally:
        assert daemon.stop() == 0


def test_daemon_survives_generated_bad_input(short_dir: Path, tmp_path: Path, project: str) -> None:
    env = hook_env(COACHLOOP_STORE=str(tmp_path / "b.db"))
    path = str(short_dir / "hookd.sock")
    daemon = start_serve("--no-http", "--socket", path, env=env)
    try:
        start = time.monotonic()
        for raw in generated_bad_payloads(350, project):
            reply = client.ask_daemon(path, "claude-code", raw, 10)
            assert reply is not None and reply[0] == 0 and valid_reply(reply[1]), raw[:80]
        assert time.monotonic() - start < 30
        # still answering real hooks afterwards
        ok = client.ask_daemon(path, "claude-code", stop("sess-after", HEDGED, cwd=project), 10)
        assert ok is not None and blocks([ok]) == [True]
    finally:
        assert daemon.stop() == 0


def test_second_daemon_on_the_same_socket_leaves_it_to_the_first(
    short_dir: Path, tmp_path: Path
) -> None:
    env = hook_env(COACHLOOP_STORE=str(tmp_path / "b.db"))
    path = str(short_dir / "hookd.sock")
    first = start_serve("--no-http", "--socket", path, env=env)
    try:
        second = subprocess.run(
            [sys.executable, "-m", "coachloop", "serve", "--no-http", "--socket", path],
            check=False,
            env=env,
            capture_output=True,
            timeout=30,
        )
        assert second.returncode == 0 and b"another daemon serves" in second.stderr + second.stdout
        assert daemon_pid(path) == first.proc.pid
        assert client.ask_daemon(path, "claude-code", b"{}", 5) is not None
    finally:
        assert first.stop() == 0


def test_idle_timeout_removed_socket_or_home_end_the_daemon(
    short_dir: Path, tmp_path: Path
) -> None:
    env = hook_env(COACHLOOP_STORE=str(tmp_path / "b.db"))
    path = str(short_dir / "idle.sock")
    idle = start_serve("--no-http", "--socket", path, "--idle-timeout", "1", env=env)
    assert idle.proc.wait(10) == 0
    assert not os.path.exists(path) and not os.path.exists(path + ".lock")
    idle.stop()
    other = str(short_dir / "gone.sock")
    gone = start_serve("--no-http", "--socket", other, env=env)
    os.unlink(other)  # someone removed the socket file
    assert gone.proc.wait(10) == 0
    gone.stop()
    home = tmp_path / "throw-away-home"
    home.mkdir()
    outside = str(short_dir / "outside.sock")  # e.g. the /tmp fallback of a long home path
    orphan = start_serve("--no-http", "--socket", outside, env={**env, "COACHLOOP_HOME": str(home)})
    shutil.rmtree(home)
    assert orphan.proc.wait(10) == 0
    orphan.stop()
    assert not os.path.exists(outside)


# --- the real Claude Code, its command hooks answered by the warm daemon -------------------


def test_real_claude_code_through_the_warm_daemon(tmp_path: Path, project: str) -> None:
    import json

    from coachloop.runners.claude_env import hook_settings, offline_env
    from coachloop.testing import ScriptedModel, text
    from e2e_support import CALC, RUN_TESTS, TEST_CALC, claude_print, evidenced

    settings = tmp_path / "settings.json"
    settings.write_text(json.dumps(hook_settings()))
    Path(project, "calc.py").write_text(CALC)
    Path(project, "test_calc.py").write_text(TEST_CALC)
    with ScriptedModel([text(HEDGED), RUN_TESTS, evidenced], side_call="Title") as model:
        env = offline_env(model.base_url, tmp_path / "claude-home", base=hook_env())
        path = client.socket_path(env)
        os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
        daemon = start_serve("--port", "0", "--socket", path, env=env)
        try:
            done = claude_print(
                project,
                "fix the login bug",
                env,
                "--settings",
                str(settings),
                "--allowedTools",
                "Bash",
            )
            assert done["result"].startswith("Fixed `add()`") and "2 passed in" in done["result"]
            turns = [json.dumps(r.json) for r in model.model_requests]
            assert len(turns) == 3 and "[System Coach]" in turns[1]  # coached by our block
            assert "[System Coach]" not in turns[0]
            served = health(daemon.url)["served"]
            assert served >= 3  # prompt, hedged stop, evidenced stop (+ session events)
            assert daemon_pid(path) == daemon.proc.pid  # no other daemon was spawned
        finally:
            assert daemon.stop() == 0
