"""Judgement at a glance: stops per day and per agent by outcome, kept up to date cheaply.

`Tallies` reads a SQLite store's stops of the window once (the `(kind, ts)` index), then at
each later call only the events committed since (a rowid range), so a page left open
costs a few rows per refresh whatever the store's size. Counts are of stops as recorded:
a session deleted later keeps its stops counted until the server restarts.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections import Counter
from collections.abc import Iterable
from datetime import datetime

from coachloop.dashboard.views import Counts, Tally, outcome, tally

BATCH = 50_000
MAX_DAYS = 90
Key = tuple[int, str, str]  # (local day number, agent, outcome)


def day_of(ts: float, offset: float) -> int:
    """The local day number of `ts` (days since the epoch, in local time)."""
    return int((ts + offset) // 86_400)


def day_label(day: int) -> str:
    """ "MM-DD" of a local day number."""
    return time.strftime("%m-%d", time.gmtime(day * 86_400))


def utc_offset() -> float:
    """This machine's offset from UTC now, in seconds."""
    delta = datetime.now().astimezone().utcoffset()
    return delta.total_seconds() if delta is not None else 0.0


def summarise(acc: Counter[Key], first_day: int, last_day: int) -> tuple[list[Tally], list[Tally]]:
    """Per-day tallies (every day of the window, oldest first) and per-agent tallies
    (most stops first) from (day, agent, outcome) counts."""
    by_day: dict[int, Counter[str]] = {d: Counter() for d in range(first_day, last_day + 1)}
    by_agent: dict[str, Counter[str]] = {}
    for (day, agent, result), n in acc.items():
        if first_day <= day <= last_day:
            by_day[day][result] += n
            by_agent.setdefault(agent or "?", Counter())[result] += n
    per_day = [tally(day_label(d), c) for d, c in by_day.items()]
    per_agent = sorted(
        (tally(a, c) for a, c in by_agent.items()), key=lambda t: (-t.total, t.label)
    )
    return per_day, per_agent


def count_stops(
    acc: Counter[Key],
    stops: Iterable[tuple[float, str, str | None, str]],
    offset: float,
    first_day: int,
) -> None:
    """Add (ts, agent, decision, why) stops of day `first_day` or later to `acc`."""
    for ts, agent, decision, why in stops:
        day = day_of(ts, offset)
        if day >= first_day:
            acc[(day, agent, outcome(decision, why or ""))] += 1


class Tallies:
    """Incremental per-(day, agent, outcome) counts of one SQLite store (thread-safe)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._acc: Counter[Key] = Counter()
        self._agents: dict[str, str] = {}
        self._last_id = 0
        self._first_day: int | None = None

    def counts(self, db: sqlite3.Connection, days: int, now: float | None = None) -> Counts:
        """Counts over the last `days` days (today included), read through `db`."""
        days = max(1, min(days, MAX_DAYS))
        offset = utc_offset()
        today = day_of(time.time() if now is None else now, offset)
        first_day = today - days + 1
        with self._lock:
            if self._first_day is None or first_day < self._first_day:
                self._load(db, first_day, offset)
            self._catch_up(db, offset)
            for key in [k for k in self._acc if k[0] < first_day - MAX_DAYS]:
                del self._acc[key]  # a server running for months forgets old days
            per_day, per_agent = summarise(self._acc, first_day, today)
        return Counts(days, per_day, per_agent)

    def _load(self, db: sqlite3.Connection, first_day: int, offset: float) -> None:
        """Count the window from scratch, up to the newest id read first."""
        self._acc.clear()
        self._last_id = int(db.execute("SELECT coalesce(max(id), 0) FROM events").fetchone()[0])
        since = first_day * 86_400 - offset
        rows = db.execute(
            "SELECT ts, session_id, decision, why FROM events"
            " WHERE kind = 'stop' AND ts >= ? AND id <= ?",
            (since, self._last_id),
        ).fetchall()
        self._add(db, rows, offset, first_day)
        self._first_day = first_day

    def _catch_up(self, db: sqlite3.Connection, offset: float) -> None:
        assert self._first_day is not None
        while True:
            rows = db.execute(
                "SELECT id, ts, session_id, decision, why FROM events"
                " WHERE id > ? AND +kind = 'stop' ORDER BY id LIMIT ?",
                (self._last_id, BATCH),
            ).fetchall()
            if not rows:
                return
            self._last_id = rows[-1][0]
            self._add(db, [r[1:] for r in rows], offset, self._first_day)
            if len(rows) < BATCH:
                return

    def _add(
        self,
        db: sqlite3.Connection,
        rows: list[tuple[float, str, str | None, str]],
        offset: float,
        first_day: int,
    ) -> None:
        missing = list({sid for _, sid, _, _ in rows if sid not in self._agents})
        for start in range(0, len(missing), 500):
            chunk = missing[start : start + 500]
            marks = ",".join("?" * len(chunk))
            found = dict(
                db.execute(
                    f"SELECT session_id, agent FROM sessions WHERE session_id IN ({marks})", chunk
                ).fetchall()
            )
            for sid in chunk:
                self._agents[sid] = str(found.get(sid) or "")
        agents = self._agents
        count_stops(
            self._acc,
            ((ts, agents.get(sid, ""), dec, why) for ts, sid, dec, why in rows),
            offset,
            first_day,
        )
