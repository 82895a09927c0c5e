"""How long the SQLite store's lock is held during a full maintenance pass, and by what.

    python benchmarks/lock_holds.py                     # 1M events (about 4 minutes)
    python benchmarks/lock_holds.py --events 100000 --json out.json

A stop waits for whatever holds the store's lock: a maintenance write (forget, purge,
trim), a page of the watchdog walk, or the WAL restart of the checkpoint thread. This
fills a store as `scale.py` does (`scale_maint.prefill`, synced to disk), runs one full
maintenance pass against back-to-back stops (`scale_maint.maintenance_window`), and
times each store call the pass and the stops make (wrapping the store's methods: the
time includes waiting for the lock), each WAL restart from inside the lock, and each
fsync of the checkpoint thread (outside it). Printed:
per kind, the calls, the worst and the p99 in ms; and the worst stop of the window.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from scale import _stop
from scale_maint import maintenance_window, prefill

from coachloop.store import sqlite_file
from coachloop.store.sqlite import SQLiteStore
from coachloop.supervisor import Supervisor

TIMED = ("transact", "session_page", "forget_session", "purge_forgotten", "trim_outbox",
         "trim_lifecycle", "claim")  # fmt: skip


def _timed(holds: dict[str, list[float]], name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    def call(*args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        try:
            return fn(*args, **kwargs)
        finally:
            holds[name].append((time.perf_counter() - start) * 1000)

    return call


def _restart_timed(holds: dict[str, list[float]]) -> Callable[..., None]:
    def restart(self: sqlite_file.Checkpointer, db: Any) -> None:
        with self._lock:  # the same lock and statement as `Checkpointer._restart`
            start = time.perf_counter()
            db.execute("PRAGMA wal_checkpoint(RESTART)").fetchall()
            holds["wal restart (inside the lock)"].append((time.perf_counter() - start) * 1000)

    return restart


def _p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[round((len(ordered) - 1) * 0.99)]


def measure(events: int, folder: Path) -> dict[str, Any]:
    path = folder / "holds.db"
    sids = prefill(path, events, max(100, events // 200))
    holds: dict[str, list[float]] = defaultdict(list)
    for name in TIMED:
        setattr(SQLiteStore, name, _timed(holds, name, getattr(SQLiteStore, name)))
    sqlite_file.Checkpointer._restart = _restart_timed(holds)  # type: ignore[method-assign]
    # the checkpoint thread's own fsyncs of the database file (outside the lock): a slow
    # one is the disk's answer time, which short writes may wait on too
    sqlite_file._sync = _timed(holds, "checkpoint fsync (outside the lock)", sqlite_file._sync)
    sup = Supervisor(SQLiteStore(path), snapshot_root=folder / "snapshots")
    rng = random.Random(5)
    try:
        window = maintenance_window(sup, lambda i: _stop(sup, sids, i, rng), 0.01, 300.0)
    finally:
        sup.close()
    kinds = {
        name: {"calls": len(v), "worst_ms": round(max(v), 1), "p99_ms": round(_p99(v), 2)}
        for name, v in sorted(holds.items())
        if v
    }
    return {"events": events, "window": window, "holds": kinds}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--events", type=int, default=1_000_000)
    ap.add_argument("--json", type=Path, default=None)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        report = measure(args.events, Path(tmp))
    window = report["window"]
    print(
        f"{args.events:,} events: full maintenance pass {window['maint_seconds']} s,"
        f" {window['maint_stops']:,} stops, worst stop {window['maint_worst_stop_ms']:.1f} ms"
        f" (p99 {window['maint_p99_ms']:.2f}); as long without maintenance: worst"
        f" {window['window_quiet_worst_ms']:.1f} ms"
    )
    head = "store call (time incl. waiting for the lock)"
    print(f"{head:46} {'calls':>8} {'worst':>8} {'p99':>7}")
    for name, row in report["holds"].items():
        print(f"{name:46} {row['calls']:>8,} {row['worst_ms']:>8.1f} {row['p99_ms']:>7.2f}")
    if args.json:
        args.json.write_text(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
