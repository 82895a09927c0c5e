"""`coachloop serve`'s HTTP hook endpoint, through real HTTP against a real process.

The reply body must be exactly what the in-process `handle()` prints for the same payload
on an identical store; bad input on a hook path fails open (200, empty or JSON body);
anything else is a plain HTTP error. Replicas on one store act as one.
"""

from __future__ import annotations

import http.client
import json
import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from hookd_support import (
    CONVERSATION_BLOCKS,
    EVIDENCED,
    HEDGED,
    SERVE_TOKEN,
    AuthConnection,
    Serve,
    blocks,
    conversation,
    hook_env,
    project_fixture,  # noqa: F401 - a fixture
    prompt,
    reference,
    start_serve,
    stop,
    valid_reply,
)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Serve]:
    """`coachloop serve` (HTTP only, any port) on its own home and the store b.db."""
    env = hook_env(COACHLOOP_HOME=str(tmp_path / "home-b"), COACHLOOP_STORE=str(tmp_path / "b.db"))
    daemon = start_serve("--port", "0", "--no-socket", env=env)
    yield daemon
    assert daemon.stop() == 0


def post(
    conn: http.client.HTTPConnection,
    path: str,
    body: bytes,
    headers: dict[str, str] | None = None,
) -> tuple[int, bytes, http.client.HTTPResponse]:
    conn.request(
        "POST", path, body=body, headers={"Content-Type": "application/json", **(headers or {})}
    )
    resp = conn.getresponse()
    return resp.status, resp.read(), resp


def connect(daemon: Serve) -> http.client.HTTPConnection:
    assert daemon.port is not None
    return AuthConnection("127.0.0.1", daemon.port, timeout=30)


def test_http_replies_like_in_process_on_one_connection(
    server: Serve, tmp_path: Path, project: str
) -> None:
    payloads = conversation("sess-h", project)
    expected = reference("claude-code", payloads, str(tmp_path / "a.db"))
    conn = connect(server)
    sockets = set()
    got = []
    for raw in payloads:
        status, body, resp = post(conn, "/hooks/claude-code", raw)
        assert status == 200 and resp.getheader("Content-Type") == "application/json"
        got.append((int(resp.getheader("X-Coachloop-Exit", "-1")), body))
        sockets.add(id(conn.sock))
    conn.close()
    assert got == expected
    assert blocks(got) == CONVERSATION_BLOCKS  # the hedged stop is sent back
    assert len(sockets) == 1  # keep-alive: one connection for the whole conversation
    conn = connect(server)
    conn.request("GET", "/health")
    health = json.loads(conn.getresponse().read())
    assert health["ok"] is True and health["served"] == len(payloads)
    assert health["pid"] == server.proc.pid


def test_every_agent_path_and_bad_input_fail_open(
    server: Serve, tmp_path: Path, project: str
) -> None:
    conn = connect(server)
    hedged = stop("sess-i", HEDGED, cwd=project)
    gemini = json.dumps(
        {
            "session_id": "sess-j",
            "cwd": project,
            "hook_event_name": "AfterAgent",
            "prompt": "fix it",
            "prompt_response": HEDGED,
            "stop_hook_active": False,
        }
    ).encode()
    bad = [
        b"",
        b"{",
        b"null",
        b"[1, 2, 3]",
        bytes(range(256)) * 8,
        b'{"session_id": {"x": 1}, "hook_event_name": 5}',
        json.dumps(
            {
                "session_id": "s-big",
                "cwd": project,
                "hook_event_name": "Stop",
                "last_assistant_message": "x" * 10_000_000,
            }
        ).encode(),
    ]
    cases = [("/hooks/claude-code", r) for r in bad]
    cases += [("/hooks/codex", hedged), ("/hooks/gemini", gemini), ("/hooks/codex/", b"{}")]
    cases += [("/hooks/claude-code?source=test", b"{}")]
    for path, raw in cases:
        status, body, _ = post(conn, path, raw)
        assert status == 200, (path, raw[:40])
        assert valid_reply(body), (path, raw[:40], body[:200])
    conn.close()


def test_non_hook_requests_get_plain_http_errors(server: Serve) -> None:
    cases: list[tuple[str, str, bytes, dict[str, str], int]] = [
        ("POST", "/hooks/unknown-agent", b"{}", {}, 404),
        ("POST", "/", b"{}", {}, 404),
        ("GET", "/hooks/claude-code", b"", {}, 405),
        ("PUT", "/hooks/claude-code", b"{}", {}, 405),
        ("GET", "/nope", b"", {}, 404),
        ("POST", "/hooks/claude-code", b"{}", {"Content-Length": "abc"}, 400),
        ("POST", "/hooks/claude-code", b"", {"Content-Length": str(1 << 40)}, 413),
    ]
    for method, path, body, extra, expected in cases:
        conn = connect(server)
        conn.putrequest(method, path, skip_accept_encoding=True)
        headers = {
            "Content-Length": str(len(body)),
            "Authorization": f"Bearer {SERVE_TOKEN}",
            "Content-Type": "application/json",
            **extra,
        }
        for name, value in headers.items():
            conn.putheader(name, value)
        conn.endheaders(body or None)
        resp = conn.getresponse()
        assert resp.status == expected, (method, path, headers)
        assert json.loads(resp.read())["error"]
        conn.close()


def test_chunked_body_is_read_like_a_plain_one(server: Serve, tmp_path: Path, project: str) -> None:
    raw = stop("sess-k", HEDGED, cwd=project)
    expected = reference("claude-code", [raw], str(tmp_path / "a.db"))
    conn = connect(server)
    conn.request("POST", "/hooks/claude-code", body=iter([raw[:50], raw[50:]]), encode_chunked=True)
    resp = conn.getresponse()
    assert resp.status == 200 and [(0, resp.read())] == expected
    conn.close()


def test_concurrent_sessions_each_match_in_process(
    server: Serve, tmp_path: Path, project: str
) -> None:
    sessions = [f"sess-c{i}" for i in range(8)]
    plans = {sid: conversation(sid, project)[:5] for sid in sessions}
    expected = {
        sid: reference("claude-code", plans[sid], str(tmp_path / f"a-{sid}.db")) for sid in sessions
    }

    def drive(sid: str) -> list[tuple[int, bytes]]:
        conn = connect(server)
        try:
            return [(0, post(conn, "/hooks/claude-code", raw)[1]) for raw in plans[sid]]
        finally:
            conn.close()

    with ThreadPoolExecutor(len(sessions)) as pool:
        got = dict(zip(sessions, pool.map(drive, sessions), strict=True))
    assert got == expected


def test_the_configured_token_is_required(tmp_path: Path, project: str) -> None:
    token = "s3cret-token-0123456789"
    env = hook_env(COACHLOOP_STORE=str(tmp_path / "b.db"), COACHLOOP_SERVE_TOKEN=token)
    daemon = start_serve("--port", "0", "--no-socket", env=env)
    try:
        raw = stop("sess-t", "done", cwd=project)
        conn = connect(daemon)
        assert post(conn, "/hooks/claude-code", raw)[0] == 401  # the suite's default token
        conn = connect(daemon)
        assert post(conn, "/hooks/claude-code", raw, {"Authorization": "Bearer wrong"})[0] == 401
        conn = connect(daemon)
        status, body, _ = post(
            conn, "/hooks/claude-code", raw, {"Authorization": f"Bearer {token}"}
        )
        assert status == 200 and valid_reply(body)
        conn.close()
    finally:
        assert daemon.stop() == 0
    assert b"s3cret" not in (tmp_path / "coachloop-home" / "logs" / "hookd.log").read_bytes()


def test_port_in_use_is_a_clear_error(server: Serve) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "coachloop", "serve", "--port", str(server.port), "--no-socket"],
        check=False,
        env=server.env,
        capture_output=True,
        timeout=30,
    )
    assert done.returncode == 1 and b"cannot listen" in done.stdout + done.stderr


# --- replicas on one store -----------------------------------------------------------------


def redis_url() -> str:
    url = os.environ.get("COACHLOOP_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
    import redis

    try:
        redis.Redis.from_url(url, socket_connect_timeout=1).ping()
    except Exception as exc:
        message = f"no Redis server at {url}: {exc} (start one: redis-server --daemonize yes)"
        if os.environ.get("COACHLOOP_SKIP_REDIS") == "1":  # as conftest's store_spec does
            pytest.skip(message)
        pytest.fail(message)
    return url


@pytest.fixture
def redis_prefix() -> Iterator[tuple[str, str]]:
    import redis

    url = redis_url()
    prefix = f"coachloop-test-{uuid.uuid4().hex[:12]}"
    yield url, prefix
    client = redis.Redis.from_url(url)
    keys = list(client.scan_iter(match=f"{prefix}:*", count=1000))
    if keys:
        client.delete(*keys)
    client.close()


def test_two_replicas_on_redis_act_as_one(
    tmp_path: Path, project: str, redis_prefix: tuple[str, str]
) -> None:
    url, prefix = redis_prefix
    replicas = [
        start_serve(
            "--port",
            "0",
            "--no-socket",
            env=hook_env(
                COACHLOOP_HOME=str(tmp_path / f"home-{name}"),
                COACHLOOP_STORE=url,
                COACHLOOP_REDIS_PREFIX=prefix,
            ),
        )
        for name in ("r1", "r2")
    ]
    try:
        sid = "sess-replicas"
        # A human prompt, then a model that never stops hedging (Claude Code keeps
        # stop_hook_active set and the prompt id while a Stop hook keeps it going).
        payloads = [prompt(sid, "Fix the login bug", cwd=project)]
        payloads += [stop(sid, f"{HEDGED} ({i})", cwd=project, active=i > 0) for i in range(6)]
        payloads += [prompt(sid, "Try again", cwd=project, prompt_id="p-2")]
        payloads += [stop(sid, HEDGED, cwd=project, prompt_id="p-2")]
        payloads += [stop(sid, EVIDENCED, cwd=project, prompt_id="p-2", active=True)]
        expected = reference("claude-code", payloads, str(tmp_path / "single.db"))
        conns = [connect(r) for r in replicas]
        got = []
        for i, raw in enumerate(payloads):  # alternate the replicas at every hook
            status, body, _ = post(conns[i % 2], "/hooks/claude-code", raw)
            assert status == 200
            got.append((0, body))
        for conn in conns:
            conn.close()
        assert got == expected  # the same decisions as one process on one store
        served = []
        for r in replicas:
            conn = connect(r)
            conn.request("GET", "/health")
            served.append(json.loads(conn.getresponse().read())["served"])
            conn.close()
        assert served == [5, 5]
    finally:
        for r in replicas:
            assert r.stop() == 0
    # continued up to the cap (3), then delivered, then duplicates dropped; the human's
    # new prompt resets the cap; the evidenced completion is delivered
    assert blocks(got) == [False, True, True, True, False, False, False, False, True, False]
