"""Attacks of issue 13 on `coachloop serve`, against the real server process.

- 2: no token by default; a `text/plain` POST with a foreign Origin or Host (what any web
  page can send; DNS rebinding) accepted; forged prompts before each stop defeating the
  cap; another local user posting stops.
- 3: another local user reading the store, the logs and the token.
- 8: no total budget for bodies in flight.
"""

from __future__ import annotations

import http.client
import json
import os
import shutil
import socket
import stat
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from hookd_support import (
    COACHLOOP,
    HEDGED,
    SERVE_TOKEN,
    AuthConnection,
    Serve,
    hook_env,
    project_fixture,  # noqa: F401 - a fixture
    prompt,
    start_serve,
    stop,
)

NOBODY = 65534


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Serve]:
    env = hook_env(COACHLOOP_HOME=str(tmp_path / "home"))
    daemon = start_serve("--port", "0", "--no-socket", "--body-budget", "4", env=env)
    yield daemon
    assert daemon.stop() == 0


def _post(server: Serve, body: bytes, headers: dict[str, str]) -> int:
    assert server.port is not None
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    try:
        conn.request("POST", "/hooks/claude-code", body=body, headers=headers)
        resp = conn.getresponse()
        resp.read()
        return resp.status
    finally:
        conn.close()


def _sessions(server: Serve) -> list[str]:
    out = subprocess.run(
        [COACHLOOP, "sessions", "--json"],
        env=server.env,
        capture_output=True,
        check=False,
    )
    if out.returncode != 0 or not out.stdout.strip():
        return []
    return [row["session"] for row in json.loads(out.stdout)["sessions"]]


def test_a_web_page_or_a_stranger_cannot_post(server: Serve, project: str) -> None:
    raw = stop("web-1", "Should I delete the production database?", cwd=project)
    auth = f"Bearer {SERVE_TOKEN}"
    page = {"Content-Type": "text/plain", "Origin": "http://evil.example"}
    assert _post(server, raw, page) == 403  # a page's simple request
    assert _post(server, raw, {**page, "Authorization": auth}) == 403  # even with the token
    json_type = {"Content-Type": "application/json"}
    assert _post(server, raw, json_type) == 401  # no token
    assert _post(server, raw, {**json_type, "Authorization": "Bearer guess"}) == 401
    rebinding = {**json_type, "Authorization": auth, "Host": "evil.example"}
    assert _post(server, raw, rebinding) == 403
    fetch = {**json_type, "Authorization": auth, "Sec-Fetch-Site": "cross-site"}
    assert _post(server, raw, fetch) == 403
    plain = {"Content-Type": "text/plain", "Authorization": auth}
    assert _post(server, raw, plain) == 415
    assert _sessions(server) == []  # nothing refused reached the store
    assert _post(server, raw, {**json_type, "Authorization": auth}) == 200
    assert _sessions(server) == ["web-1"]


def test_forged_prompts_cannot_reset_the_cap(server: Serve, project: str) -> None:
    """Before: a UserPromptSubmit posted before each stop reset the count (12 stops, 12
    continues with cap 3). Without the token a forged prompt is refused."""
    assert server.port is not None
    conn = AuthConnection("127.0.0.1", server.port, timeout=30)
    blocked = 0
    conn.request("POST", "/hooks/claude-code", body=prompt("cap-1", "fix it", cwd=project))
    conn.getresponse().read()
    for i in range(8):
        forged = prompt("cap-1", f"fix it ({i})", cwd=project, prompt_id=f"p-{i}")
        assert _post(server, forged, {"Content-Type": "application/json"}) == 401
        conn.request(
            "POST",
            "/hooks/claude-code",
            body=stop("cap-1", f"{HEDGED} ({i})", cwd=project, active=i > 0),
        )
        blocked += b'"block"' in conn.getresponse().read()
    conn.close()
    assert blocked == 3  # the cap of 3 holds


def test_bodies_in_flight_share_one_memory_budget(server: Serve, project: str) -> None:
    """Before: 20 concurrent 60 MB bodies took the server from 28 to 683 MB. Now a body
    whose declared size does not fit the budget (4 MiB here) is answered 503 at once."""
    assert server.port is not None
    size = 3 * 1024 * 1024
    head = (
        "POST /hooks/claude-code HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        f"Authorization: Bearer {SERVE_TOKEN}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {size}\r\n\r\n"
    ).encode()
    holder = socket.create_connection(("127.0.0.1", server.port), timeout=30)
    try:
        holder.sendall(head + b"{" + b" " * 1000)  # 3 MiB reserved, the body still coming
        time.sleep(0.5)
        second = socket.create_connection(("127.0.0.1", server.port), timeout=30)
        try:
            second.sendall(head)
            answer = second.recv(4096)
            assert answer.startswith(b"HTTP/1.1 503"), answer[:80]
        finally:
            second.close()
        holder.sendall(b" " * (size - 1002) + b"}")  # "{ ... }" is not a hook: fails open
        assert holder.recv(4096).startswith(b"HTTP/1.1 200")
    finally:
        holder.close()
    raw = stop("budget-1", "Done.", cwd=project)
    headers = {"Content-Type": "application/json", "Authorization": f"Bearer {SERVE_TOKEN}"}
    assert _post(server, raw, headers) == 200  # the budget was given back


def test_the_token_is_generated_once_and_kept_private(tmp_path: Path) -> None:
    env = hook_env(COACHLOOP_HOME=str(tmp_path / "home"))
    env.pop("COACHLOOP_SERVE_TOKEN")
    first = start_serve("--port", "0", "--no-socket", "--no-dashboard", env=env)
    assert first.stop() == 0
    path = tmp_path / "home" / "serve.token"
    token = path.read_text().strip()
    assert len(token) >= 32 and stat.S_IMODE(path.stat().st_mode) == 0o600
    second = start_serve("--port", "0", "--no-socket", "--no-dashboard", env=env)
    try:
        raw = b'{"session_id": "x", "hook_event_name": "Nothing"}'
        json_type = {"Content-Type": "application/json"}
        assert _post(second, raw, {**json_type, "Authorization": f"Bearer {token}"}) == 200
        assert _post(second, raw, {**json_type, "Authorization": f"Bearer {SERVE_TOKEN}"}) == 401
    finally:
        assert second.stop() == 0
    log = (tmp_path / "home" / "logs" / "hookd.log").read_text()
    assert token not in log


def _as_nobody(*cmd: str, stdin: bytes = b"{}") -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", *cmd],
        input=stdin,
        capture_output=True,
        check=False,
        timeout=30,
    )


@pytest.mark.skipif(
    os.geteuid() != 0 or not (shutil.which("setpriv") and shutil.which("curl")),
    reason="needs root, setpriv and curl to act as a second local user (nobody)",
)
def test_another_local_user_reads_nothing_and_cannot_post(tmp_path: Path, project: str) -> None:
    shared = Path(tempfile.mkdtemp(prefix="coachloop-shared-", dir="/tmp"))
    try:
        shared.chmod(0o755)  # a folder every user may enter, like a home directory
        home = shared / "home"
        env = hook_env(COACHLOOP_HOME=str(home))
        env.pop("COACHLOOP_SERVE_TOKEN")
        daemon = start_serve("--port", "0", "--no-socket", env=env)
        try:
            assert daemon.port is not None
            token = (home / "serve.token").read_text().strip()
            conn = AuthConnection("127.0.0.1", daemon.port, timeout=30)
            raw = stop("victim-1", "Which key? sk-ant-api03-AbCdEf12_34-xyzXYZ", cwd=project)
            conn.request(
                "POST", "/hooks/claude-code", body=raw, headers={"Authorization": f"Bearer {token}"}
            )
            assert conn.getresponse().status == 200
            for name in ("coachloop.db", "serve.token", "deliveries.log"):
                assert (home / name).exists(), name
                read = _as_nobody("cat", str(home / name))
                assert read.returncode != 0 and b"Permission denied" in read.stderr, name
            url = f"http://127.0.0.1:{daemon.port}/hooks/claude-code"
            post = _as_nobody(
                "curl",
                "-s",
                "-o",
                "/dev/null",
                "-w",
                "%{http_code}",
                "-H",
                "Content-Type: application/json",
                "--data-binary",
                "@-",
                url,
            )
            assert post.stdout == b"401", post
        finally:
            assert daemon.stop() == 0
    finally:
        shutil.rmtree(shared, ignore_errors=True)
