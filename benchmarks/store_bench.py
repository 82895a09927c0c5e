"""Decisions per second of the supervisor on each store backend.

One decision = the full per-stop path: read the session's state, run the pure policy,
and commit state + timeline record + outbox entry in one transaction (`record_stop`).
Snapshots are file writes outside the store and are not included.

    python benchmarks/store_bench.py                 # SQLite 1 process, Redis 1 vs 4 workers
    python benchmarks/store_bench.py --decisions 50000 --sessions 2000 --redis redis://host:6379/0

Targets: SQLite in one process >= 2,000 decisions/s; Redis with 4 worker processes faster
than with one. Redis keys go under a unique prefix and are deleted afterwards. Each
measurement is a part with its own time limit (`--part-timeout`): a part that fails (no
Redis server) or runs out of time is reported as skipped, with the reason.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

from parts import part

from coachloop.core.events import HumanMessage, StopEvent
from coachloop.core.verdict import Verdict
from coachloop.store import open_store
from coachloop.supervisor.writes import record_human, record_stop

STATUS = Verdict(
    "status", 0.9, "mid-work", "rules", route="continue", coaching_message="[System Coach] go on"
)
QUESTION = Verdict("question", 0.9, "asks", "rules")
SQLITE_TARGET = 2_000.0


def drive(
    target: str, prefix: str, worker: int, sessions: int, decisions: int
) -> tuple[float, float]:
    """Make `decisions` decisions over this worker's `sessions`; returns (start, end)."""
    store = open_store(target, prefix=prefix)
    text = "Running the test suite now; 14 of 40 files done. " * 4
    try:
        start = time.perf_counter()
        for i in range(decisions):
            sid = f"bench-{worker}-{i % sessions}"
            if i % 10 == 9:  # every tenth step a human reply resets the cap
                record_human(store, HumanMessage(sid, "keep going", source="chat"))
                continue
            verdict = QUESTION if i % 7 == 0 else STATUS
            event = StopEvent(
                sid, text=f"{text} step {i}", job_id=f"job-{i}", project="/bench/proj"
            )
            record_stop(store, event, verdict)
        return start, time.perf_counter()
    finally:
        store.close()


def _worker(args: tuple[str, str, int, int, int, Any, Any]) -> None:
    target, prefix, worker, sessions, decisions, barrier, results = args
    try:
        open_store(target, prefix=prefix).close()  # connect (and import) before the clock
    except Exception as exc:  # tell the parent at once instead of leaving it waiting
        barrier.abort()
        results.put(("error", f"{type(exc).__name__}: {exc}"))
        return
    barrier.wait()
    results.put(("ok", drive(target, prefix, worker, sessions, decisions)))


def run_parallel(target: str, prefix: str, workers: int, sessions: int, decisions: int) -> float:
    """Decisions per second with `workers` processes sharing `decisions` and `sessions`."""
    ctx = mp.get_context("fork")
    barrier, results = ctx.Barrier(workers), ctx.Queue()
    per = decisions // workers
    procs = [
        ctx.Process(
            target=_worker,
            args=((target, prefix, w, max(1, sessions // workers), per, barrier, results),),
        )
        for w in range(workers)
    ]
    for p in procs:
        p.start()
    spans: list[tuple[float, float]] = []
    for _ in procs:
        status, value = results.get(timeout=600)
        if status != "ok":
            for p in procs:
                p.kill()
            raise RuntimeError(value)
        spans.append(value)
    for p in procs:
        p.join()
    wall = max(e for _, e in spans) - min(s for s, _ in spans)
    return per * workers / wall


def _clean_redis(url: str, prefix: str) -> None:
    import redis

    client = redis.Redis.from_url(url)
    keys = list(client.scan_iter(match=f"{prefix}-*", count=5000))
    for i in range(0, len(keys), 5000):
        client.delete(*keys[i : i + 5000])
    client.close()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--decisions", type=int, default=10_000, help="decisions per measurement")
    ap.add_argument("--sessions", type=int, default=1_000, help="distinct sessions")
    ap.add_argument("--redis", default="redis://127.0.0.1:6379/0", help="Redis URL ('' to skip)")
    ap.add_argument("--workers", default="1,4", help="Redis worker counts to compare")
    ap.add_argument("--repeat", type=int, default=3, help="best of N runs (shared machines)")
    ap.add_argument(
        "--part-timeout", type=float, default=300.0, help="seconds each measurement may take"
    )
    args = ap.parse_args(argv)
    n: int = args.decisions
    sessions: int = args.sessions
    runs = range(max(1, args.repeat))

    def one_sqlite(db: str) -> float:
        start, end = drive(db, "", 0, sessions, n)
        return n / (end - start)

    limit: float = args.part_timeout
    rows: list[tuple[str, float]] = []
    print(f"coachloop store benchmark: {n} decisions over {sessions} sessions, best of {len(runs)}")
    with tempfile.TemporaryDirectory() as tmp:
        dbs = [str(Path(tmp) / f"bench{i}.db") for i in runs]
        one = part("SQLite, 1 process", lambda: max(one_sqlite(db) for db in dbs), limit)
        if one is not None:
            rows.append(("SQLite, 1 process", one))
        name = "SQLite, 4 processes (one file)"
        four = part(
            name, lambda: max(run_parallel(db + "-4", "", 4, sessions, n) for db in dbs), limit
        )
        if four is not None:
            rows.append((name, four))
    redis_rates: dict[int, float] = {}
    if args.redis:
        prefix = f"coachloop-bench-{uuid.uuid4().hex[:8]}"
        try:
            for w in (int(x) for x in args.workers.split(",")):
                name = f"Redis, {w} worker{'s' if w > 1 else ''}"

                def best(w: int = w) -> float:
                    return max(
                        run_parallel(args.redis, f"{prefix}-{w}-{i}", w, sessions, n) for i in runs
                    )

                rate = part(name, best, limit)
                if rate is None:
                    break  # the next worker count would fail (or hang) the same way
                redis_rates[w] = rate
                rows.append((name, rate))
        finally:
            part("Redis clean-up", lambda: _clean_redis(args.redis, prefix), 30)

    for name, rate in rows:
        print(f"  {name:<32} {rate:>10,.0f} decisions/s")
    sqlite_rate = next((rate for name, rate in rows if name == "SQLite, 1 process"), 0.0)
    ok = sqlite_rate >= SQLITE_TARGET
    print(
        f"  SQLite 1 process / target {SQLITE_TARGET:,.0f}: {sqlite_rate / SQLITE_TARGET:.1f}x"
        f" ({'ok' if ok else 'BELOW TARGET'})"
    )
    if 1 in redis_rates and len(redis_rates) > 1:
        most = max(redis_rates)
        ratio = redis_rates[most] / redis_rates[1]
        verdict = "ok" if ratio > 1 else "NOT FASTER"
        print(f"  Redis {most} workers / 1 worker: {ratio:.2f}x ({verdict})")
        ok = ok and ratio > 1
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
