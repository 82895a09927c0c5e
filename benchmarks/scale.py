"""A million events without a slow stop: the figures of issue 16, from one run.

    python benchmarks/scale.py                          # 10k, 100k, 1M events; RSS over 50k stops
    python benchmarks/scale.py --levels 10000,100000 --rss-stops 10000 --json out.json

Per level (events; sessions = events / 10), a SQLite store is pre-filled fast through its
own schema (`dashboard_fill.fill`, plus one lifecycle record per stop, packed as the
supervisor packs them), then, with the supervisor the daemon uses (`Supervisor.on_stop`:
one transaction with the stop's lifecycle record; the judge's own time is not included):
- per-stop p50/p99 over `--stops` stops on existing sessions, and the ratio to an empty
  store measured in the same run;
- the worst single stop (and p99) while maintenance is due: a background thread runs the
  daemon's upkeep (`Supervisor.maintain` steps, the watchdog walk always due: alerts,
  abandoned and forgotten sessions, retention deletes) while the stops are made;
- `coachloop sessions` (first page) and `coachloop show` of a 1,000-stop session, in
  process (what the command does after its imports);
- bytes on disk per event, all included (database, WAL, lifecycle records; no files);
- decisions per second with the lifecycle record, one process, on an empty store.
Then daemon memory: a fresh process handles `--rss-stops` Claude Code stops of as many
new sessions through `coachloop.agents.hook.handle` (the daemon's own path, offline
judge included), on SQLite and on Redis, and prints its RSS after 5k stops and at the end.
Targets (issue 16): at 1M events no stop over 50 ms while maintenance runs, p50 within
1.5x of an empty store, `sessions` first page under 300 ms, under 3 KB per event;
>= 5,000 decisions/s; RSS within 10 % from 5k to 50k stops.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from dashboard_fill import LONG_ID, fill

from coachloop.core.events import StopEvent
from coachloop.core.verdict import Verdict
from coachloop.snapshot_pack import pack
from coachloop.store.sqlite import SQLiteStore
from coachloop.supervisor import Supervisor

STATUS = Verdict("status", 0.9, "mid-work", "rules", route="continue", coaching_message="go on")
ASK = Verdict("question", 0.9, "asks", "rules")
TEXT = "Running the migration now; 14 of 40 files done, the parser needs a second pass. " * 6


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round((len(ordered) - 1) * q / 100))]


def _prefill(path: Path, events: int) -> float:
    """The store at `path`: `events` events over `events // 10` sessions, and one
    lifecycle record per stop (a typical record, packed once)."""
    started = time.perf_counter()
    fill(path, sessions=max(events // 10, 2), events=events, long_stops=1000)
    blob = pack(
        "bench",
        "auto_continue",
        {"stop": {"text": TEXT}, "verdict": {"type": "status"}, "state": {"status": "running"}},
        time.time(),
    )
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA synchronous = OFF")
    db.execute(
        "INSERT INTO lifecycle (session_id, event_id, label, saved_at, body)"
        " SELECT session_id, id, 'auto_continue', ts, ? FROM events WHERE kind = 'stop'",
        (blob,),
    )
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    return time.perf_counter() - started


def _stops(sup: Supervisor, sids: list[str], n: int, rng: random.Random) -> list[float]:
    out = []
    for i in range(n):
        event = StopEvent(rng.choice(sids), text=f"{TEXT} step {i}", agent="claude-code")
        start = time.perf_counter()
        sup.on_stop(event, ASK if i % 7 == 0 else STATUS)
        out.append((time.perf_counter() - start) * 1000)
    return out


class _Upkeep(threading.Thread):
    """The daemon's upkeep loop (`coachloop.server.upkeep`) on one supervisor."""

    def __init__(self, sup: Supervisor) -> None:
        super().__init__(daemon=True)
        self.sup, self.stop, self.steps, self.worst = sup, threading.Event(), 0, 0.0

    def run(self) -> None:
        while not self.stop.is_set():
            start = time.perf_counter()
            self.sup.maintain()
            self.worst = max(self.worst, (time.perf_counter() - start) * 1000)
            self.steps += 1
            self.stop.wait(0.05 if self.sup.maintaining else 1.0)


def _cli_ms(args: list[str]) -> float:
    from click.testing import CliRunner

    from coachloop.cli import cli

    start = time.perf_counter()
    result = CliRunner().invoke(cli, args)
    elapsed = (time.perf_counter() - start) * 1000
    assert result.exit_code == 0, result.output[-500:]
    return elapsed


def _disk(path: Path) -> int:
    return sum(p.stat().st_size for p in path.parent.glob(path.name + "*"))


def level(events: int, folder: Path, stops: int, baseline: float | None) -> dict[str, Any]:
    """Every per-level figure for a store of `events` events."""
    path = folder / f"scale-{events}.db"
    took = _prefill(path, events)
    rng = random.Random(events)
    with sqlite3.connect(path) as db:
        sids = [r[0] for r in db.execute("SELECT session_id FROM sessions")]
    out: dict[str, Any] = {"events": events, "sessions": len(sids), "fill_s": round(took, 1)}
    out["bytes_per_event"] = round(_disk(path) / events)
    sup = Supervisor(SQLiteStore(path), watchdog_interval=0.0, cleanup_interval=0.0)
    try:
        quiet = _stops(sup, sids, stops, rng)
        out["stop_p50_ms"], out["stop_p99_ms"] = _pct(quiet, 50), _pct(quiet, 99)
        out["quiet_worst_stop_ms"] = max(quiet)  # the machine's own noise, for comparison
        if baseline:
            out["p50_vs_empty"] = round(out["stop_p50_ms"] / baseline, 2)
        upkeep = _Upkeep(sup)
        upkeep.start()
        busy = _stops(sup, sids, stops, rng)
        upkeep.stop.set()
        upkeep.join()
        out["maint_worst_stop_ms"] = max(busy)
        out["maint_p99_ms"] = _pct(busy, 99)
        out["maint_steps"], out["maint_worst_step_ms"] = upkeep.steps, upkeep.worst
    finally:
        sup.close()
    _cli_ms(["sessions", "--store", str(path), "--limit", "1"])  # the command's own imports
    out["sessions_page_ms"] = _cli_ms(["sessions", "--store", str(path)])
    out["show_1000_ms"] = _cli_ms(["show", LONG_ID, "--store", str(path)])
    path.unlink()
    for extra in folder.glob(path.name + "-*"):
        extra.unlink()
    return out


def decisions_per_second(folder: Path, n: int, life: bool) -> float:
    """Decisions/s on a fresh store, with or without the lifecycle records."""
    sup = Supervisor(SQLiteStore(folder / f"rate-{life}.db"), snapshots_on=life)
    sids = [f"rate-{i}" for i in range(200)]
    try:
        _stops(sup, sids, 200, random.Random(1))  # warm: sessions exist
        start = time.perf_counter()
        _stops(sup, sids, n, random.Random(2))
        return n / (time.perf_counter() - start)
    finally:
        sup.close()


def rss_worker(stops: int) -> None:
    """Handle `stops` Claude Code stops of new sessions; print RSS (KiB) at 5k and at the end."""
    from coachloop.agents.hook import handle

    def rss() -> int:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        return 0

    cwd = os.getcwd()
    marks = {}
    for i in range(1, stops + 1):
        payload = {
            "session_id": f"rss-{i}",
            "hook_event_name": "Stop",
            "cwd": cwd,
            "last_assistant_message": f"Which database should I use for step {i}?",
        }
        handle("claude-code", json.dumps(payload).encode())
        if i in (min(5000, stops), stops):
            marks[i] = rss()
    print(json.dumps(marks))


def rss(store: str, stops: int, folder: Path) -> dict[str, int]:
    home = folder / f"home-{uuid.uuid4().hex[:6]}"
    home.mkdir()
    env = {**os.environ, "COACHLOOP_HOME": str(home), "COACHLOOP_STORE": store}
    env["COACHLOOP_REDIS_PREFIX"] = f"coachloop-scale-{uuid.uuid4().hex[:8]}"
    cmd = [sys.executable, __file__, "--rss-worker", str(stops)]
    try:
        done = subprocess.run(cmd, env=env, cwd=home, capture_output=True, text=True, check=True)
    finally:
        if store.startswith("redis"):
            _clean_redis(store, env["COACHLOOP_REDIS_PREFIX"])
    return {k: int(v) for k, v in json.loads(done.stdout.splitlines()[-1]).items()}


def _clean_redis(url: str, prefix: str) -> None:
    import redis

    client = redis.Redis.from_url(url)
    keys = list(client.scan_iter(match=f"{prefix}:*", count=5000))
    for i in range(0, len(keys), 5000):
        client.delete(*keys[i : i + 5000])
    client.close()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--levels", default="10000,100000,1000000", help="events per level")
    ap.add_argument("--stops", type=int, default=300, help="timed stops per measurement")
    ap.add_argument("--rate", type=int, default=3000, help="decisions for decisions/s")
    ap.add_argument("--rss-stops", type=int, default=50_000, help="0 skips the RSS runs")
    ap.add_argument("--redis", default="redis://127.0.0.1:6379/0", help="'' skips Redis")
    ap.add_argument("--json", type=Path, default=None, help="also write the figures here")
    ap.add_argument("--rss-worker", type=int, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.rss_worker:
        rss_worker(args.rss_worker)
        return 0
    report: dict[str, Any] = {"levels": []}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        empty = level_empty(folder, args.stops)
        report["empty_stop_p50_ms"] = empty
        for events in (int(x) for x in args.levels.split(",") if x):
            report["levels"].append(level(events, folder, args.stops, empty))
            _print_level(report["levels"][-1])
        with_life, without = [], []
        for _ in range(3):  # interleaved: machine load hits both alike; best of 3
            with_life.append(decisions_per_second(folder, args.rate, True))
            without.append(decisions_per_second(folder, args.rate, False))
        report["decisions_per_s"] = round(max(with_life))
        report["decisions_per_s_no_lifecycle"] = round(max(without))
        share = 1 - max(with_life) / max(without)
        report["lifecycle_share_of_decision"] = round(share, 3)
        print(
            f"SQLite decisions/s, one process: {report['decisions_per_s']:,} with the lifecycle"
            f" record, {report['decisions_per_s_no_lifecycle']:,} without"
            f" (the record costs {share * 100:.1f} % of a decision's time)"
        )
        if args.rss_stops:
            stores = {"sqlite": ""} | ({"redis": args.redis} if args.redis else {})
            for name, target in stores.items():
                marks = rss(target, args.rss_stops, folder)
                first, last = marks[str(min(5000, args.rss_stops))], marks[str(args.rss_stops)]
                report[f"rss_{name}_kib"] = marks
                print(
                    f"daemon RSS on {name}: {first} KiB at 5k stops, {last} KiB at "
                    f"{args.rss_stops:,} ({(last / first - 1) * 100:+.1f} %)"
                )
    if args.json:
        args.json.write_text(json.dumps(report, indent=1))
    print(json.dumps(report))
    return 0


def level_empty(folder: Path, stops: int) -> float:
    """Per-stop p50 on an empty store (the sessions are made by the first stops)."""
    sup = Supervisor(SQLiteStore(folder / "empty.db"))
    try:
        sids = [f"empty-{i}" for i in range(100)]
        _stops(sup, sids, 100, random.Random(3))
        p50 = _pct(_stops(sup, sids, stops, random.Random(4)), 50)
    finally:
        sup.close()
    print(f"empty store: per-stop p50 {p50:.2f} ms")
    return p50


def _print_level(row: dict[str, Any]) -> None:
    print(
        f"{row['events']:>9,} events {row['sessions']:>7,} sessions (filled in {row['fill_s']} s)"
        f" | stop p50 {row['stop_p50_ms']:.2f} ms (x{row.get('p50_vs_empty', 0):.2f} empty)"
        f" p99 {row['stop_p99_ms']:.2f} worst {row['quiet_worst_stop_ms']:.1f}"
        f" | maintenance due: worst stop "
        f"{row['maint_worst_stop_ms']:.1f} ms, p99 {row['maint_p99_ms']:.2f} "
        f"({row['maint_steps']} steps, worst step {row['maint_worst_step_ms']:.1f} ms)"
        f" | sessions {row['sessions_page_ms']:.0f} ms, show {row['show_1000_ms']:.0f} ms"
        f" | {row['bytes_per_event']:,} B/event",
        flush=True,
    )


if __name__ == "__main__":
    sys.exit(main())
