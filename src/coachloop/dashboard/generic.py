"""`DashboardData` through the `Store` protocol's reads, for stores without SQL (Redis).

Pages are cut from `list_sessions()` (one round trip for every session on Redis) and a
session's `timeline()`; the live mark is the newest session activity in milliseconds.
Deliveries show only what `outbox_pending` tells: waiting for the chat, or accepted.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Sequence
from typing import Any

from coachloop.core.session import SessionState
from coachloop.dashboard.build import Redactor, session_row, timeline_item
from coachloop.dashboard.seam import SNAPSHOTS_SHOWN, Caps, found_snapshot, header, matches
from coachloop.dashboard.stats import Key, count_stops, day_of, summarise, utc_offset
from coachloop.dashboard.views import (
    Counts,
    Delivery,
    Filters,
    SessionRow,
    SessionsPage,
    TimelineItem,
    TimelinePage,
)
from coachloop.snapshot_pack import name as record_name
from coachloop.store import EventRecord, Store, UnknownSession

LAST_STOP_WINDOW = 20  # records read back to find a session's last stop
PENDING_SCAN = 1000


def _last_stop(records: Sequence[EventRecord]) -> dict[str, object] | None:
    for rec in reversed(records):
        if rec.kind == "stop":
            return {
                "decision": rec.decision,
                "why": rec.why,
                "verdict_type": rec.verdict_type,
                "reason": (rec.verdict or {}).get("reason", ""),
            }
    return None


class StoreData:
    """`DashboardData` over any `Store` (see the module docstring)."""

    def __init__(self, store: Store, redact: Redactor) -> None:
        self.store = store
        self.redact = redact
        self.caps = Caps()

    def _row(self, state: SessionState) -> SessionRow:
        try:
            recent = self.store.timeline(state.session_id, LAST_STOP_WINDOW)
        except UnknownSession:
            recent = []
        return session_row(
            state.to_dict(),
            cap=self.caps(state.project),
            last_stop=_last_stop(recent),
            redact=self.redact,
        )

    def sessions(self, filters: Filters, *, offset: int, limit: int) -> SessionsPage:
        states = self.store.list_sessions()
        wanted = [
            s
            for s in states
            if (not filters.project or s.project == filters.project)
            and (not filters.agent or s.agent == filters.agent)
        ]
        if filters.status:  # the displayed status needs each session's last stop
            rows = [r for r in map(self._row, wanted) if matches(r, filters)]
            page, total = rows[offset : offset + limit], len(rows)
        else:
            page, total = [self._row(s) for s in wanted[offset : offset + limit]], len(wanted)
        return SessionsPage(
            page,
            total,
            offset,
            limit,
            filters,
            self._mark(states),
            sorted({s.project for s in states}),
            sorted({s.agent for s in states}),
        )

    def rows(self, session_ids: Sequence[str]) -> list[SessionRow]:
        out = []
        for sid in session_ids:
            try:
                out.append(self._row(self.store.get_session(sid)))
            except UnknownSession:
                continue
        return out

    def _pending(self, session_id: str) -> dict[int, list[Delivery]]:
        pending: dict[int, list[Delivery]] = {}
        for entry in self.store.outbox_pending(PENDING_SCAN):
            if entry.session_id == session_id:
                pending.setdefault(entry.event_id, []).append(Delivery(entry.kind, None))
        return pending

    def _item(self, rec: EventRecord, pending: dict[int, list[Delivery]]) -> TimelineItem:
        deliveries = pending.get(rec.id) or (
            [Delivery("deliver", rec.recorded_at)] if rec.decision == "deliver" else []
        )
        return timeline_item(rec.to_dict(), self.redact, tuple(deliveries))

    def timeline(self, session_id: str, *, before: int | None, limit: int) -> TimelinePage:
        state = self.store.get_session(session_id)
        records = self.store.timeline(session_id)
        newer_first = [r for r in reversed(records) if before is None or r.id < before]
        pending = self._pending(session_id)
        items = [self._item(r, pending) for r in newer_first[:limit]]
        older = items[-1].id if len(newer_first) > limit else None
        lives = self.store.lifecycle(session_id, SNAPSHOTS_SHOWN)
        names = [record_name(life) for life in lives]
        head = header(self._row(state), state.to_dict(), self.redact, names)
        return TimelinePage(head, items, older, self._mark([state]))

    def items_after(self, session_id: str, after: int, limit: int) -> list[TimelineItem]:
        try:
            records = self.store.timeline(session_id, limit)
        except UnknownSession:
            return []
        pending = self._pending(session_id)
        return [self._item(r, pending) for r in records if r.id > after]

    def item(self, session_id: str, event_id: int) -> TimelineItem:
        for rec in self.store.timeline(session_id):
            if rec.id == event_id:
                return timeline_item(rec.to_dict(), self.redact, full=True)
        raise UnknownSession(f"{session_id} #{event_id}", self.store.location)

    @staticmethod
    def _mark(states: Sequence[SessionState]) -> int:
        return int(max((s.updated_at for s in states), default=0.0) * 1000)

    def mark(self) -> int:
        return self._mark(self.store.list_sessions())

    def changed(self, since: int, limit: int) -> tuple[int, list[str]]:
        states = self.store.list_sessions()
        fresh = [s for s in states if int(s.updated_at * 1000) > since][:limit]
        if not fresh:
            return since, []
        return self._mark(fresh), [s.session_id for s in reversed(fresh)]

    def counts(self, days: int) -> Counts:
        offset = utc_offset()
        today = day_of(time.time(), offset)
        first = today - max(1, days) + 1
        acc: Counter[Key] = Counter()
        for state in self.store.list_sessions():
            if day_of(state.updated_at, offset) < first:
                continue
            stops = (
                (r.ts, state.agent, r.decision, r.why)
                for r in self.store.timeline(state.session_id)
                if r.kind == "stop"
            )
            count_stops(acc, stops, offset, first)
        per_day, per_agent = summarise(acc, first, today)
        return Counts(days, per_day, per_agent)

    def snapshot(self, session_id: str, name: str) -> dict[str, Any] | None:
        lives = self.store.lifecycle(session_id, 10_000)
        ids = {life.event_id for life in lives if record_name(life) == name}
        events = [r for r in self.store.timeline(session_id) if r.id in ids]
        return found_snapshot(lives, name, events[0] if events else None)

    def close(self) -> None:
        self.store.close()
