"""Forgetting a session in the SQLite store: its row at once, its other rows in batches.

`forget` deletes the session's row in a short transaction, only while the session is
still idle (no stop came since maintenance read it), and records in `forgotten`
(migration 0013) the last ids its events, lifecycle records and outbox rows can have
then: ids only grow (AUTOINCREMENT), so a row past them belongs to a session of the same
id started since. `purge` deletes those rows a bounded batch per transaction; until
then every read of a session skips them (`floor`: the store's `TIMELINE` and
`sqlite_life`'s queries, the dashboard's own), so a session of the same id started
meanwhile shows none of them. Pending outbox rows are kept, as `delete_session` keeps
them.
"""

from __future__ import annotations

import sqlite3

from coachloop.store.records import EVENT_SQL

FORGET = (
    "INSERT INTO forgotten (session_id, events_upto, life_upto, outbox_upto) VALUES (?,"
    " (SELECT coalesce(max(id), 0) FROM events), (SELECT coalesce(max(id), 0) FROM lifecycle),"
    " (SELECT coalesce(max(id), 0) FROM outbox))"
    " ON CONFLICT(session_id) DO UPDATE SET events_upto = excluded.events_upto,"
    " life_upto = excluded.life_upto, outbox_upto = excluded.outbox_upto"
)
# Each on the session's (session_id, id) index: a range of one session's rows.
_PURGE = (
    "DELETE FROM events WHERE id IN (SELECT id FROM events"
    " WHERE session_id = ? AND id <= ? ORDER BY id LIMIT ?)",
    "DELETE FROM lifecycle WHERE id IN (SELECT id FROM lifecycle"
    " WHERE session_id = ? AND id <= ? ORDER BY id LIMIT ?)",
    "DELETE FROM outbox WHERE id IN (SELECT id FROM outbox"
    " WHERE session_id = ? AND id <= ? AND sent_at IS NOT NULL LIMIT ?)",
)


def floor(session: str, upto: str = "events_upto") -> str:
    """SQL: the last id of a table's rows (`upto`: events_upto, life_upto, outbox_upto)
    that a forgetting of session `session` (an SQL expression: '?1', 's.session_id') left
    to purge; 0 when none. A read of the session shows only rows past it."""
    return f"coalesce((SELECT {upto} FROM forgotten WHERE session_id = {session}), 0)"


# A session's timeline: its events after its last forgetting (all of them when it was
# never forgotten), newest first: (id, `EVENT_SQL`). Args: (session_id,).
TIMELINE = (
    f"SELECT id, {EVENT_SQL} FROM events WHERE session_id = ?1 AND id > {floor('?1')}"
    " ORDER BY id DESC"
)


def forget(db: sqlite3.Connection, session_id: str, idle_before: float) -> bool:
    """Inside a write transaction: the session's row deleted if its `updated_at` is
    still `idle_before` or earlier, and the ids of its rows to purge recorded. True when
    it was forgotten."""
    gone = db.execute(
        "DELETE FROM sessions WHERE session_id = ? AND updated_at <= ?", (session_id, idle_before)
    ).rowcount
    if gone:
        db.execute(FORGET, (session_id,))
    return bool(gone)


def purge(db: sqlite3.Connection, limit: int) -> int:
    """Inside a write transaction: at most `limit` rows of forgotten sessions deleted,
    a session's events, then its records, then its delivered outbox rows, the sessions
    in the order they were forgotten; a session none is left of leaves `forgotten`.
    Returns how many went: fewer than `limit` means none is left."""
    done = 0
    while done < limit:
        row = db.execute(
            "SELECT session_id, events_upto, life_upto, outbox_upto FROM forgotten"
            " ORDER BY rowid LIMIT 1"
        ).fetchone()
        if row is None:
            break
        session_id, *upto = row
        for sql, last in zip(_PURGE, upto, strict=True):
            done += db.execute(sql, (session_id, last, limit - done)).rowcount
            if done >= limit:
                return done
        db.execute("DELETE FROM forgotten WHERE session_id = ?", (session_id,))
    return done
