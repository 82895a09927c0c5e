"""The dashboard of a real `coachloop serve` process, over real HTTP: the token gate, the
local-host check, security headers, live events fed by real hooks on the same port, and
`coachloop dashboard` starting a server and opening the login URL."""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import stat
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlencode

from dashboard_support import (
    TOKEN,
    post_hook,
    prompt_payload,
    request,
    serve_factory_fixture,  # noqa: F401 - a fixture
    stop_payload,
)
from hookd_support import COACHLOOP, EVIDENCED, HEDGED, AuthConnection, Serve, hook_env

Start = Callable[..., Serve]


def test_the_token_gate(serve_factory: Start) -> None:
    server = serve_factory(TOKEN)
    status, headers, body = request(server, "GET", "/")
    assert status == 401 and b'name="token"' in body and b"<table" not in body
    assert "script-src 'self'" in headers["content-security-policy"]
    assert headers["referrer-policy"] == "no-referrer" and headers["x-frame-options"] == "DENY"
    for path in ("/events", "/session/s1/events", "/stats", "/session/s1"):
        assert request(server, "GET", path)[0] == 401, path
    assert b"not the token" in request(server, "GET", "/?token=wrong")[2]
    status, headers, _ = request(server, "GET", f"/stats?token={TOKEN}")
    assert status == 303 and headers["location"] == "/stats"
    filtered = request(server, "GET", f"/?project=%2Fw%2Fshop&token={TOKEN}")[1]
    assert filtered["location"] == "/?project=%2Fw%2Fshop"  # the filter stays, not the token
    cookie = headers["set-cookie"].split(";")[0]
    assert "HttpOnly" in headers["set-cookie"] and "SameSite=Strict" in headers["set-cookie"]
    assert TOKEN not in cookie
    assert request(server, "GET", "/", headers={"Cookie": cookie})[0] == 200
    assert request(server, "GET", "/", headers={"Cookie": cookie + "x"})[0] == 401
    assert request(server, "GET", "/", headers={"Authorization": f"Bearer {TOKEN}"})[0] == 200
    assert request(server, "GET", "/static/dashboard.css")[0] == 200


def test_the_login_form_and_no_open_redirect(serve_factory: Start) -> None:
    server = serve_factory(TOKEN)
    form = {"Content-Type": "application/x-www-form-urlencoded"}
    status, headers, _ = request(
        server, "POST", "/login", f"token={TOKEN}&next=/stats".encode(), form
    )
    assert status == 303 and headers["location"] == "/stats" and "set-cookie" in headers
    status, headers, _ = request(
        server, "POST", "/login", f"token={TOKEN}&next=//evil.example/".encode(), form
    )
    assert status == 303 and headers["location"] == "/"
    status, headers, _ = request(server, "POST", "/login", b"token=nope&next=/", form)
    assert status == 401 and "set-cookie" not in headers
    status, headers, _ = request(server, "GET", "/logout")
    assert status == 303 and "Max-Age=0" in headers["set-cookie"]


def test_a_foreign_host_name_is_refused(serve_factory: Start) -> None:
    server = serve_factory()
    assert request(server, "GET", "/", headers={"Host": f"localhost:{server.port}"})[0] == 200
    status, _, body = request(server, "GET", "/", headers={"Host": f"evil.example:{server.port}"})
    assert status == 403 and b"local address" in body


def _sse_until(resp: http.client.HTTPResponse, needle: bytes, timeout: float = 20) -> bytes:
    seen = b""
    deadline = time.monotonic() + timeout
    while needle not in seen:
        assert time.monotonic() < deadline, seen
        line = resp.fp.readline()
        assert line, seen
        seen += line
    return seen


def test_live_events_follow_hooks_posted_to_the_same_server(
    serve_factory: Start, tmp_path: Path
) -> None:
    server = serve_factory()
    project = str(tmp_path / "proj")
    post_hook(server, prompt_payload("live-1", "Fix the login bug", project))
    status, _, body = request(server, "GET", "/")
    assert status == 200 and b"live-1" in body
    since = int(body.split(b"since=")[1].split(b'"')[0])
    conn = AuthConnection("127.0.0.1", server.port, timeout=30)
    conn.request("GET", f"/events?since={since}")
    resp = conn.getresponse()
    assert resp.status == 200 and resp.getheader("Content-Type", "").startswith("text/event-stream")
    assert resp.fp.readline() == b"retry: 2000\n"
    post_hook(server, stop_payload("live-1", HEDGED, project))
    seen = _sse_until(resp, b"</tr>")
    assert b"event: row" in seen and b"live-1" in seen and b"sent back" in seen
    conn.close()
    first = json.loads(request(server, "GET", "/health")[2])["served"]
    conn = AuthConnection("127.0.0.1", server.port, timeout=30)
    conn.request("GET", "/session/live-1/events?since=0")
    resp = conn.getresponse()
    assert resp.status == 200
    seen = _sse_until(resp, b"event: head")
    assert seen.count(b"event: item") == 2 and b"coaching sent back" in seen
    post_hook(server, stop_payload("live-1", EVIDENCED, project, active=True))
    seen = _sse_until(resp, b"event: head")
    assert b"event: item" in seen and b"42 passed" in seen and b"delivered" in seen
    conn.close()
    assert json.loads(request(server, "GET", "/health")[2])["served"] == first + 1


def test_serve_without_the_dashboard(tmp_path: Path) -> None:
    from hookd_support import start_serve

    env = hook_env(COACHLOOP_HOME=str(tmp_path / "home"), COACHLOOP_STORE=str(tmp_path / "x.db"))
    server = start_serve("--port", "0", "--no-socket", "--no-dashboard", env=env)
    try:
        assert "dashboard" not in server.banner
        assert request(server, "GET", "/")[0] == 404
    finally:
        assert server.stop() == 0


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _dashboard(
    *args: str, env: dict[str, str], check: bool = True
) -> subprocess.CompletedProcess[str]:
    """`coachloop dashboard ARGS`, a real process; its output as text."""
    argv = [COACHLOOP, "dashboard", *args]
    return subprocess.run(argv, env=env, capture_output=True, text=True, timeout=60, check=check)


def test_coachloop_dashboard_starts_a_server_and_opens_the_login_url(tmp_path: Path) -> None:
    port = _free_port()
    opened = tmp_path / "opened.txt"
    browser = tmp_path / "browser.sh"
    browser.write_text(f'#!/bin/sh\necho "$1" >> {opened}\n')
    browser.chmod(0o755)
    env = hook_env(
        COACHLOOP_HOME=str(tmp_path / "home"),
        COACHLOOP_STORE=str(tmp_path / "d.db"),
        COACHLOOP_SERVE_TOKEN=TOKEN,
        BROWSER=str(browser),
    )
    url = f"http://127.0.0.1:{port}/?token={TOKEN}"
    printed = _dashboard("--print-url", "--port", str(port), env=env)
    assert printed.stdout.strip() == url and not opened.exists()
    no_token = {k: v for k, v in env.items() if k != "COACHLOOP_SERVE_TOKEN"}
    bare = _dashboard("--print-url", "--port", "9", env=no_token)
    # no token in the environment: the one generated in the home, kept there 0600
    stored = tmp_path / "home" / "serve.token"
    assert stat.S_IMODE(stored.stat().st_mode) == 0o600
    assert bare.stdout.strip() == f"http://127.0.0.1:9/?token={stored.read_text().strip()}"
    shop = tmp_path / "shop"
    (shop / ".git").mkdir(parents=True)
    (shop / "src").mkdir()
    filtered = _dashboard(
        "--print-url", "--port", "9", "--project", str(shop / "src"), env=no_token
    )
    assert filtered.stdout.strip() == (
        f"http://127.0.0.1:9/?token={stored.read_text().strip()}&"
        + urlencode({"project": str(shop)})
    )
    done = _dashboard("--port", str(port), env=env, check=False)
    pid = None
    try:
        assert done.returncode == 0, done.stderr
        assert "Started coachloop serve" in done.stderr
        for _ in range(50):
            if opened.exists() and opened.read_text().strip():
                break
            time.sleep(0.1)
        assert opened.read_text().strip() == url
        server = Serve(None, "", port=port)  # type: ignore[arg-type]
        auth = {"Authorization": f"Bearer {TOKEN}"}
        health = json.loads(request(server, "GET", "/health", headers=auth)[2])
        pid = int(health["pid"])
        status, headers, _ = request(server, "GET", f"/?token={TOKEN}")
        assert status == 303 and "set-cookie" in headers
        again = _dashboard("--port", str(port), env=env)
        assert "Started" not in again.stderr and opened.read_text().count(url) == 2
    finally:
        if pid is not None:
            os.kill(pid, signal.SIGTERM)


def test_the_hook_path_never_imports_the_dashboard(tmp_path: Path) -> None:
    code = (
        "import json, sys\n"
        "import coachloop.server, coachloop.server.daemon, coachloop.agents.client\n"
        "from coachloop.agents.hook import handle\n"
        f"handle('claude-code', {stop_payload('iso-1', HEDGED, str(tmp_path))!r})\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] == 'jinja2'"
        " or m.startswith('coachloop.dashboard'))))\n"
    )
    env = hook_env(COACHLOOP_HOME=str(tmp_path / "home"), COACHLOOP_STORE=str(tmp_path / "i.db"))
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    assert json.loads(out.stdout) == []
    from coachloop.store import open_store

    with open_store(str(tmp_path / "i.db")) as store:
        assert store.get_session("iso-1").stops == 1  # the hook did run
