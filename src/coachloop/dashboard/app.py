"""The dashboard's pages and streams: a `Request` in, a `Response` out.

    GET  /                                 sessions, newest activity first (filters, pages)
    GET  /events                           live rows for that list (server-sent events)
    GET  /session/<id>                     one session's timeline, newest first (pages)
    GET  /session/<id>/events              live timeline items
    GET  /session/<id>/event/<n>           one record in full
    GET  /session/<id>/snapshot/<file>     one snapshot (redacted)
    GET  /stats                            judgement at a glance (per day, per agent)
    GET  /login, POST /login, GET /logout  the token gate (`auth.Gate`)
    GET  /static/<file>                    the stylesheet and the script

Templates are Jinja2 with autoescaping on for everything: agent text is untrusted HTML.
"""

from __future__ import annotations

import json
import logging
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote, urlencode

from jinja2 import Environment, PackageLoader
from markupsafe import Markup, escape

from coachloop.dashboard import live
from coachloop.dashboard.auth import Gate
from coachloop.dashboard.build import dom_id
from coachloop.dashboard.seam import DashboardData
from coachloop.dashboard.views import (
    DISPLAY_STATUSES,
    STATUS_LABELS,
    Filters,
    Folded,
    TimelineItem,
)
from coachloop.dashboard.web import Request, Response, local_path, redirect, text
from coachloop.store import StoreError, UnknownSession

log = logging.getLogger("coachloop.dashboard")

STATIC = Path(__file__).parent / "static"
STATIC_TYPES = {".css": "text/css; charset=utf-8", ".js": "text/javascript; charset=utf-8"}
PAGE_SIZE = 50
STATS_DAYS = 14
TIMELINE_PAGE = 100
MAX_TIMELINE_PAGE = 1000
LIVE_ROWS = 200  # the most rows a live page keeps (older ones are dropped from the DOM)
ITEM_CACHE = 4000  # rendered timeline items kept (a few MB)
_SESSION = re.compile(r"^/session/([^/]+)(/events|/event/(\d+)|/snapshot/([^/]+))?/?$")


def _ago(ts: float) -> str:
    seconds = max(0.0, time.time() - ts)
    for unit, size in (("d", 86_400), ("h", 3600), ("m", 60)):
        if seconds >= size:
            return f"{int(seconds // size)}{unit}"
    return f"{int(seconds)}s"


def _when(ts: float | None) -> str:
    return "-" if not ts else time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(ts))


def _folded(f: Folded, href: str) -> Markup:
    """A folded text: its head, a note with a link to the whole record, its tail."""
    out = f'<pre class="text">{escape(f.head)}</pre>'
    if f.folded:
        out += (
            f'<p class="fold">… {f.hidden} characters folded … <a href="{escape(href)}">'
            f'show all</a></p><pre class="text">{escape(f.tail)}</pre>'
        )
    return Markup(out)


class ItemHtml:
    """Timeline items rendered once: an item's HTML is a function of its view alone (a
    frozen value: record, verdict, deliveries and their state), so a page shown again,
    or the live stream, reuses it. At most `size` items are kept (least recently used
    out): a page left open for hours does not grow the server's memory."""

    def __init__(self, env: Environment, size: int = ITEM_CACHE) -> None:
        self.env = env
        self.size = size
        self._done: OrderedDict[tuple[TimelineItem, str], Markup] = OrderedDict()
        self._lock = threading.Lock()

    def __call__(self, item: TimelineItem, session_id: str) -> Markup:
        key = (item, session_id)
        with self._lock:
            found = self._done.get(key)
            if found is not None:
                self._done.move_to_end(key)
                return found
        macros: Any = self.env.get_template("_item.html").module
        html = Markup(macros.item_li(item, session_id))
        with self._lock:
            self._done[key] = html
            while len(self._done) > self.size:
                self._done.popitem(last=False)
        return html


def environment() -> Environment:
    """The Jinja2 environment of the dashboard's templates (autoescaping everything)."""
    env = Environment(
        loader=PackageLoader("coachloop.dashboard", "templates"),
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["ago"] = _ago
    env.filters["when"] = _when
    env.filters["q"] = lambda s: quote(str(s), safe="")
    env.filters["folded"] = _folded
    env.globals.update(
        dom_id=dom_id, statuses=DISPLAY_STATUSES, status_labels=STATUS_LABELS, live_rows=LIVE_ROWS
    )
    return env


class Dashboard:
    """The dashboard of one server. `data` opens the store on first use; `touch` is
    called on every request and stream poll (the server's idle clock)."""

    def __init__(
        self,
        data: Callable[[], DashboardData],
        gate: Gate,
        *,
        streams: live.Streams | None = None,
        touch: Callable[[], None] | None = None,
    ) -> None:
        self._open = data
        self._data: DashboardData | None = None
        self._lock = threading.Lock()
        self.gate = gate
        self.streams = streams or live.Streams()
        self.touch = touch
        self.env = environment()
        self.items = ItemHtml(self.env)
        self.env.globals["item_html"] = self.items

    @property
    def data(self) -> DashboardData:
        with self._lock:
            if self._data is None:
                self._data = self._open()
                threading.Thread(target=self._warm, args=(self._data,), daemon=True).start()
            return self._data

    @staticmethod
    def _warm(data: DashboardData) -> None:
        """Count the default window once in the background: the first visit to /stats
        then costs only the stops recorded since."""
        try:
            data.counts(STATS_DAYS)
        except Exception:  # a failing store shows on the page that needs it
            log.debug("dashboard: warming the counts failed", exc_info=True)

    def close(self) -> None:
        """End every stream and release the store."""
        self.streams.close()
        if self._data is not None:
            self._data.close()

    def render(self, template: str, **context: Any) -> str:
        return self.env.get_template(template).render(**context)

    def page(self, template: str, status: int = 200, **context: Any) -> Response:
        context.setdefault("logout", self.gate.token is not None)
        return Response(status, self.render(template, **context).encode())

    # --- entry --------------------------------------------------------------------------

    @staticmethod
    def serves(path: str) -> bool:
        """True for the dashboard's own paths (the server answers others itself)."""
        path = path.split("?", 1)[0]
        return (
            path in ("/", "/events", "/stats", "/login", "/logout")
            or path.startswith("/static/")
            or _SESSION.match(path) is not None
        )

    def handle(self, request: Request) -> Response:
        """Answer one request; never raises (a failing store is a 503 page)."""
        if self.touch is not None:
            self.touch()
        if not self.gate.host_ok(request):
            return text(403, "forbidden: this dashboard answers only to a local address")
        if request.path.startswith("/static/"):
            return self._static(request.path[len("/static/") :])
        if request.path in ("/login", "/logout"):
            return self._login(request)
        token = request.arg("token")
        if token and request.method == "GET":
            return self._token_login(request, token)
        if not self.gate.allowed(request):
            if request.path.endswith("/events"):
                return text(401, "unauthorized")
            return self.page("login.html", 401, next=_self_url(request), error=False)
        try:
            return self._route(request)
        except UnknownSession as exc:
            return self.page("error.html", 404, message=str(exc))
        except StoreError as exc:
            log.warning("dashboard: %s", exc)
            return self.page("error.html", 503, message=f"the store cannot be read: {exc}")
        except Exception:  # a bug must not take the server's thread down silently
            log.exception("dashboard: %s %s failed", request.method, request.path)
            return text(500, "internal error (see the server's log)")

    def _route(self, request: Request) -> Response:
        if request.method != "GET":
            return text(405, "method not allowed")
        if request.path == "/":
            return self._sessions(request)
        if request.path == "/events":
            return self._sessions_stream(request)
        if request.path == "/stats":
            return self._stats(request)
        found = _SESSION.match(request.path)
        if found is None:
            return self.page("error.html", 404, message=f"no page at {request.path}")
        session_id = unquote(found.group(1))
        if found.group(2) == "/events":
            return self._timeline_stream(request, session_id)
        if found.group(3):
            item = self.data.item(session_id, int(found.group(3)))
            return self.page("event.html", item=item, session_id=session_id)
        if found.group(4):
            return self._snapshot(session_id, unquote(found.group(4)))
        return self._timeline(request, session_id)

    # --- the gate -----------------------------------------------------------------------

    def _token_login(self, request: Request, token: str) -> Response:
        # The token leaves the address; the rest of the query (filters) stays.
        rest = {k: v for k, v in request.query.items() if k != "token"}
        target = request.path + (f"?{urlencode(rest, doseq=True)}" if rest else "")
        if self.gate.token is None:
            return redirect(target)
        if not self.gate.valid(token):
            return self.page("login.html", 401, next=request.path, error=True)
        return redirect(target, self.gate.set_cookie())

    def _login(self, request: Request) -> Response:
        if request.path == "/logout":
            return redirect("/login", self.gate.clear_cookie())
        if request.method == "GET":
            return self.page("login.html", next=local_path(request.arg("next", "/")), error=False)
        if request.method != "POST":
            return text(405, "method not allowed")
        form = request.form()
        target = local_path(form.get("next", "/"))
        if self.gate.token is None:
            return redirect(target)
        if not self.gate.valid(form.get("token", "")):
            return self.page("login.html", 401, next=target, error=True)
        return redirect(target, self.gate.set_cookie())

    # --- pages --------------------------------------------------------------------------

    def _sessions(self, request: Request) -> Response:
        filters = Filters.from_query(request.query)
        page_no = _int(request.arg("page"), 1, 1, 1_000_000)
        page = self.data.sessions(filters, offset=(page_no - 1) * PAGE_SIZE, limit=PAGE_SIZE)
        redact = self.data.redact
        return self.page(
            "sessions.html",
            page=page,
            page_no=page_no,
            pages=max(1, -(-page.total // PAGE_SIZE)),
            projects=[redact(p) for p in page.projects],
            agents=[redact(a) for a in page.agents],
            filters=filters,
        )

    def _timeline(self, request: Request, session_id: str) -> Response:
        before = _int(request.arg("before"), 0, 0, 2**62) or None
        limit = _int(request.arg("limit"), TIMELINE_PAGE, 1, MAX_TIMELINE_PAGE)
        page = self.data.timeline(session_id, before=before, limit=limit)
        return self.page(
            "timeline.html", page=page, session_id=session_id, live=before is None, limit=limit
        )

    def _stats(self, request: Request) -> Response:
        days = _int(request.arg("days"), STATS_DAYS, 1, 90)
        return self.page("stats.html", counts=self.data.counts(days), days=days)

    def _snapshot(self, session_id: str, name: str) -> Response:
        body = self.data.snapshot(session_id, name)
        if body is None:
            return self.page("error.html", 404, message=f"no snapshot {name!r}")
        redact = self.data.redact
        shown = redact(json.dumps(body, indent=2, ensure_ascii=False, default=str))
        return self.page("snapshot.html", session_id=session_id, name=name, body=shown)

    def _static(self, name: str) -> Response:
        path = STATIC / name
        kind = STATIC_TYPES.get(path.suffix)
        if kind is None or "/" in name or not path.is_file():
            return text(404, "not found")
        response = Response(200, path.read_bytes(), kind)
        response.headers.append(("Cache-Control", "max-age=3600"))
        return response

    # --- streams ------------------------------------------------------------------------

    def _since(self, request: Request) -> int:
        last = request.header("Last-Event-ID") or request.arg("since")
        return _int(last, 0, 0, 2**62)

    def _stream(self, step: Callable[[], list[bytes]]) -> Response:
        if not self.streams.acquire():
            return text(503, "too many live pages open")
        body = self.streams.run(step, self.touch)
        return Response(200, b"", "text/event-stream; charset=utf-8", stream=body)

    def _sessions_stream(self, request: Request) -> Response:
        filters = Filters.from_query(request.query)
        macros: Any = self.env.get_template("_row.html").module
        step = live.sessions_step(
            self.data, filters, self._since(request), lambda row: str(macros.row_tr(row))
        )
        return self._stream(step)

    def _timeline_stream(self, request: Request, session_id: str) -> Response:
        data = self.data
        item_html = self.items
        head_template = self.env.get_template("_head.html")

        def head() -> str:
            return head_template.render(
                header=data.timeline(session_id, before=None, limit=0).header
            )

        step = live.timeline_step(
            data,
            session_id,
            self._since(request),
            lambda item: str(item_html(item, session_id)),
            head,
        )
        return self._stream(step)


def _int(value: str, default: int, low: int, high: int) -> int:
    try:
        return min(max(int(value), low), high)
    except ValueError:
        return default


def _self_url(request: Request) -> str:
    query = "&".join(
        f"{quote(k)}={quote(v)}" for k, values in request.query.items() for v in values
    )
    return local_path(request.path + (f"?{query}" if query else ""))
