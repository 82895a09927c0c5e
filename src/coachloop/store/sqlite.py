"""The default store: one SQLite file (standard library only, on the hook path).

WAL journal, `synchronous=NORMAL` (a committed transaction survives the writer being
killed), a busy timeout so concurrent processes queue instead of failing, and one
`BEGIN IMMEDIATE` transaction per event: the session row is read and written under the
database's write lock, so 32 processes stopping at once serialise cleanly. Opening the file
(refusing one that is not a SQLite database, WAL, migrations) and copying the WAL back
from a thread of its own (`Checkpointer`) are `sqlite_file`'s part; where lifecycle
records live and how they are read and trimmed, `sqlite_life`'s.

A stop's transaction is five statements: the state read (its parse reused while the JSON
is the same), the session row, the stop's events row with its lifecycle record (migration
0010), its outbox rows; about 11 WAL pages, each index on a written row one or two more
(`tests/test_store_pages.py` pins the count).
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

from coachloop.core.session import SessionState
from coachloop.store.base import Cursor, R, Store, StoreError, TxnFn, UnknownSession
from coachloop.store.records import (
    COMMITTED_STATE,
    COMPACT,
    EventRecord,
    Life,
    OutboxEntry,
    event_data,
    event_json,
)
from coachloop.store.sqlite_file import SAFETY_PAGES, Checkpointer, open_database
from coachloop.store.sqlite_forget import TIMELINE, forget, purge
from coachloop.store.sqlite_life import EVENT_WITH_RECORD, LIFE_NEWEST, trim_event_records

_EVENT = (
    "INSERT INTO events (session_id, kind, ts, recorded_at, job_id, decision, verdict_type,"
    " source, why, data) VALUES (?,?,?,?,?,?,?,?,?,?)"
)
_NEW_SESSION = (
    "INSERT INTO sessions (session_id, project, agent, status, continues, last_verdict,"
    " created_at, updated_at, state) VALUES (?,?,?,?,?,?,?,?,?)"
)
# A stop's UPDATE names the project only when it changes: an index whose columns an UPDATE
# names is rewritten by it, same value or not (a page a stop: migration 0016).
_SESSION = (
    "UPDATE sessions SET agent = ?, status = ?, continues = ?, last_verdict = ?,"
    " updated_at = ?, state = ? WHERE session_id = ?"
)
_SESSION_MOVED = (
    "UPDATE sessions SET project = ?, agent = ?, status = ?, continues = ?, last_verdict = ?,"
    " updated_at = ?, state = ? WHERE session_id = ?"
)
PARSED_STATES = 512  # sessions whose parsed state is kept (a few hundred KB at most)


def _columns(st: SessionState) -> tuple[Any, ...]:
    """The state's values the sessions table keeps in columns of their own, besides the
    session id, its project (a session's update leaves it out when it stays) and the times."""
    return (st.agent, st.status, st.continues, st.last_verdict)


class SQLiteStore(Store):
    """A `Store` in one SQLite file. Safe for threads (one connection, a lock) and for
    many processes (SQLite's file locks). Use as a context manager or call `close()`."""

    def __init__(self, path: Path | str, *, timeout: float = 30.0) -> None:
        self.path = Path(path).expanduser()
        self.location = str(self.path)
        self._lock = threading.RLock()
        self._db = open_database(self.path, timeout)
        self._checkpoints = Checkpointer(self.path, timeout, self._lock)
        # A store dropped without `close` ends its thread (which holds no reference to
        # the store) and the thread's connection too; never waited for at exit.
        weakref.finalize(self, self._checkpoints.stop).atexit = False
        self._states: dict[str, tuple[str, SessionState]] = {}  # see `_parsed`

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        """One write transaction (`BEGIN IMMEDIATE`): committed when the block ends, rolled
        back when it raises; SQLite's errors (beginning, inside, committing) leave as
        `StoreError` naming the file."""
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                try:
                    yield self._db
                    self._db.execute("COMMIT")
                except BaseException:
                    self._abandon()
                    raise
                if self._checkpoints.committed():  # copied from the WAL by its thread now
                    self._db.execute(f"PRAGMA wal_autocheckpoint = {SAFETY_PAGES}")
            except sqlite3.Error as exc:
                raise StoreError(f"store {self.path}: {exc}") from exc

    def _abandon(self) -> None:
        """Roll back what a failed transaction left open. A COMMIT that fails (a deferred
        constraint, SQLITE_BUSY) keeps its transaction open, and SQLite may already have
        rolled back on its own (SQLITE_FULL, an I/O error): either way the connection is
        out of any transaction afterwards, so the next stop can begin its own. The error
        that made it fail is the one raised, never one from the rollback."""
        if self._db.in_transaction:
            with suppress(sqlite3.Error):
                self._db.execute("ROLLBACK")

    def _read(self, sql: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        try:
            with self._lock:
                return list(self._db.execute(sql, args))
        except sqlite3.Error as exc:
            raise StoreError(f"store {self.path}: {exc}") from exc

    def transact(
        self, session_id: str, fn: TxnFn[R], *, project: str = ""
    ) -> tuple[R, tuple[int, ...]]:
        with self._tx() as db:
            row = db.execute(
                "SELECT state, project FROM sessions WHERE session_id = ?", (session_id,)
            ).fetchone()
            state = self._parsed(session_id, row[0]) if row else None
            write, result = fn(state)
            if write is None:
                return result, ()
            st = write.state
            state_json = COMPACT.encode(st.sparse_dict())  # `from_dict` reads it whole
            if row is None:  # read in this write transaction: no other writer between
                columns = (st.project, *_columns(st))
                new = (session_id, *columns, st.created_at, st.updated_at, state_json)
                db.execute(_NEW_SESSION, new)
            elif row[1] == st.project:
                db.execute(_SESSION, (*_columns(st), st.updated_at, state_json, session_id))
            else:
                moved = (st.project, *_columns(st), st.updated_at, state_json, session_id)
                db.execute(_SESSION_MOVED, moved)
            ids: list[int] = []
            now = time.time()
            life = write.life
            for ev in write.events:
                values = (
                    session_id,
                    ev.kind,
                    ev.ts,
                    ev.recorded_at,
                    ev.job_id,
                    ev.decision,
                    ev.verdict_type,
                    ev.source,
                    ev.why,
                    event_json(ev),
                )
                if life is not None and not ids:  # the record's own row carries it
                    kept = state_json if life.state == COMMITTED_STATE else life.state
                    at = life.saved_at or now
                    cur = db.execute(EVENT_WITH_RECORD, (*values, life.label, at, life.body, kept))
                else:
                    cur = db.execute(_EVENT, values)
                ids.append(int(cur.lastrowid or 0))
            for kind, text in write.outbox:
                db.execute(
                    "INSERT INTO outbox (session_id, event_id, kind, text, created_at)"
                    " VALUES (?,?,?,?,?)",
                    (session_id, ids[0] if ids else 0, kind, text, now),
                )
        self._keep(session_id, state_json, st)  # committed: the next stop reads it
        return result, tuple(ids)

    def _parsed(self, session_id: str, text: str) -> SessionState:
        """The state stored as `text`, parsed once while it stays the same: the whole JSON
        is compared, so a change any process made is read again."""
        with self._lock:
            known = self._states.get(session_id)
            if known is not None and known[0] == text:
                return known[1]
            state = SessionState.from_dict(json.loads(text))
            self._keep(session_id, text, state)
            return state

    def _keep(self, session_id: str, text: str, state: SessionState) -> None:
        """Remember `state` as the parse of `text` (a lossless round trip: `SessionState`
        is frozen, so one object is shared safely); the least recent go first."""
        with self._lock:
            self._states.pop(session_id, None)
            self._states[session_id] = (text, state)
            if len(self._states) > PARSED_STATES:
                del self._states[next(iter(self._states))]

    def get_session(self, session_id: str) -> SessionState:
        rows = self._read("SELECT state FROM sessions WHERE session_id = ?", (session_id,))
        if not rows:
            raise UnknownSession(session_id, self.location)
        return self._parsed(session_id, rows[0][0])

    def list_sessions(self, project: str | None = None) -> list[SessionState]:
        if project is None:
            rows = self._read("SELECT state FROM sessions ORDER BY updated_at DESC")
        else:
            rows = self._read(
                "SELECT state FROM sessions WHERE project = ? ORDER BY updated_at DESC", (project,)
            )
        return [SessionState.from_dict(json.loads(r[0])) for r in rows]

    def session_page(
        self, limit: int, before: Cursor | None = None, project: str | None = None
    ) -> list[SessionState]:
        """Keyset paging on the (updated_at, session_id, project) index (migration 0014): no
        scan of older rows; a project's page filters on the index entries."""
        where: list[str] = []
        args: list[Any] = []
        if project is not None:  # `+`: not the project's index, which would sort its rows
            where.append("+project = ?")
            args.append(project)
        if before is not None:
            where.append("(updated_at, session_id) < (?, ?)")
            args += [before[0], before[1]]
        sql = "SELECT state FROM sessions"
        if where:
            sql += " WHERE " + " AND ".join(where)
        sql += " ORDER BY updated_at DESC, session_id DESC LIMIT ?"
        rows = self._read(sql, (*args, max(int(limit), 0)))
        return [SessionState.from_dict(json.loads(r[0])) for r in rows]

    def lifecycle(self, session_id: str, limit: int = 50) -> list[Life]:
        rows = self._read(LIFE_NEWEST, (session_id, max(int(limit), 0)))
        return [Life(r[0], bytes(r[1]), r[2], r[3], session_id, r[4]) for r in reversed(rows)]

    def save_life(self, session_id: str, life: Life) -> None:
        with self._tx() as db:
            db.execute(
                "INSERT INTO lifecycle (session_id, event_id, label, saved_at, body, state)"
                " VALUES (?,?,?,?,?,?)",
                (session_id, life.event_id, life.label, life.saved_at, life.body, life.state),
            )

    def trim_lifecycle(self, saved_before: float, limit: int = 1000) -> int:
        """A bounded delete: rows of the lifecycle table on their saved_at index, then
        stops' records cleared from their events rows (the events stay), walking the
        events in id order from where the last walk stopped (`sqlite_life.trim_event_records`)."""
        with self._tx() as db:
            gone = db.execute(
                "DELETE FROM lifecycle WHERE id IN (SELECT id FROM lifecycle"
                " WHERE saved_at < ? ORDER BY saved_at LIMIT ?)",
                (saved_before, max(int(limit), 0)),
            ).rowcount
            return int(gone) + trim_event_records(db, saved_before, max(int(limit) - gone, 0))

    def trim_outbox(self, sent_before: float, limit: int = 1000) -> int:
        """Delete at most `limit` outbox rows delivered before `sent_before` (by index)."""
        with self._tx() as db:
            cur = db.execute(
                "DELETE FROM outbox WHERE id IN (SELECT id FROM outbox"
                " WHERE sent_at IS NOT NULL AND sent_at < ? ORDER BY sent_at LIMIT ?)",
                (sent_before, max(int(limit), 0)),
            )
            return int(cur.rowcount)

    def timeline(self, session_id: str, limit: int | None = None) -> list[EventRecord]:
        self.get_session(session_id)
        sql = TIMELINE  # without what a forgetting of the session left to purge
        args: tuple[Any, ...] = (session_id,)
        if limit is not None:
            sql += " LIMIT ?2"
            args += (limit,)
        rows = self._read(sql, args)
        return [
            EventRecord.from_dict({**event_data(r[1], r[2:]), "id": r[0]}) for r in reversed(rows)
        ]

    def outbox_pending(self, limit: int = 100) -> list[OutboxEntry]:
        rows = self._read(
            "SELECT id, session_id, event_id, kind, text, created_at, sent_at FROM outbox"
            " WHERE sent_at IS NULL ORDER BY id LIMIT ?",
            (limit,),
        )
        return [OutboxEntry(*r) for r in rows]

    def mark_sent(self, entry_id: int, sent_at: float | None = None) -> None:
        ts = time.time() if sent_at is None else sent_at
        with self._tx() as db:
            row = db.execute("SELECT sent_at FROM outbox WHERE id = ?", (entry_id,)).fetchone()
            if row is None:
                raise StoreError(f"store {self.path}: no outbox entry {entry_id}")
            if row[0] is None:
                db.execute("UPDATE outbox SET sent_at = ? WHERE id = ?", (ts, entry_id))

    def delete_session(self, session_id: str) -> None:
        """Forget a session: its state, timeline and sent outbox entries (pending stay)."""
        with self._tx() as db:
            self._states.pop(session_id, None)
            db.execute("DELETE FROM sessions WHERE session_id = ?", (session_id,))
            db.execute("DELETE FROM events WHERE session_id = ?", (session_id,))
            db.execute("DELETE FROM lifecycle WHERE session_id = ?", (session_id,))
            db.execute(
                "DELETE FROM outbox WHERE session_id = ? AND sent_at IS NOT NULL", (session_id,)
            )
            db.execute("DELETE FROM forgotten WHERE session_id = ?", (session_id,))

    def forget_session(self, session_id: str, idle_before: float) -> bool:
        """The session's row in one short transaction; its other rows later, a bounded
        batch at a time (`purge_forgotten`; `sqlite_forget`)."""
        with self._tx() as db:
            gone = forget(db, session_id, idle_before)
            if gone:
                self._states.pop(session_id, None)
            return gone

    def purge_forgotten(self, limit: int = 1000) -> int:
        with self._tx() as db:
            return purge(db, max(int(limit), 0))

    def claim(self, name: str, interval: float, now: float | None = None) -> bool:
        ts = time.time() if now is None else now
        last = self._read("SELECT value FROM meta WHERE name = ?", (name,))
        if last and ts - float(last[0][0]) < interval:
            return False  # not due: decided without taking the write lock
        with self._tx() as db:
            row = db.execute("SELECT value FROM meta WHERE name = ?", (name,)).fetchone()
            if row is not None and ts - float(row[0]) < interval:
                return False
            db.execute(
                "INSERT INTO meta (name, value) VALUES (?, ?)"
                " ON CONFLICT(name) DO UPDATE SET value = excluded.value",
                (name, ts),
            )
            return True

    def write(self, fn: Callable[[sqlite3.Connection], R]) -> R:
        """`fn(connection)` inside one write transaction (`BEGIN IMMEDIATE`): committed
        when it returns, rolled back when it raises. For whole-store steps (upgrades)."""
        with self._tx() as db:
            return fn(db)

    def close(self) -> None:
        self._checkpoints.close()
        with self._lock:
            self._db.close()
