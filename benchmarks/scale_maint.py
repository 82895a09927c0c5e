"""scale.py's store with due maintenance work, and one full maintenance pass timed against stops.

`prefill` fills a store (`dashboard_fill.fill`), then gives every stop its lifecycle record
the way the current code stores it (in the stop's events row, migration 0010; `upgraded`:
in the old `lifecycle` table instead, a store that looks upgraded) and makes work due for
every kind of maintenance step, a bounded amount (`due` per kind):
- sessions (`due` each, at most a fifth of them): idle 40 days (forgotten; one of them
  holds `BIG` more stops, a copy of the long session's, with their records), running and
  idle 2 days (alerted and abandoned), running and idle 1 hour (alerted "silent"); every
  other session was active in the last 10 minutes, with a run shorter than the limit;
- the `due` oldest records and the `due` oldest delivered outbox rows are past the
  retention (8 days old), the rest saved an hour ago;
- a few snapshot files past the retention under the snapshot folder.
The file is synced to disk at the end (`_synced`): the fill writes without syncing, and a
store in use never carries its whole size in unsynced pages.

`maintenance_window` runs one full pass (the watchdog walk over every session, the
retention trim to its end) from a background thread, steps back to back with `pause`
between them (the daemon waits 50 ms), while the caller's thread makes stops without a
break; it reports the worst stop and p99 over the whole window and the steps of each kind,
and the same figures over as long a window without maintenance right after (stops made
without a break for a second or more have a tail of their own: WAL, disk, the machine).
"""

from __future__ import annotations

import json
import os
import random
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from dashboard_fill import LONG_ID, fill

from coachloop.core.events import StopEvent
from coachloop.core.session import sparse, unsparse
from coachloop.snapshot_pack import pack, stop_context
from coachloop.store.records import COMPACT
from coachloop.supervisor import Supervisor

DAY = 86_400.0
TEXT = "Running the migration now; 14 of 40 files done, the parser needs a second pass. " * 6


def _record() -> bytes:
    """A typical stop's record, packed as `Supervisor.on_stop` packs it."""
    event = StopEvent("bench", text=TEXT, agent="claude-code")
    return pack("bench", "auto_continue", {"stop": stop_context(event)}, None)


def prefill(path: Path, events: int, due: int, *, upgraded: bool = False) -> list[str]:
    """The store at `path` (see the module doc); returns the sessions nothing is due on."""
    fill(path, sessions=max(events // 10, 2), events=events, long_stops=1000)
    now, blob = time.time(), _record()
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA synchronous = OFF")
    db.execute("BEGIN")
    cut = db.execute(
        "SELECT max(id) FROM (SELECT id FROM events WHERE kind = 'stop' ORDER BY id LIMIT ?)",
        (due,),
    ).fetchone()[0]
    old, recent = now - 8 * DAY, now - 3600
    saved = "CASE WHEN e.id <= :cut THEN :old ELSE :recent END"
    state = "(SELECT state FROM sessions s WHERE s.session_id = e.session_id)"
    args = {"cut": cut, "old": old, "recent": recent, "blob": blob}
    if upgraded:
        db.execute(
            "INSERT INTO lifecycle (session_id, event_id, label, saved_at, body, state)"
            f" SELECT session_id, id, 'auto_continue', {saved}, :blob, {state}"
            " FROM events e WHERE kind = 'stop'",
            args,
        )
    else:
        db.execute(
            f"UPDATE events AS e SET life_label = 'auto_continue', life_saved = {saved},"
            f" life_body = :blob, life_state = {state} WHERE kind = 'stop'",
            args,
        )
    db.execute("UPDATE outbox SET sent_at = ? WHERE sent_at IS NOT NULL", (recent,))
    db.execute(
        "UPDATE outbox SET sent_at = ? WHERE id IN (SELECT id FROM outbox"
        " WHERE sent_at IS NOT NULL ORDER BY id LIMIT ?)",
        (old, due),
    )
    fresh, big = _sessions(db, now, due, random.Random(events))
    columns = "kind, ts, recorded_at, job_id, decision, verdict_type, source, why, data"
    life = "life_label, life_saved, life_body, life_state"
    db.execute(  # a big session to forget (`BIG` stops; records within the retention)
        f"INSERT INTO events (session_id, {columns}, {life}) SELECT ?, {columns},"
        " life_label, ?, life_body, life_state FROM events WHERE session_id = ?"
        " ORDER BY id LIMIT ?",
        (big, recent, LONG_ID, BIG),
    )
    db.execute("COMMIT")
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    _synced(path)
    _old_files(path.parent / f"snapshots-{events}", now - 8 * DAY)
    return fresh


def _synced(path: Path) -> None:
    """The prefill's pages flushed to disk before anything is timed. It writes with
    `synchronous = OFF`, which left up to the whole file (1.8 GB at 1M events) dirty in
    the page cache, and the first sync of the checkpoint thread flushed it in the
    maintenance window: 0.6-1.6 s, a stop committing meanwhile stalled 300 ms (and the
    step waiting on the store's lock behind it): the setup's writes, never a store's in
    use, whose checkpoint thread syncs what each checkpoint copies. No SQLite connection
    of this process is open on the file here, so closing this descriptor drops no lock."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _sessions(
    db: sqlite3.Connection, now: float, due: int, rng: random.Random
) -> tuple[list[str], str]:
    """Re-times every session (module doc); returns those with nothing due, and one of
    the forgotten ones."""
    rows = db.execute("SELECT session_id, state FROM sessions").fetchall()
    rng.shuffle(rows)
    rows.sort(key=lambda r: r[0] == LONG_ID)  # `show` reads it afterwards: never forgotten
    due = max(1, min(due, len(rows) // 5))  # most sessions are active ones
    fresh, out = [], []
    for n, (sid, text) in enumerate(rows):
        st = unsparse(json.loads(text))
        if n < due:  # forgotten
            st["updated_at"] = now - 40 * DAY
        elif n < 3 * due:  # abandoned (and alerted), or alerted "silent"
            st["status"], st["flags"] = "running", []
            st["updated_at"] = now - (2 * DAY if n < 2 * due else 3600)
            st["run_started_at"] = st["updated_at"]
        else:
            st["updated_at"] = now - rng.uniform(0, 600)
            st["run_started_at"] = st["updated_at"] - rng.uniform(0, 3600)
            st["flags"], st["tool_repeats"], st["error_run"] = [], 0, 0
            fresh.append(sid)
        out.append((st["status"], st["updated_at"], COMPACT.encode(sparse(st)), sid))
    db.executemany(
        "UPDATE sessions SET status = ?, updated_at = ?, state = ? WHERE session_id = ?", out
    )
    return fresh, rows[0][0]


def _old_files(root: Path, mtime: float, folders: int = 5, per: int = 10) -> None:
    for f in range(folders):
        (root / f"old-{f}").mkdir(parents=True, exist_ok=True)
        for i in range(per):
            file = root / f"old-{f}" / f"{i}.json"
            file.write_text("{}")
            os.utime(file, (mtime, mtime))


QUIET_MAX = 20.0
BIG = 1000  # stops of the biggest session forgotten
KINDS = ("walk", "alert", "abandon", "forget", "purge", "files", "outbox", "records")


class Upkeep(threading.Thread):
    """One full maintenance pass of `sup`, step by step (`Supervisor.maintain`)."""

    def __init__(self, sup: Supervisor, pause: float, cap: float) -> None:
        super().__init__(daemon=True)
        self.sup, self.pause, self.cap = sup, pause, cap
        self.steps, self.worst, self.complete = 0, 0.0, False
        self.worst_kinds: list[str] = []  # what the slowest step did
        self.kinds = dict.fromkeys(KINDS, 0)  # steps that did work of each kind
        self.rows = dict.fromkeys(KINDS, 0)  # pages, alerts, sessions, files, rows

    def run(self) -> None:
        until = time.perf_counter() + self.cap
        while time.perf_counter() < until:
            start = time.perf_counter()
            done = self.sup.maintain()
            took = (time.perf_counter() - start) * 1000
            self.steps += 1
            stale = done.stale
            counts = {
                "walk": int(stale is not None),
                "alert": len(done.alerts),
                "abandon": len(stale.abandoned) if stale else 0,
                "forget": len(stale.forgotten) if stale else 0,
                "purge": getattr(done, "purged", 0),  # rows of forgotten sessions
                "files": done.cleanup.removed if done.cleanup else 0,
                "outbox": done.trimmed,
                "records": done.records,
            }
            for kind, n in counts.items():
                self.kinds[kind] += n > 0
                self.rows[kind] += n
            if took > self.worst:
                self.worst, self.worst_kinds = took, [k for k, n in counts.items() if n > 0]
            if not self.sup.maintaining:
                self.complete = True
                return
            time.sleep(self.pause)


def _p99(values: list[float]) -> float:
    ordered = sorted(values) or [0.0]
    return ordered[round((len(ordered) - 1) * 0.99)]


def maintenance_window(
    sup: Supervisor, stop: Callable[[int], float], pause: float, cap: float
) -> dict[str, Any]:
    """Stops (`stop(i)` makes one, returns its ms) without a break while one full pass
    runs (at most `cap` seconds); the figures of the window, and the worst stop and p99
    of as long a window right after it without maintenance (at most `QUIET_MAX` s)."""
    upkeep = Upkeep(sup, pause, cap)
    started = time.perf_counter()
    upkeep.start()
    times: list[float] = []
    while upkeep.is_alive():
        times.append(stop(len(times)))
    upkeep.join()
    took = time.perf_counter() - started
    quiet: list[float] = []  # as long a window without maintenance: the machine's own tail
    until = time.perf_counter() + min(took, QUIET_MAX)
    while time.perf_counter() < until:
        quiet.append(stop(len(times) + len(quiet)))
    return {
        "window_quiet_worst_ms": max(quiet),
        "window_quiet_p99_ms": _p99(quiet),
        "maint_seconds": round(took, 1),
        "maint_complete": upkeep.complete,
        "maint_stops": len(times),
        "maint_worst_stop_ms": max(times, default=0.0),
        "maint_p99_ms": _p99(times),
        "maint_steps": upkeep.steps,
        "maint_worst_step_ms": upkeep.worst,
        "maint_worst_step_kinds": upkeep.worst_kinds,
        "maint_kind_steps": upkeep.kinds,
        "maint_kind_rows": upkeep.rows,
    }
