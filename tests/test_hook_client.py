"""The command hook's fast path: `coachloop hook AGENT` relaying to a warm daemon over a
unix socket, its in-process fallback, the detached spawn, and failing open.

Real processes throughout: the console script, `coachloop serve`, sockets. Replies are
compared byte for byte with the in-process `handle()` on an identical store.
"""

from __future__ import annotations

import _socket
import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from coachloop.agents import client
from coachloop.server import daemon_pid, stop_daemon
from hookd_support import (
    COACHLOOP,
    CONVERSATION_BLOCKS,
    HEDGED,
    blocks,
    conversation,
    fake_daemon,
    health,
    hook_env,
    project_fixture,  # noqa: F401 - a fixture
    read_all,
    reference,
    run_hook,
    serve_processes,
    short_dir_fixture,  # noqa: F401 - a fixture
    start_serve,
    stop,
    wait_for,
)


@pytest.fixture
def spawned() -> Iterator[list[str]]:
    """Socket paths whose auto-spawned daemons the test wants stopped afterwards."""
    paths: list[str] = []
    yield paths
    for path in paths:
        stop_daemon(path)


def test_warm_daemon_replies_like_in_process(tmp_path: Path, project: str) -> None:
    payloads = conversation("sess-a", project)
    expected = reference("claude-code", payloads, str(tmp_path / "a.db"))
    env = hook_env(COACHLOOP_HOME=str(tmp_path / "home-b"), COACHLOOP_STORE=str(tmp_path / "b.db"))
    daemon = start_serve("--port", "0", "--idle-timeout", "60", env=env)
    try:
        assert daemon.socket == client.socket_path(env)
        assert os.stat(daemon.socket).st_mode & 0o777 == 0o600
        got = []
        for raw in payloads:
            done = run_hook(raw, env)
            assert done.stderr == b""
            got.append((done.returncode, done.stdout))
        assert got == expected
        assert blocks(got) == CONVERSATION_BLOCKS  # the hedged stop is sent back
        assert health(daemon.url)["served"] == len(payloads)  # all went through the socket
    finally:
        assert daemon.stop() == 0
    assert not os.path.exists(daemon.socket)
    assert not os.path.exists(daemon.socket + ".lock")


def test_no_daemon_runs_in_process_and_spawns_one(
    tmp_path: Path, project: str, spawned: list[str]
) -> None:
    payloads = conversation("sess-b", project)
    expected = reference("claude-code", payloads[:2], str(tmp_path / "a.db"))
    env = hook_env(COACHLOOP_STORE=str(tmp_path / "b.db"))
    path = client.socket_path(env)
    spawned.append(path)
    assert daemon_pid(path) is None
    first = run_hook(payloads[0], env)
    assert (first.returncode, first.stdout) == expected[0]
    pid = wait_for(lambda: daemon_pid(path))
    argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    assert argv[1:4] == [b"-m", b"coachloop", b"serve"] and b"--no-http" in argv
    environ = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
    assert f"COACHLOOP_STORE={tmp_path / 'b.db'}".encode() in environ  # same store
    assert Path(f"/proc/{pid}/cwd").resolve() == Path("/")
    wait_for(lambda: os.path.exists(path))
    second = run_hook(payloads[1], env)
    assert (second.returncode, second.stdout) == expected[1]
    assert blocks([expected[1]]) == [True]  # the hedged stop, through the spawned daemon
    assert daemon_pid(path) == pid  # served by it, not replaced


def test_concurrent_hooks_without_daemon_spawn_exactly_one(
    tmp_path: Path, project: str, spawned: list[str]
) -> None:
    env = hook_env(COACHLOOP_STORE=str(tmp_path / "b.db"))
    path = client.socket_path(env)
    spawned.append(path)
    payloads = [
        stop(f"sess-{i}", "Working on it: 3 of 9 files migrated.", cwd=project) for i in range(6)
    ]
    expected = reference("claude-code", payloads, str(tmp_path / "a.db"))
    with ThreadPoolExecutor(6) as pool:
        done = list(pool.map(lambda raw: run_hook(raw, env), payloads))
    assert [(d.returncode, d.stdout) for d in done] == expected
    wait_for(lambda: daemon_pid(path))
    time.sleep(0.5)  # a second spawn would show now (it waits for the lock before leaving)
    assert len(serve_processes(path)) == 1


def test_daemon_off_runs_in_process_only(tmp_path: Path, project: str) -> None:
    payloads = conversation("sess-c", project)[:3]
    expected = reference("claude-code", payloads, str(tmp_path / "a.db"))
    env = hook_env(COACHLOOP_STORE=str(tmp_path / "b.db"), COACHLOOP_HOOK_DAEMON="0")
    got = [(d.returncode, d.stdout) for d in (run_hook(raw, env) for raw in payloads)]
    assert got == expected
    time.sleep(0.3)
    path = client.socket_path(env)
    assert daemon_pid(path) is None and not os.path.exists(path)
    assert serve_processes(path) == []


# --- failing open against a broken daemon (a raw socket we control) ----------------------


@pytest.mark.parametrize(
    ("answer", "expect_stdout"),
    [
        (
            b"0\n" + b'{"decision": "block", "reason": "relayed"}',
            b'{"decision": "block", "reason": "relayed"}',
        ),
        (b"2\nreason", b"reason"),
        (b"banana\n{}", b""),  # a bad header fails open
        (b"0", b""),  # no header line at all
        (b"999\n{}", b""),  # not an exit code
    ],
)
def test_client_relays_or_fails_open(
    short_dir: Path, project: str, answer: bytes, expect_stdout: bytes
) -> None:
    path = str(short_dir / "d.sock")
    seen: list[bytes] = []

    def respond(conn: socket.socket) -> None:
        seen.append(read_all(conn))
        conn.sendall(answer)

    thread = fake_daemon(path, respond)
    raw = stop("sess-d", "done", cwd=project)
    done = run_hook(raw, hook_env(COACHLOOP_HOOK_SOCKET=path))
    thread.join(5)
    assert seen == [client.MAGIC + b"claude-code\n" + raw]  # the protocol, byte for byte
    assert done.stdout == expect_stdout
    assert done.returncode == (int(answer[:1]) if expect_stdout else 0)


def test_codex_notify_payload_comes_from_the_last_argument(short_dir: Path, tmp_path: Path) -> None:
    raw = json.dumps(
        {
            "type": "agent-turn-complete",
            "thread-id": "th-1",
            "turn-id": "turn-1",
            "cwd": str(tmp_path),
            "input-messages": ["Fix the login bug"],
            "last-assistant-message": "Should the cookie be HttpOnly?",
        }
    )
    path = str(short_dir / "d.sock")
    seen: list[bytes] = []

    def respond(conn: socket.socket) -> None:
        seen.append(read_all(conn))
        conn.sendall(b"0\n")

    thread = fake_daemon(path, respond)
    proc = subprocess.Popen(  # stdin stays open: reading it would hang the hook
        [COACHLOOP, "hook", "codex-notify", raw],
        env=hook_env(COACHLOOP_HOOK_SOCKET=path),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    try:
        assert proc.wait(20) == 0
    finally:
        proc.kill()
        assert proc.stdin and proc.stdout
        proc.stdin.close()
        assert proc.stdout.read() == b""
        proc.stdout.close()
    thread.join(5)
    assert seen == [client.MAGIC + b"codex-notify\n" + raw.encode()]
    # the same through a real daemon: the question lands in the daemon's store
    store = tmp_path / "b.db"
    env = hook_env(COACHLOOP_STORE=str(store))
    daemon = start_serve("--no-http", "--socket", str(short_dir / "real.sock"), env=env)
    try:
        env["COACHLOOP_HOOK_SOCKET"] = str(short_dir / "real.sock")
        done = subprocess.run(
            [COACHLOOP, "hook", "codex-notify", raw], env=env, capture_output=True, check=False
        )
        assert (done.returncode, done.stdout) == (0, b"")
    finally:
        assert daemon.stop() == 0
    from coachloop.store import open_store

    opened = open_store(str(store))
    try:
        assert [e.text for e in opened.outbox_pending()] == ["Should the cookie be HttpOnly?"]
    finally:
        opened.close()


def test_daemon_closing_without_reply_falls_back_in_process(
    tmp_path: Path, short_dir: Path, project: str
) -> None:
    path = str(short_dir / "d.sock")
    thread = fake_daemon(path, lambda conn: None)  # accepts, reads nothing, closes
    raw = stop("sess-e", "It should work now.", cwd=project)
    expected = reference("claude-code", [raw], str(tmp_path / "a.db"))
    env = hook_env(COACHLOOP_HOOK_SOCKET=path, COACHLOOP_STORE=str(tmp_path / "b.db"))
    done = run_hook(raw, env)
    thread.join(5)
    assert [(done.returncode, done.stdout)] == expected


def test_a_hung_daemon_is_bypassed_within_a_second(
    tmp_path: Path, short_dir: Path, project: str
) -> None:
    """Issue 13: a daemon that accepts and never answers cost 25 s per stop, then lost
    it. It never takes the request (no b"+"), so after `ACK_TIMEOUT` the stop is
    handled in-process, decided as it would have been."""
    path = str(short_dir / "d.sock")
    release = threading.Event()
    thread = fake_daemon(path, lambda conn: release.wait(10) and None)
    raw = stop("sess-f", HEDGED, cwd=project)
    expected = reference("claude-code", [raw], str(tmp_path / "a.db"))
    env = hook_env(COACHLOOP_HOOK_SOCKET=path, COACHLOOP_STORE=str(tmp_path / "b.db"))
    start = time.monotonic()
    done = run_hook(raw, env)
    elapsed = time.monotonic() - start
    release.set()
    thread.join(5)
    assert [(done.returncode, done.stdout)] == expected and b"block" in done.stdout
    assert elapsed < 1.0 + 5  # the second, plus an in-process hook on a loaded machine


def test_unusable_socket_paths_fall_back(tmp_path: Path, short_dir: Path, project: str) -> None:
    raw = stop("sess-g", "done", cwd=project)
    expected = reference("claude-code", [raw], str(tmp_path / "a.db"))
    plain_file = short_dir / "not-a-socket"
    plain_file.write_text("x")
    stale = short_dir / "stale.sock"  # a socket file nobody listens on
    s = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
    s.bind(str(stale))
    s.close()
    for path in (plain_file, stale, short_dir / "absent.sock"):
        env = hook_env(
            COACHLOOP_HOOK_SOCKET=str(path),
            COACHLOOP_STORE=str(tmp_path / f"{path.name}.db"),
            COACHLOOP_HOOK_IDLE_TIMEOUT="2",
        )
        done = run_hook(raw, env)
        assert [(done.returncode, done.stdout)] == expected, path
    stop_daemon(str(stale))
    stop_daemon(str(short_dir / "absent.sock"))


# --- the client's own cost and configuration ---------------------------------------------


def test_client_path_imports_no_heavy_module(short_dir: Path, tmp_path: Path) -> None:
    env = hook_env(COACHLOOP_STORE=str(tmp_path / "b.db"))
    path = str(short_dir / "hookd.sock")
    daemon = start_serve("--no-http", "--socket", path, env=env)
    try:
        code = "from coachloop.entry import main; main(['hook', 'claude-code'])"
        done = subprocess.run(
            [sys.executable, "-X", "importtime", "-c", code],
            check=False,
            input=b"{}",
            env={**env, "COACHLOOP_HOOK_SOCKET": path},
            capture_output=True,
            timeout=30,
        )
    finally:
        daemon.stop()
    assert done.returncode == 0
    modules = {line.split("|")[-1].strip() for line in done.stderr.decode().splitlines()}
    assert "_socket" in modules and "coachloop.agents.client" in modules
    heavy = {"socket", "selectors", "json", "click", "pydantic", "sqlite3", "subprocess"}
    assert not heavy & modules
    assert not {m for m in modules if m.startswith(("coachloop.agents.hook", "coachloop.judge"))}


def test_socket_path_follows_the_configuration(tmp_path: Path) -> None:
    base = {"COACHLOOP_HOME": str(tmp_path / "h")}
    path = client.socket_path(base)
    assert path.startswith(str(tmp_path / "h" / "run" / "hookd-")) or "/coachloop-" in path
    assert client.socket_path({**base, "COACHLOOP_STORE": "redis://x"}) != path
    assert client.socket_path({**base, "COACHLOOP_HOOK_TIMEOUT": "3"}) == path  # client-only
    assert client.socket_path({"COACHLOOP_HOME": str(tmp_path / "other")}) != path
    keyed = client.socket_path({**base, "ANTHROPIC_API_KEY": "sk-1"})
    assert keyed != path and keyed == client.socket_path({**base, "ANTHROPIC_API_KEY": "sk-2"})
    long_home = str(tmp_path / ("x" * 120))
    fallback = client.socket_path({"COACHLOOP_HOME": long_home, "TMPDIR": "/tmp"})
    assert fallback.startswith(f"/tmp/coachloop-{os.getuid()}/hookd-") and len(fallback) < 100
    assert client.socket_path({**base, "COACHLOOP_HOOK_SOCKET": "/x/y.sock"}) == "/x/y.sock"
