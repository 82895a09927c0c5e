"""The dashboard's one door to the store: the few bounded queries its pages need.

`DashboardData` (`dashboard.seam`) is the seam; `open_data()` picks the implementation
for the configured store (`coachloop.store.open_store`):

- `SQLiteData` (the default store): indexed SQL on its own read-only connections to the
  store's file (migration 0003 adds the indexes), so a page costs the same with 10 or
  10,000 sessions: newest-first pages by `updated_at`, a timeline page by `(session_id, id)`,
  live changes by the newest event id, counts over `(kind, ts)` kept up to date
  incrementally (`Tallies`).
- `StoreData` (any other `Store`, e.g. Redis): the same answers through the `Store`
  protocol's reads (`list_sessions`, `get_session`, `timeline`, `outbox_pending`); a page
  costs what listing every session costs on that backend.

Every text leaves through `build.Redactor`. Reads never write: a missing SQLite file is an
empty dashboard until the first hook creates it.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

from coachloop.core.session import unsparse
from coachloop.dashboard.build import Redactor, session_row, timeline_item
from coachloop.dashboard.seam import SNAPSHOTS_SHOWN, Caps, DashboardData, found_snapshot, header
from coachloop.dashboard.stats import Tallies
from coachloop.dashboard.views import (
    CAP_WHY,
    Counts,
    Delivery,
    Filters,
    SessionHeader,
    SessionRow,
    SessionsPage,
    TimelineItem,
    TimelinePage,
)
from coachloop.snapshot_pack import name as record_name
from coachloop.store import EventRecord, Store, StoreError, UnknownSession
from coachloop.store.records import EVENT_SQL, Life, event_data
from coachloop.store.sqlite_forget import floor
from coachloop.store.sqlite_life import LIFE_NEWEST, LIFE_OF_EVENT

BUILT_ITEMS = 4000  # timeline items kept built (records never change once written)
# A session's events are those past what a forgetting of its id left to purge: a session
# started again since shows none of the old one's (`store.sqlite_forget`).
_KEPT = f"e.id > {floor('s.session_id')}"
_LAST_STOP = (
    "(SELECT e.id FROM events e WHERE e.session_id = s.session_id AND +e.kind = 'stop'"
    f" AND {_KEPT} ORDER BY e.id DESC LIMIT 1)"
)
_CAPPED = (
    "coalesce((SELECT e.why FROM events e WHERE e.session_id = s.session_id"
    f" AND +e.kind = 'stop' AND {_KEPT} ORDER BY e.id DESC LIMIT 1), '') LIKE '{CAP_WHY}%'"
)
_EVENT = f"SELECT {EVENT_SQL} FROM events WHERE id = ?1 AND session_id = ?2 AND ?1 > {floor('?2')}"
# A capped delivery is a "status" verdict (the only type that continues) delivered at the
# cap, so only waiting sessions whose last verdict is "status" need their last stop read.
_STATUS_SQL = {
    "working": "s.status = 'running'",
    "waiting": f"s.status = 'waiting' AND (s.last_verdict IS NOT 'status' OR NOT {_CAPPED})",
    "capped": f"s.status = 'waiting' AND s.last_verdict = 'status' AND {_CAPPED}",
}


class SQLiteData:
    """`DashboardData` over a SQLite store file (see the module docstring)."""

    def __init__(self, path: Path, redact: Redactor, owner: Store | None = None) -> None:
        self.path = path
        self.redact = redact
        self.owner = owner
        self.caps = Caps()
        self.tallies = Tallies()
        # Records never change once written (ids are never reused): their views are
        # built once; only their deliveries are read each time. Bounded, least recent out.
        self._built: OrderedDict[int, TimelineItem] = OrderedDict()
        self._built_lock = threading.Lock()

    @contextmanager
    def _db(self) -> Iterator[sqlite3.Connection | None]:
        """A read-only connection for one query batch; None while the file does not exist."""
        if not self.path.exists():
            yield None
            return
        try:
            db = sqlite3.connect(f"{self.path.resolve().as_uri()}?mode=ro", uri=True, timeout=10)
        except sqlite3.Error as exc:
            raise StoreError(f"store {self.path}: {exc}") from exc
        try:
            yield db
        except sqlite3.Error as exc:
            raise StoreError(f"store {self.path}: {exc}") from exc
        finally:
            db.close()

    def _rows(
        self, db: sqlite3.Connection, where: str, args: list[Any], tail: str
    ) -> list[SessionRow]:
        found = db.execute(
            f"SELECT s.state, {_LAST_STOP} FROM sessions s {where} {tail}", args
        ).fetchall()
        stop_ids = [r[1] for r in found if r[1] is not None]
        stops: dict[int, dict[str, Any]] = {}
        if stop_ids:
            marks = ",".join("?" * len(stop_ids))
            for eid, decision, why, vtype, reason in db.execute(
                "SELECT id, decision, why, verdict_type, json_extract(data, '$.verdict.reason')"
                f" FROM events WHERE id IN ({marks})",
                stop_ids,
            ):
                stops[eid] = {"decision": decision, "why": why, "verdict_type": vtype}
                stops[eid]["reason"] = reason
        out = []
        for state_json, stop_id in found:
            state = unsparse(json.loads(state_json))  # a store keeps it sparse
            cap = self.caps(str(state.get("project") or ""))
            out.append(
                session_row(state, cap=cap, last_stop=stops.get(stop_id), redact=self.redact)
            )
        return out

    def sessions(self, filters: Filters, *, offset: int, limit: int) -> SessionsPage:
        where, args = _where(filters)
        # The page walks the activity order (sessions_recent) and stops at its last row; on
        # the project's index (the count's) it would sort every session of the project: the
        # unary "+" keeps SQLite off that index for the page.
        in_order, _ = _where(filters, project_column="+s.project")
        with self._db() as db:
            if db is None:
                return SessionsPage([], 0, offset, limit, filters, 0)
            total = db.execute(f"SELECT count(*) FROM sessions s {where}", args).fetchone()[0]
            rows = self._rows(
                db, in_order, [*args, limit, offset], "ORDER BY s.updated_at DESC LIMIT ? OFFSET ?"
            )
            projects = [r[0] for r in db.execute("SELECT DISTINCT project FROM sessions")]
            agents = [r[0] for r in db.execute("SELECT DISTINCT agent FROM sessions")]
            newest = self._mark(db)
        return SessionsPage(
            rows, total, offset, limit, filters, newest, sorted(projects), sorted(agents)
        )

    def rows(self, session_ids: Sequence[str]) -> list[SessionRow]:
        if not session_ids:
            return []
        with self._db() as db:
            if db is None:
                return []
            marks = ",".join("?" * len(session_ids))
            return self._rows(
                db, f"WHERE s.session_id IN ({marks})", list(session_ids), "ORDER BY s.updated_at"
            )

    def _header(self, db: sqlite3.Connection, session_id: str) -> SessionHeader:
        rows = self._rows(db, "WHERE s.session_id = ?", [session_id], "")
        if not rows:
            raise UnknownSession(session_id, str(self.path))
        state = unsparse(
            json.loads(
                db.execute(
                    "SELECT state FROM sessions WHERE session_id = ?", (session_id,)
                ).fetchone()[0]
            )
        )
        lives = db.execute(LIFE_NEWEST, (session_id, SNAPSHOTS_SHOWN)).fetchall()
        names = [record_name(Life(r[0], b"", r[2], r[3])) for r in reversed(lives)]
        return header(rows[0], state, self.redact, names)

    def snapshot(self, session_id: str, name: str) -> dict[str, Any] | None:
        """The lifecycle record of that name (its event id picks the rows), or None."""
        parts = name.split("_")
        if len(parts) < 3 or not parts[1].isdigit():
            return None
        with self._db() as db:
            if db is None:
                return None
            eid = int(parts[1])
            rows = db.execute(LIFE_OF_EVENT, (session_id, eid)).fetchall()
            event = db.execute(_EVENT, (eid, session_id)).fetchone()
        lives = [Life(r[0], bytes(r[1]), r[2], eid, session_id, r[3]) for r in rows]
        record = (
            EventRecord.from_dict({**event_data(event[0], event[1:]), "id": eid}) if event else None
        )
        return found_snapshot(lives, name, record)

    def _items(
        self, db: sqlite3.Connection, session_id: str, sql: str, args: list[Any]
    ) -> list[TimelineItem]:
        ids = [
            r[0]
            for r in db.execute(
                f"SELECT id FROM events WHERE session_id = ? AND id > {floor('?1')} {sql}",
                [session_id, *args],
            )
        ]
        if not ids:
            return []
        with self._built_lock:
            known = {i: self._built[i] for i in ids if i in self._built}
        missing = [i for i in ids if i not in known]
        for start in range(0, len(missing), 500):  # SQLite's variable limit
            part = missing[start : start + 500]
            marks = ",".join("?" * len(part))
            sql = f"SELECT id, {EVENT_SQL} FROM events WHERE id IN ({marks})"
            for eid, data, *columns in db.execute(sql, part):
                record = {**event_data(data, columns), "id": eid}
                known[eid] = timeline_item(record, self.redact, ())
        with self._built_lock:
            for i in missing:
                self._built[i] = known[i]
            while len(self._built) > BUILT_ITEMS:
                self._built.popitem(last=False)
        sent: dict[int, list[Delivery]] = {}
        for eid, kind, sent_at in db.execute(
            "SELECT event_id, kind, sent_at FROM outbox"
            " WHERE session_id = ? AND event_id BETWEEN ? AND ? ORDER BY id",
            (session_id, min(ids), max(ids)),
        ):
            sent.setdefault(eid, []).append(Delivery(kind, sent_at))
        return [
            replace(known[i], deliveries=tuple(sent[i])) if i in sent else known[i] for i in ids
        ]

    def timeline(self, session_id: str, *, before: int | None, limit: int) -> TimelinePage:
        with self._db() as db:
            if db is None:
                raise UnknownSession(session_id, str(self.path))
            head = self._header(db, session_id)
            cursor = "AND id < ?" if before is not None else ""
            args: list[Any] = [before] if before is not None else []
            items = self._items(
                db, session_id, f"{cursor} ORDER BY id DESC LIMIT ?", [*args, limit + 1]
            )
            newest = self._mark(db)
        older = items[limit - 1].id if len(items) > limit else None
        return TimelinePage(head, items[:limit], older, newest)

    def items_after(self, session_id: str, after: int, limit: int) -> list[TimelineItem]:
        with self._db() as db:
            if db is None:
                return []
            return self._items(db, session_id, "AND id > ? ORDER BY id LIMIT ?", [after, limit])

    def item(self, session_id: str, event_id: int) -> TimelineItem:
        with self._db() as db:
            row = None if db is None else db.execute(_EVENT, (event_id, session_id)).fetchone()
        if row is None:
            raise UnknownSession(f"{session_id} #{event_id}", str(self.path))
        return timeline_item(
            {**event_data(row[0], row[1:]), "id": event_id}, self.redact, full=True
        )

    @staticmethod
    def _mark(db: sqlite3.Connection) -> int:
        return int(db.execute("SELECT coalesce(max(id), 0) FROM events").fetchone()[0])

    def mark(self) -> int:
        with self._db() as db:
            return 0 if db is None else self._mark(db)

    def changed(self, since: int, limit: int) -> tuple[int, list[str]]:
        with self._db() as db:
            if db is None:
                return since, []
            found = db.execute(
                "SELECT id, session_id FROM events WHERE id > ? ORDER BY id LIMIT ?", (since, limit)
            ).fetchall()
        if not found:
            return since, []
        return found[-1][0], list(dict.fromkeys(sid for _, sid in found))

    def counts(self, days: int) -> Counts:
        with self._db() as db:
            if db is None:
                return Counts(days, [], [])
            return self.tallies.counts(db, days)

    def close(self) -> None:
        """Close the store this was opened from (queries hold no connection between calls)."""
        if self.owner is not None:
            self.owner.close()


def open_data(store: Store, secrets: Sequence[str] = ()) -> DashboardData:
    """The `DashboardData` for `store` (an opened store: its migrations have run), which
    it owns from now on (`close()` closes it). `secrets` are hidden wherever they appear."""
    redact = Redactor(secrets)
    from coachloop.store.sqlite import SQLiteStore

    if isinstance(store, SQLiteStore):  # read through its own read-only connections
        return SQLiteData(store.path, redact, owner=store)
    from coachloop.dashboard.generic import StoreData

    return StoreData(store, redact)


def _where(filters: Filters, project_column: str = "s.project") -> tuple[str, list[str]]:
    """The WHERE clause of the sessions list and its arguments (the project compared as
    `project_column`: the same rows, written for another query plan)."""
    clauses, args = [], []
    for column, value in ((project_column, filters.project), ("s.agent", filters.agent)):
        if value:
            clauses.append(f"{column} = ?")
            args.append(value)
    if filters.status:
        clauses.append(_STATUS_SQL.get(filters.status, "s.status = ?"))
        if filters.status not in _STATUS_SQL:
            args.append(filters.status)
    return ("WHERE " + " AND ".join(clauses)) if clauses else "", args
