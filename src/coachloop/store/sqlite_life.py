"""The SQLite store's lifecycle records: where they live and how they are read and trimmed.

A stop's record is stored in its own events row (`life_label`, `life_saved`, `life_body`,
`life_state`; migration 0010); the lifecycle table holds the others and the stops'
records of older stores. The queries below read both, in event order; the store writes
and trims them, and the dashboard's SQLite source reads them on its own connections.
"""

from __future__ import annotations

import sqlite3

from coachloop.store.sqlite_forget import floor

EVENT_WITH_RECORD = (
    "INSERT INTO events (session_id, kind, ts, recorded_at, job_id, decision, verdict_type,"
    " source, why, data, life_label, life_saved, life_body, life_state)"
    " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)"
)


# A session's newest lifecycle records (label, body, saved_at, event_id, state), by the
# events they record: a stop's from its events row (migration 0010), the others (and
# stops' records of older stores) from the lifecycle table; none a forgetting of the
# session left to purge (`sqlite_forget`, migration 0013). Args: (session_id, limit).
LIFE_NEWEST = (
    "SELECT label, body, saved_at, event_id, state FROM ("
    " SELECT * FROM (SELECT label, body, saved_at, event_id, state, 1 AS src, id AS n"
    " FROM lifecycle WHERE session_id = ?1"
    f" AND id > {floor('?1', 'life_upto')}"
    " ORDER BY id DESC LIMIT ?2)"
    " UNION ALL SELECT * FROM (SELECT life_label, life_body, life_saved, id, life_state, 0, 0"
    " FROM events WHERE session_id = ?1"
    f" AND id > {floor('?1')}"
    " AND life_body IS NOT NULL ORDER BY id DESC LIMIT ?2))"
    " ORDER BY event_id DESC, src DESC, n DESC LIMIT ?2"
)
# The lifecycle records of one event (label, body, saved_at, state), none of an event a
# forgetting of the session left to purge. Args: (session_id, event_id).
LIFE_OF_EVENT = (
    "SELECT label, body, saved_at, state FROM lifecycle WHERE session_id = ?1 AND event_id = ?2"
    f" AND ?2 > {floor('?1')}"
    " UNION ALL SELECT life_label, life_body, life_saved, life_state FROM events"
    f" WHERE id = ?2 AND session_id = ?1 AND life_body IS NOT NULL AND ?2 > {floor('?1')}"
)


def trim_event_records(db: sqlite3.Connection, saved_before: float, limit: int) -> int:
    """Clear at most `limit` stops' lifecycle records saved before `saved_before` from
    their events rows, in id order from the cursor "life_trimmed" (migration 0011).
    SQLite passes over the rows without a record itself: a run of them (stops recorded
    while snapshots were off) is read once, then the cursor is past it; so fewer than
    `limit` cleared means none is left before the first record kept (`maintain` stops
    there). The walk stops at that record: one saved later than a record after it
    (clocks of two processes) keeps that one a little longer. Returns how many were
    cleared."""
    if limit <= 0:
        return 0
    row = db.execute("SELECT value FROM meta WHERE name = 'life_trimmed'").fetchone()
    start = int(row[0]) if row else 0
    cleared: list[int] = []
    kept: int | None = None
    for event_id, saved in db.execute(
        "SELECT id, life_saved FROM events WHERE id > ? AND life_saved IS NOT NULL"
        " ORDER BY id LIMIT ?",
        (start, limit),
    ).fetchall():
        if saved >= saved_before:
            kept = event_id
            break
        cleared.append(event_id)
    if kept is not None:
        last = kept - 1
    elif len(cleared) >= limit:
        last = cleared[-1]
    else:  # none left: every row is read (in the write transaction: none is added)
        last = max(start, int(db.execute("SELECT max(id) FROM events").fetchone()[0] or 0))
    if cleared:
        db.execute(
            "UPDATE events SET life_label = NULL, life_saved = NULL, life_body = NULL,"
            f" life_state = NULL WHERE id IN ({','.join('?' * len(cleared))})",
            cleared,
        )
    if last != start:
        db.execute(
            "INSERT INTO meta (name, value) VALUES ('life_trimmed', ?)"
            " ON CONFLICT(name) DO UPDATE SET value = excluded.value",
            (last,),
        )
    return len(cleared)
