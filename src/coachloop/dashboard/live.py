"""Live updates as server-sent events, fed by polling the store's newest event.

Each open page holds one stream: every `poll` seconds it asks the store what changed
since its mark (SQLite: one rowid range query), renders the changed rows or new timeline
items with the page's own templates, and sends them. The event's `id:` is the mark, so a
browser reconnecting after a drop (`Last-Event-ID`) misses nothing. A comment every
`HEARTBEAT` seconds keeps proxies from closing an idle stream and finds dead clients.
At most `Streams.limit` streams run at once; the page's script keeps the DOM bounded.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator

from coachloop.dashboard.build import dom_id
from coachloop.dashboard.seam import DashboardData, matches
from coachloop.dashboard.views import Filters, SessionRow, TimelineItem
from coachloop.store import StoreError

log = logging.getLogger("coachloop.dashboard")

HEARTBEAT = 15.0
MAX_CHANGES = 500


def event(name: str, data: str, event_id: int | None = None) -> bytes:
    """One server-sent event; every line of `data` gets its own `data:` field."""
    lines = [f"event: {name}"]
    if event_id is not None:
        lines.append(f"id: {event_id}")
    lines.extend(f"data: {line}" for line in data.replace("\r", "").split("\n"))
    return ("\n".join(lines) + "\n\n").encode()


class Streams:
    """Counts open streams (at most `limit`) and ends them all on `close()`."""

    def __init__(self, limit: int = 32, poll: float = 1.0) -> None:
        self.limit = limit
        self.poll = poll
        self.closing = threading.Event()
        self._lock = threading.Lock()
        self.open = 0

    def acquire(self) -> bool:
        with self._lock:
            if self.open >= self.limit or self.closing.is_set():
                return False
            self.open += 1
            return True

    def release(self) -> None:
        with self._lock:
            self.open -= 1

    def close(self) -> None:
        self.closing.set()

    def run(
        self, step: Callable[[], list[bytes]], touch: Callable[[], None] | None = None
    ) -> Iterator[bytes]:
        """Yield `step()`'s events every `poll` seconds until closed (the slot taken by
        `acquire` is released when the generator ends or is closed)."""
        try:
            yield b"retry: 2000\n\n"
            quiet_since = time.monotonic()
            while not self.closing.wait(self.poll):
                if touch is not None:
                    touch()
                try:
                    out = step()
                except StoreError as exc:  # the store may come back; the page keeps what it has
                    log.warning("dashboard stream: %s", exc)
                    out = []
                if out:
                    yield b"".join(out)
                    quiet_since = time.monotonic()
                elif time.monotonic() - quiet_since >= HEARTBEAT:
                    yield b": ping\n\n"
                    quiet_since = time.monotonic()
        finally:
            self.release()


def sessions_step(
    data: DashboardData,
    filters: Filters,
    since: int,
    render: Callable[[SessionRow], str],
) -> Callable[[], list[bytes]]:
    """The sessions list's step: changed sessions that match `filters` as "row" events
    (the page moves them to the top), the others as "gone" (the page drops them)."""
    mark = [since]

    def step() -> list[bytes]:
        new_mark, ids = data.changed(mark[0], MAX_CHANGES)
        if not ids:
            return []
        mark[0] = new_mark
        rows = {r.session_id: r for r in data.rows(ids)}
        out = []
        for sid in ids:
            row = rows.get(sid)
            if row is not None and matches(row, filters):
                out.append(event("row", render(row), new_mark))
            else:
                out.append(event("gone", dom_id(sid), new_mark))
        return out

    return step


def timeline_step(
    data: DashboardData,
    session_id: str,
    since: int,
    render: Callable[[TimelineItem], str],
    render_head: Callable[[], str],
) -> Callable[[], list[bytes]]:
    """A timeline's step: new records as "item" events (oldest first; the page puts
    each on top), then the session's refreshed header as a "head" event."""
    last = [since]

    def step() -> list[bytes]:
        items = data.items_after(session_id, last[0], 200)
        if not items:
            return []
        last[0] = items[-1].id
        out = [event("item", render(item), item.id) for item in items]
        out.append(event("head", render_head(), last[0]))
        return out

    return step
