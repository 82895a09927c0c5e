"""`DashboardData` over several stores: the home store and the projects' own stores.

By default every project's sessions are in the home store and the dashboard reads that
one store; a project with a store of its own (the home's registry,
`coachloop.store.registry`) adds one `DashboardData` per store, and `Combined` shows them
as one:

- the sessions list is the parts' pages merged by newest activity (each part asked for
  the first `offset + limit` rows), with the totals, projects and agents of all parts;
- a session's timeline, items and deliveries come from the part that holds the session
  (remembered after the first lookup); its event ids and marks are that part's own;
- the live mark of the sessions list is a token standing for every part's mark: the
  tokens issued are remembered (the last `MAX_TOKENS`), and a token this process did not
  issue (a server restarted under an open page) reads as "now";
- counts are the parts' counts added up per day and per agent.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from coachloop.dashboard.seam import DashboardData
from coachloop.dashboard.views import (
    Counts,
    Filters,
    SessionRow,
    SessionsPage,
    Tally,
    TimelineItem,
    TimelinePage,
)
from coachloop.store import UnknownSession

MAX_TOKENS = 4096
MAX_OWNERS = 10_000


def _add(tallies: Sequence[Sequence[Tally]]) -> list[Tally]:
    """Tallies with the same label added up, in the order labels first appear."""
    total: dict[str, Tally] = {}
    for part in tallies:
        for t in part:
            was = total.get(t.label, Tally(t.label))
            total[t.label] = Tally(
                t.label,
                was.delivered + t.delivered,
                was.sent_back + t.sent_back,
                was.capped + t.capped,
                was.dropped + t.dropped,
            )
    return list(total.values())


class Combined:
    """One `DashboardData` made of `parts` (see the module docstring); owns them."""

    def __init__(self, parts: Sequence[DashboardData]) -> None:
        assert parts, "at least one store"
        self.parts = list(parts)
        self.redact = self.parts[0].redact
        self._lock = threading.Lock()
        self._tokens: OrderedDict[int, tuple[int, ...]] = OrderedDict()
        self._next = time.time_ns() // 1000  # above any token of an earlier process
        self._owners: dict[str, DashboardData] = {}

    # --- the live mark --------------------------------------------------------------------
    def _token(self, marks: tuple[int, ...]) -> int:
        with self._lock:
            self._next += 1
            self._tokens[self._next] = marks
            while len(self._tokens) > MAX_TOKENS:
                self._tokens.popitem(last=False)
            return self._next

    def _marks(self, token: int) -> tuple[tuple[int, ...], bool]:
        """The parts' marks `token` stands for, and whether this process issued it."""
        with self._lock:
            found = self._tokens.get(token)
        if found is None:
            return tuple(p.mark() for p in self.parts), False
        return found, True

    def mark(self) -> int:
        return self._token(tuple(p.mark() for p in self.parts))

    def changed(self, since: int, limit: int) -> tuple[int, list[str]]:
        marks, known = self._marks(since)
        ids: list[str] = []
        after: list[int] = []
        for part, mark in zip(self.parts, marks, strict=True):
            new, found = part.changed(mark, limit)
            after.append(new)
            ids.extend(found)
        if not ids and known:
            return since, []
        return self._token(tuple(after)), list(dict.fromkeys(ids))[: max(limit, 0)]

    # --- the sessions list ------------------------------------------------------------------
    def sessions(self, filters: Filters, *, offset: int, limit: int) -> SessionsPage:
        pages = [p.sessions(filters, offset=0, limit=offset + limit) for p in self.parts]
        rows = sorted((r for page in pages for r in page.rows), key=lambda r: -r.updated_at)
        return SessionsPage(
            rows[offset : offset + limit],
            sum(page.total for page in pages),
            offset,
            limit,
            filters,
            self._token(tuple(page.newest_id for page in pages)),
            sorted({p for page in pages for p in page.projects}),
            sorted({a for page in pages for a in page.agents}),
        )

    def rows(self, session_ids: Sequence[str]) -> list[SessionRow]:
        out = [r for p in self.parts for r in p.rows(session_ids)]
        out.sort(key=lambda r: r.updated_at)
        return out

    # --- one session ------------------------------------------------------------------------
    def _owner(self, session_id: str) -> DashboardData:
        with self._lock:
            found = self._owners.get(session_id)
        if found is not None:
            return found
        for part in self.parts:
            if part.rows([session_id]):
                with self._lock:
                    if len(self._owners) >= MAX_OWNERS:
                        self._owners.clear()
                    self._owners[session_id] = part
                return part
        raise UnknownSession(session_id, "the dashboard's stores")

    def timeline(self, session_id: str, *, before: int | None, limit: int) -> TimelinePage:
        return self._owner(session_id).timeline(session_id, before=before, limit=limit)

    def items_after(self, session_id: str, after: int, limit: int) -> list[TimelineItem]:
        try:
            owner = self._owner(session_id)
        except UnknownSession:
            return []
        return owner.items_after(session_id, after, limit)

    def item(self, session_id: str, event_id: int) -> TimelineItem:
        return self._owner(session_id).item(session_id, event_id)

    def snapshot(self, session_id: str, name: str) -> dict[str, Any] | None:
        try:
            owner = self._owner(session_id)
        except UnknownSession:
            return None
        return owner.snapshot(session_id, name)

    # --- counts -----------------------------------------------------------------------------
    def counts(self, days: int) -> Counts:
        each = [p.counts(days) for p in self.parts]
        return Counts(days, _add([c.per_day for c in each]), _add([c.per_agent for c in each]))

    def close(self) -> None:
        for part in self.parts:
            part.close()
