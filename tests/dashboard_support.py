"""Helpers for the dashboard tests: sessions written through the real store API, an
in-process dashboard over a real store, and `coachloop serve` with its dashboard.

`populate(store, now)` writes three sessions: "s-work" (codex, one status stop:
working), "s-cap" (claude-code, four status stops: the fourth delivered at the cap) and
"s-ask" (claude-code in another project: a question, delivered and waiting).
"""

from __future__ import annotations

import http.client
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from coachloop.core.events import HumanMessage, StopEvent
from coachloop.core.verdict import Verdict
from coachloop.dashboard.app import Dashboard
from coachloop.dashboard.auth import Gate
from coachloop.dashboard.data import open_data
from coachloop.dashboard.web import Request, Response
from coachloop.store import Store
from coachloop.supervisor.writes import record_human, record_stop
from hookd_support import SERVE_TOKEN, Serve, hook_env, start_serve

TOKEN = "dash-token-0123456789abcdef"
PROJECT_A = "/work/alpha"
PROJECT_B = "/work/beta"
STATUS = Verdict(
    "status",
    0.9,
    "progress narration",
    "rules",
    route="continue",
    coaching_message="[System Coach] Run the tests and show the counts.",
)
QUESTION = Verdict("question", 0.93, "asks which database", "rules")


def stop(
    sid: str,
    text: str,
    ts: float,
    *,
    agent: str = "claude-code",
    project: str = PROJECT_A,
    reply: bool = False,
) -> StopEvent:
    """A stop of job "j1"; `reply`: the agent's answer to a continuation."""
    return StopEvent(
        sid,
        text=text,
        agent=agent,
        project=project,
        timestamp=ts,
        job_id="j1",
        stop_hook_active=reply,
    )


def populate(store: Store, now: float) -> None:
    """The three sessions described in the module docstring, s-ask the most recent."""
    record_human(
        store, HumanMessage("s-cap", "Fix the login bug", timestamp=now - 300, project=PROJECT_A)
    )
    for i in range(4):
        step = stop("s-cap", f"Still working on step {i}.", now - 290 + i, reply=i > 0)
        record_stop(store, step, STATUS)
    record_stop(store, stop("s-work", "Refactoring the parser.", now - 200, agent="codex"), STATUS)
    record_stop(
        store,
        stop(
            "s-ask",
            "Which database should I use, Postgres or SQLite?",
            now - 100,
            project=PROJECT_B,
        ),
        QUESTION,
    )


def in_process(store: Store, token: str | None = None) -> Dashboard:
    """A dashboard over `store` (SQLite or Redis), answering without a server."""
    return Dashboard(
        lambda: open_data(store, [token] if token else []), Gate(token, 8787, "127.0.0.1")
    )


def get(dash: Dashboard, target: str, **headers: str) -> Response:
    return dash.handle(Request.parse("GET", target, {"Host": "127.0.0.1:8787", **headers}))


def html(response: Response) -> str:
    assert response.status == 200, response.body[:500]
    return response.body.decode()


# --- a real server -----------------------------------------------------------------------


@pytest.fixture(name="serve_factory")
def serve_factory_fixture(tmp_path: Path) -> Iterator[object]:
    """Start `coachloop serve --port 0 --no-socket` on the store tmp_path/dash.db, with
    `token` (None: the suite's `SERVE_TOKEN`, which `request` then sends by itself);
    every server started is stopped afterwards."""
    started: list[Serve] = []

    def start(token: str | None = None) -> Serve:
        extra = {
            "COACHLOOP_HOME": str(tmp_path / "home"),
            "COACHLOOP_STORE": str(tmp_path / "dash.db"),
        }
        if token:
            extra["COACHLOOP_SERVE_TOKEN"] = token
        server = start_serve("--port", "0", "--no-socket", env=hook_env(**extra))
        started.append(server)
        return server

    yield start
    for server in started:
        assert server.stop() == 0


def request(
    server: Serve, method: str, path: str, body: bytes = b"", headers: dict[str, str] | None = None
) -> tuple[int, dict[str, str], bytes]:
    """One request on a fresh connection: status, headers (lower-cased names), body. A
    server on the suite's `SERVE_TOKEN` gets it as a bearer token, unless `headers` name
    their own (tests of the token gate start servers with another token)."""
    assert server.port is not None
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    given = dict(headers or {})
    if server.env.get("COACHLOOP_SERVE_TOKEN") == SERVE_TOKEN:
        given.setdefault("Authorization", f"Bearer {SERVE_TOKEN}")
    try:
        conn.request(method, path, body=body or None, headers=given)
        resp = conn.getresponse()
        return resp.status, {k.lower(): v for k, v in resp.getheaders()}, resp.read()
    finally:
        conn.close()


def post_hook(server: Serve, payload: bytes, token: str | None = None) -> bytes:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    status, _, body = request(server, "POST", "/hooks/claude-code", payload, headers)
    assert status == 200
    return body


def stop_payload(
    sid: str, text: str, cwd: str, prompt_id: str = "p-1", *, active: bool = False
) -> bytes:
    """A Claude Code Stop hook payload (`active`: the reply to a continuation)."""
    from hookd_support import stop as hook_stop

    return hook_stop(sid, text, cwd=cwd, prompt_id=prompt_id, active=active)


def prompt_payload(sid: str, text: str, cwd: str, prompt_id: str = "p-1") -> bytes:
    from hookd_support import prompt as hook_prompt

    return hook_prompt(sid, text, cwd=cwd, prompt_id=prompt_id)


def as_json(body: bytes) -> object:
    return json.loads(body) if body else None
