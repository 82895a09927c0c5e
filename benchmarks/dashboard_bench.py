"""Dashboard server time on a big store: 10,000 sessions, 1,000,000 events (by default).

    python benchmarks/dashboard_bench.py [--sessions N] [--events N] [--store PATH] [--runs N]

Fills a SQLite store fast (`dashboard_fill.py`; kept and reused when `--store` names an
existing file), then times `Dashboard.handle()` in this process (SQL, building, redaction
and Jinja2 rendering: everything the server does for a page but the socket write) for the
sessions list, filtered and deep pages, a timeline of a 1,000-stop session (its first page
of 100, and all 1,000 on one page), the counts page, and one live-stream poll. Prints
the first run (cold caches: the redaction cache, SQLite's own), the median and the slowest
of `--runs` runs per page against the 300 ms target (judged on the median).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from dashboard_fill import LONG_ID, fill
from parts import part

from coachloop.dashboard import make_dashboard
from coachloop.dashboard.app import Dashboard
from coachloop.dashboard.data import open_data
from coachloop.dashboard.web import Request
from coachloop.store import open_store

TARGET_MS = 300.0
PAGES = (
    ("sessions, page 1", "/"),
    ("sessions, page 100", "/?page=100"),
    ("sessions, status=capped", "/?status=capped"),
    ("sessions, agent+status", "/?agent=codex&status=working"),
    ("timeline 1,000 stops, page 1 (100)", f"/session/{LONG_ID}"),
    ("timeline 1,000 stops, all on one page", f"/session/{LONG_ID}?limit=1000"),
    ("counts, 14 days (kept up to date)", "/stats"),
)


def timed(dash: Dashboard, target: str) -> tuple[float, int]:
    request = Request.parse("GET", target, {"Host": "127.0.0.1:8787"})
    started = time.perf_counter()
    response = dash.handle(request)
    elapsed = (time.perf_counter() - started) * 1000
    assert response.status == 200, (target, response.status, response.body[:300])
    return elapsed, len(response.body)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sessions", type=int, default=10_000)
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--store", type=Path, default=None, help="reuse or create this file")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--fill-timeout", type=float, default=3600.0, help="seconds to fill")
    parser.add_argument("--part-timeout", type=float, default=600.0, help="seconds for pages")
    args = parser.parse_args()
    folder = None
    path = args.store
    if path is None:
        folder = tempfile.TemporaryDirectory(prefix="coachloop-dash-bench-")
        path = Path(folder.name) / "store.db"
    if path.exists():
        print(f"store: {path} (reused)")
    else:
        seconds = part("fill", lambda: fill(path, args.sessions, args.events), args.fill_timeout)
        if seconds is None:
            return
        print(f"store: {path} filled in {seconds:.1f} s")
    part("pages", lambda: pages(path, args), args.part_timeout)
    if folder is not None:
        folder.cleanup()


def pages(path: Path, args: argparse.Namespace) -> None:
    """Time each page on the store at `path` (run as one bounded part)."""
    with open_store(str(path)) as store:  # runs the migrations (indexes) once
        sessions = len(store.list_sessions())
    size = path.stat().st_size / 2**20
    print(f"{sessions} sessions, {args.events} events, {size:.0f} MiB; load {os.getloadavg()}")

    cold = open_data(open_store(str(path)))
    started = time.perf_counter()
    cold.counts(14)
    print(f"counts, 14 days, first computation: {(time.perf_counter() - started) * 1000:.0f} ms")
    cold.close()

    dash = make_dashboard(token=None, port=8787, host="127.0.0.1", store=str(path))
    timed(dash, "/stats")  # waits for the background warm-up: pages are timed alone
    head = f"{'page':<40} {'first':>8} {'median':>8} {'slowest':>8} {'size':>9}"
    print(f"\n{head}  target {TARGET_MS:.0f} ms")
    for label, target in PAGES:
        runs = [timed(dash, target) for _ in range(args.runs)]
        times = [t for t, _ in runs]
        median = statistics.median(times)
        verdict = "ok" if median < TARGET_MS else "OVER"
        size = runs[0][1] / 1024
        print(
            f"{label:<40} {times[0]:7.0f}ms {median:7.0f}ms {max(times):7.0f}ms {size:7.0f}KiB"
            f"  {verdict}"
        )
    data = dash.data
    mark = data.mark()
    polls = []
    for _ in range(args.runs):
        started = time.perf_counter()
        data.changed(mark, 500)
        polls.append((time.perf_counter() - started) * 1000)
    label = "live poll, nothing new"
    print(f"{label:<40} {polls[0]:7.2f}ms {statistics.median(polls):7.2f}ms {max(polls):7.2f}ms")
    dash.close()


if __name__ == "__main__":
    main()
