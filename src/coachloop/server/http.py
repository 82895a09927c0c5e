"""The HTTP hook endpoint, for Claude Code `http` hook handlers (and Codex, Gemini).

    POST /hooks/claude-code | /hooks/codex | /hooks/gemini   body: the hook JSON
        -> 200, body: exactly the stdout `handle(agent, body)` gives the command hook
           (`{"decision": "block", "reason": ...}` to continue; empty to let it stop).
           Content-Type application/json; `X-Coachloop-Exit` carries the exit code.
    GET /health -> 200 {"ok": true, "pid": ..., "served": ..., "in_flight": ...}
    GET /, /session/..., /stats, /events, /static/..., /login, POST /login -> the dashboard
        (`coachloop.dashboard`), built when the server starts (unless `dashboard=False`)
        and imported only then.

Claude Code reads a 2xx response's JSON body like a command hook's stdout; a non-2xx
answer, a timeout or a refused connection never blocks the agent. So any payload on a
hook path is answered 200 (a bad one with the empty body, as `handle()` fails open);
other paths are 404, other methods 405, an unreadable body 400, one over `MAX_BODY` 413.

Who may post (issue 13: the port is reachable by other local users and, through the
browser, by any web page): the hook paths and /health answer only requests that
1. carry no `Origin` header (browsers send one with every cross-site POST; agents do
   not) and no `Sec-Fetch-Site` other than "none" (else 403);
2. name the bound address in `Host` (a loopback name when bound to loopback, so a page
   that points its own domain at 127.0.0.1, DNS rebinding, is refused; any host when
   bound to a wildcard address) (else 403);
3. carry `Authorization: Bearer <token>` (else 401): the server always has a token
   (`coachloop.server.token`);
4. for a hook POST, a JSON content type (`application/json`, what Claude Code sends; a
   form or `text/plain`, which a page may send without a preflight, gets 415).
Bodies in flight share one memory budget (`body_budget` bytes, reserved from the
declared length before reading): a request that would exceed it gets 503 (the agent
is not blocked). The dashboard paths have the same token through its own gate (a login
form and a cookie) and the same `Host` rule.

HTTP/1.1 with keep-alive, Nagle off and one write per response: a persistent connection
answers in well under a millisecond plus the judgement.
"""

from __future__ import annotations

import hmac
import json
import logging
import os
import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import TYPE_CHECKING

from coachloop.core.agents import HOOKS
from coachloop.server.activity import Activity

if TYPE_CHECKING:
    from coachloop.dashboard.app import Dashboard

log = logging.getLogger("coachloop.server")

AGENTS = tuple(name for name, h in HOOKS.items() if h.http)  # from the registry
HOOK_PREFIX = "/hooks/"
MAX_BODY = 64 * 1024 * 1024
MAX_FORM_BODY = 64 * 1024
IDLE_CONNECTION_TIMEOUT = 120.0
BODY_BUDGET = 256 * 1024 * 1024  # bytes of request bodies held at once, all connections
WILDCARD_HOSTS = frozenset({"", "0.0.0.0", "::", "[::]"})


class Budget:
    """A count of bytes that many threads reserve from and give back (never blocks)."""

    def __init__(self, total: int) -> None:
        self.total = total
        self.used = 0
        self._lock = threading.Lock()

    def take(self, n: int) -> bool:
        """Reserve `n` bytes; False (nothing reserved) when that would exceed the total."""
        with self._lock:
            if self.used + n > self.total:
                return False
            self.used += n
            return True

    def give(self, n: int) -> None:
        with self._lock:
            self.used = max(0, self.used - n)


class BadBodyError(Exception):
    """The request body cannot be read; `status` says how to answer."""

    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


class HookHTTPServer(ThreadingHTTPServer):
    """A threaded HTTP server for hooks; `activity` runs and counts them."""

    daemon_threads = True
    request_queue_size = 256

    def __init__(
        self,
        host: str,
        port: int,
        activity: Activity,
        token: str | None = None,
        *,
        dashboard: bool = True,
        body_budget: int = BODY_BUDGET,
    ):
        self.activity = activity
        self.token = token
        self.bound_host = host
        self.budget = Budget(body_budget)
        super().__init__((host, port), HookHandler)
        self.dashboard: Dashboard | None = None
        self.dashboard_error = ""
        if dashboard:
            self._build_dashboard(host)

    def _build_dashboard(self, host: str) -> None:
        import coachloop.dashboard as dash

        if not dash.available():
            self.dashboard_error = dash.INSTALL_HINT
            return
        self.dashboard = dash.make_dashboard(
            token=self.token,
            port=int(self.server_address[1]),
            host=host,
            touch=self.activity.touch,
        )

    def shutdown(self) -> None:
        """Stop serving; open dashboard streams end at their next poll."""
        if self.dashboard is not None:
            self.dashboard.close()
        super().shutdown()

    def host_ok(self, header: str) -> bool:
        """True when a request's `Host` header names this server (see the module
        docstring); a request without one (not a browser) passes."""
        from coachloop.dashboard.auth import host_of, loopback

        if not header or self.bound_host in WILDCARD_HOSTS:
            return True
        named = host_of(header).lower()
        if loopback(self.bound_host):
            return loopback(named)
        return named in (self.bound_host.strip("[]").lower(), "localhost") or loopback(named)

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{host!s}:{port}"


class HookHandler(BaseHTTPRequestHandler):
    """One HTTP connection; see the module docstring for the routes."""

    server: HookHTTPServer
    protocol_version = "HTTP/1.1"
    server_version = "coachloop"
    sys_version = ""
    disable_nagle_algorithm = True
    timeout = IDLE_CONNECTION_TIMEOUT

    def do_POST(self) -> None:
        agent = route(self.path)
        if agent is None:
            if self.path.split("?", 1)[0] == "/login" and self._dashboard_path():
                self._dashboard("POST")
            else:
                self._respond(404, b'{"error": "not found"}', close=True)
            return
        if self._refused():
            return
        kind = self.headers.get("Content-Type", "").split(";", 1)[0].strip().lower()
        if kind != "application/json":
            self._respond(415, b'{"error": "send application/json"}', close=True)
            return
        reserved = [0]
        try:
            body = self._body(reserved=reserved)
        except BadBodyError as exc:
            self.server.budget.give(reserved[0])
            self._respond(exc.status, b'{"error": "bad body"}', close=True)
            return
        try:
            reply = self.server.activity.handle(agent, body)
        finally:
            del body
            self.server.budget.give(reserved[0])
        self._respond(200, reply.stdout, exit_code=reply.exit_code)

    def do_GET(self) -> None:
        path = self.path.split("?", 1)[0]
        if path == "/health":
            if self._refused():
                return
            self.server.activity.touch()
            health = {
                "ok": True,
                "pid": os.getpid(),
                "served": self.server.activity.served,
                "in_flight": self.server.activity.in_flight,
                "agents": list(AGENTS),
            }
            self._respond(200, json.dumps(health).encode())
        elif route(self.path) is not None:
            self._respond(405, b'{"error": "use POST"}', close=True, allow="POST")
        elif self._dashboard_path():
            self._dashboard("GET")
        else:
            self._respond(404, b'{"error": "not found"}', close=True)

    def do_PUT(self) -> None:
        self._not_allowed()

    def do_DELETE(self) -> None:
        self._not_allowed()

    def do_PATCH(self) -> None:
        self._not_allowed()

    def _not_allowed(self) -> None:
        self._respond(405, b'{"error": "method not allowed"}', close=True, allow="GET, POST")

    def _authorized(self) -> bool:
        token = self.server.token
        if not token:
            return True
        given = self.headers.get("Authorization", "")
        return hmac.compare_digest(given.encode(), f"Bearer {token}".encode())

    def _refused(self) -> bool:
        """Answer (and return True) a request from a browser, for another host, or
        without the token; see the module docstring."""
        site = self.headers.get("Sec-Fetch-Site", "none").lower()
        if self.headers.get("Origin") is not None or site != "none":
            self._respond(403, b'{"error": "browser requests are refused"}', close=True)
        elif not self.server.host_ok(self.headers.get("Host", "")):
            self._respond(403, b'{"error": "wrong Host"}', close=True)
        elif not self._authorized():
            self._respond(401, b'{"error": "unauthorized"}', close=True)
        else:
            return False
        return True

    def _reserve(self, n: int, reserved: list[int] | None) -> None:
        """Take `n` bytes from the server's body budget (503 when it is spent)."""
        if reserved is None:
            return
        if not self.server.budget.take(n):
            raise BadBodyError(503)
        reserved[0] += n

    def _body(self, limit: int = MAX_BODY, reserved: list[int] | None = None) -> bytes:
        """The request body, at most `limit` bytes (else 413); with `reserved`, its size
        is taken from the body budget first and added to `reserved[0]`."""
        if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
            return self._chunked(limit, reserved)
        length = self.headers.get("Content-Length")
        if length is None:
            return b""
        try:
            size = int(length)
        except ValueError:
            raise BadBodyError(400) from None
        if size < 0:
            raise BadBodyError(400)
        if size > limit:
            raise BadBodyError(413)
        self._reserve(size, reserved)
        body = self.rfile.read(size)
        if len(body) != size:
            raise BadBodyError(400)
        return body

    def _chunked(self, limit: int, reserved: list[int] | None) -> bytes:
        chunks: list[bytes] = []
        total = 0
        while True:
            line = self.rfile.readline(1024)
            try:
                size = int(line.split(b";", 1)[0].strip(), 16)
            except ValueError:
                raise BadBodyError(400) from None
            if size == 0:
                while self.rfile.readline(1024) not in (b"\r\n", b"\n", b""):
                    pass  # trailers
                return b"".join(chunks)
            total += size
            if size < 0 or total > limit:
                raise BadBodyError(413)
            self._reserve(size, reserved)
            chunk = self.rfile.read(size)
            if len(chunk) != size:
                raise BadBodyError(400)
            chunks.append(chunk)
            self.rfile.readline(1024)  # the CRLF after the chunk

    def _dashboard_path(self) -> bool:
        """True for a dashboard path on a server with a dashboard (or one that would have
        one, but lacks Jinja2: it answers with the install hint)."""
        app = self.server.dashboard
        if app is None:
            return bool(self.server.dashboard_error) and self.path.split("?", 1)[0] == "/"
        return app.serves(self.path)

    def _dashboard(self, method: str) -> None:
        """Hand the request to the dashboard and write its answer (or its event stream)."""
        app = self.server.dashboard
        if app is None:  # Jinja2 is missing: say how to get the dashboard
            error = json.dumps({"error": self.server.dashboard_error}).encode()
            self._respond(501, error, close=True)
            return
        from coachloop.dashboard.web import Request

        body = b""
        if method == "POST":
            try:
                body = self._body(MAX_FORM_BODY)
            except BadBodyError as exc:
                self._respond(exc.status, b'{"error": "bad body"}', close=True)
                return
            if len(body) > MAX_FORM_BODY:
                self._respond(413, b'{"error": "body too large"}', close=True)
                return
        request = Request.parse(method, self.path, dict(self.headers.items()), body)
        response = app.handle(request)
        headers = response.all_headers()
        if response.stream is None:
            self._respond(response.status, response.body, headers=headers)
            return
        self._respond(response.status, b"", headers=headers, stream=True)
        try:
            for chunk in response.stream:
                self.wfile.write(chunk)
        except OSError:  # the browser went away (closed tab, reload): end quietly
            pass
        finally:
            close = getattr(response.stream, "close", None)
            if close is not None:
                close()

    def _respond(
        self,
        status: int,
        body: bytes,
        *,
        close: bool = False,
        exit_code: int | None = None,
        allow: str | None = None,
        headers: list[tuple[str, str]] | None = None,
        stream: bool = False,
    ) -> None:
        """Status line, headers and body in one write (no Nagle stall on keep-alive).
        `headers` replace the JSON content type; a `stream` has no length and closes."""
        head = [f"HTTP/1.1 {status} {HTTPStatus(status).phrase}", "Server: coachloop"]
        if headers is None:
            head.append("Content-Type: application/json")
        else:
            head.extend(f"{name}: {value}" for name, value in headers)
        if stream:
            close = True
        else:
            head.append(f"Content-Length: {len(body)}")
        if exit_code is not None:
            head.append(f"X-Coachloop-Exit: {exit_code}")
        if allow:
            head.append(f"Allow: {allow}")
        if close:
            head.append("Connection: close")
            self.close_connection = True
        self.wfile.write(("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + body)
        self.log_request(status, len(body))

    def log_message(self, format: str, *args: object) -> None:
        log.debug("%s " + format, self.address_string(), *args)


def route(path: str) -> str | None:
    """The agent a hook path names (`/hooks/claude-code` -> "claude-code"), else None."""
    path = path.split("?", 1)[0].rstrip("/")
    if not path.startswith(HOOK_PREFIX):
        return None
    agent = path[len(HOOK_PREFIX) :]
    return agent if agent in AGENTS else None
