"""Fill a SQLite store fast with many sessions and events, for the dashboard benchmark.

Rows are written with the store's own schema (the store opens the file first and runs its
migrations) and the same JSON `SQLiteStore.transact` writes (`records.event_json`, a sparse
state), in one transaction with `executemany`, instead of one transaction per stop:
1,000,000 events take seconds, not hours.
One session, `bench-long`, has exactly `long_stops` stops (the timeline benchmark's).
"""

from __future__ import annotations

import random
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from coachloop.core.session import SessionState, sparse
from coachloop.store.records import COMPACT, EventRecord, event_json
from coachloop.store.sqlite import SQLiteStore

AGENTS = ("claude-code", "codex", "gemini")
STATUSES = ("running", "waiting", "done", "failed", "abandoned")
WORDS = (
    "fixed the login redirect, ran pytest: 42 passed, 0 failed. committed abc1234 on main. "
    "Should work now, I updated the handler and the tests. Which database should I use? "
    "Working on the migration next; the parser needs a second pass over nested lists. "
)
LONG_ID = "bench-long"


def _text(rng: random.Random) -> str:
    n = rng.choices((120, 240, 400, 800, 1600, 6000), (30, 30, 20, 12, 6, 2))[0]
    start = rng.randrange(len(WORDS))
    return (WORDS[start:] + WORDS * (n // len(WORDS) + 1))[:n]


def _verdict(rng: random.Random, decision: str) -> dict[str, Any]:
    kind = "status" if decision == "continue" else rng.choice(("completion", "question"))
    out: dict[str, Any] = {
        "type": kind,
        "confidence": round(rng.uniform(0.6, 0.99), 2),
        "reason": f"{kind}: the message reads as {kind}",
        "source": "rules",
        "route": "continue" if decision == "continue" else "deliver",
        "coaching_message": "Run the tests and show the counts." if kind == "status" else None,
        "rejected_completion": decision == "continue",
    }
    if kind == "completion":
        out["evidence"] = {
            "tests": [{"runner": "pytest", "passed": 42, "failed": 0, "skipped": 0, "line": ""}],
            "commits": ["abc1234"],
            "pull_requests": [],
            "paths": ["src/app.py"],
            "commands": ["pytest -q"],
            "exit_codes": [],
            "successes": [],
            "failures": [],
        }
    return out


def _events(
    rng: random.Random, sid: str, count: int, t0: float, span: float, *, stops_only: bool
) -> Iterator[tuple[Any, ...]]:
    step = span / max(count, 1)
    for i in range(count):
        ts = t0 + i * step
        roll = rng.random()
        if stops_only or roll < 0.86:
            decision = rng.choices(("continue", "deliver", "drop"), (50, 45, 5))[0]
            capped = decision == "deliver" and rng.random() < 0.08
            why = "auto-continue cap reached (3/3)" if capped else f"{decision}: judged"
            verdict = _verdict(rng, decision)
            text = _text(rng)
            rec = {
                "session_id": sid,
                "kind": "stop",
                "ts": ts,
                "recorded_at": ts,
                "text": text,
                "job_id": f"job-{i // 4}",
                "source": "rules",
                "verdict": verdict,
                "decision": decision,
                "why": why,
                "message": verdict["coaching_message"] or text,
                "notices": [],
            }
            yield (sid, "stop", ts, ts, rec["job_id"], decision, verdict["type"], "rules", why, rec)
        else:
            kind = "human" if roll < 0.97 else "alert"
            rec = {
                "session_id": sid,
                "kind": kind,
                "ts": ts,
                "recorded_at": ts,
                "text": "please also update the docs" if kind == "human" else "",
                "job_id": None,
                "source": "prompt" if kind == "human" else "watchdog",
                "verdict": None,
                "decision": None,
                "why": "" if kind == "human" else "stale",
                "message": "" if kind == "human" else "[coachloop watchdog] no stop for 30 min",
                "notices": [],
            }
            yield (sid, kind, ts, ts, None, None, None, rec["source"], rec["why"], rec)


def fill(
    path: Path,
    sessions: int = 10_000,
    events: int = 1_000_000,
    *,
    long_stops: int = 1000,
    days: float = 90.0,
    seed: int = 7,
) -> float:
    """Write `sessions` sessions holding `events` events in all (spread over the last
    `days` days) into the SQLite store at `path`; returns the seconds it took. Event ids
    follow time, as a real store's commit order does: sessions interleave in the table."""
    started = time.perf_counter()
    SQLiteStore(path).close()  # the schema, through the store's migrations
    rng = random.Random(seed)
    now = time.time()
    per = (events - long_stops) // max(sessions - 1, 1)
    extra = (events - long_stops) - per * (sessions - 1)
    plans = []
    for n in range(sessions):
        count = long_stops if n == 0 else per + (1 if n <= extra else 0)
        t0 = now - days * 86_400 * rng.random()
        span = min(rng.uniform(600, 86_400 * 3), now - t0)
        plans.append((LONG_ID if n == 0 else f"bench-{n:05d}", count, t0, span))
    streams = [
        _events(random.Random(seed * 100_003 + n), sid, count, t0, span, stops_only=n == 0)
        for n, (sid, count, t0, span) in enumerate(plans)
    ]
    order = sorted(
        (t0 + k * span / max(count, 1), n)
        for n, (_, count, t0, span) in enumerate(plans)
        for k in range(count)
    )
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("PRAGMA synchronous = OFF")
    db.execute("BEGIN")
    event_rows: list[tuple[Any, ...]] = []
    outbox_rows: list[tuple[Any, ...]] = []
    last: dict[int, dict[str, Any]] = {}
    for next_id, (_, n) in enumerate(order, start=1):
        *cols, rec = next(streams[n])
        event_rows.append((next_id, *cols, event_json(EventRecord.from_dict({**rec, "id": 0}))))
        if rec["decision"] == "deliver":
            sent = None if rng.random() < 0.05 else rec["ts"] + 1
            outbox_rows.append(
                (rec["session_id"], next_id, "deliver", rec["message"], rec["ts"], sent)
            )
        if rec["kind"] == "stop":
            last[n] = rec
        if len(event_rows) >= 50_000:
            _flush(db, event_rows, outbox_rows)
    _flush(db, event_rows, outbox_rows)
    session_rows = []
    for n, (sid, count, t0, span) in enumerate(plans):
        agent = AGENTS[n % len(AGENTS)]
        state = SessionState.new(sid, t0, agent=agent, project=f"/work/project-{n % 40:02d}")
        verdict = last.get(n, {}).get("verdict") or {}
        data = state.to_dict() | {
            "status": rng.choice(STATUSES),
            "continues": rng.randrange(4),
            "stops": count,
            "updated_at": t0 + span,
            "last_verdict": verdict.get("type"),
            "flags": ["stale"] if rng.random() < 0.02 else [],
        }
        columns = ("project", "agent", "status", "continues", "last_verdict")
        row = [sid, *(data[c] for c in columns), t0, t0 + span, COMPACT.encode(sparse(data))]
        session_rows.append(tuple(row))
    db.executemany(
        "INSERT INTO sessions (session_id, project, agent, status, continues, last_verdict,"
        " created_at, updated_at, state) VALUES (?,?,?,?,?,?,?,?,?)",
        session_rows,
    )
    db.execute("COMMIT")
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.execute("ANALYZE")
    db.close()
    return time.perf_counter() - started


def _flush(
    db: sqlite3.Connection, events: list[tuple[Any, ...]], outbox: list[tuple[Any, ...]]
) -> None:
    db.executemany(
        "INSERT INTO events (id, session_id, kind, ts, recorded_at, job_id, decision,"
        " verdict_type, source, why, data) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
        events,
    )
    db.executemany(
        "INSERT INTO outbox (session_id, event_id, kind, text, created_at, sent_at)"
        " VALUES (?,?,?,?,?,?)",
        outbox,
    )
    events.clear()
    outbox.clear()
