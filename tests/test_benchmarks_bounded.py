"""Benchmark parts are bounded: a part that fails or hangs is skipped with its reason,
and whatever it started is stopped with it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from parts import SKIPPED, part  # noqa: E402


def test_a_part_returns_its_value() -> None:
    assert part("sum", lambda: sum(range(10)), 30) == 45


def test_a_failing_part_is_skipped_with_its_reason(capsys: pytest.CaptureFixture[str]) -> None:
    def boom() -> int:
        raise ConnectionError("no server at 127.0.0.1:9")

    assert part("boom", boom, 30) is None
    assert SKIPPED[-1] == ("boom", "ConnectionError: no server at 127.0.0.1:9")
    assert "skipped  boom: ConnectionError" in capsys.readouterr().out


def test_a_hanging_part_and_its_children_are_stopped(tmp_path: Path) -> None:
    pid_file = tmp_path / "child.pid"

    def hang() -> None:
        child = subprocess.Popen(["sleep", "60"])
        pid_file.write_text(str(child.pid))
        child.wait()

    started = time.monotonic()
    assert part("hang", hang, 1.5) is None
    assert time.monotonic() - started < 15
    assert SKIPPED[-1] == ("hang", "did not finish within 1.5 s (stopped)")
    pid = int(pid_file.read_text())
    for _ in range(50):  # the grandchild is killed with the part's process group
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.1)
    else:
        pytest.fail(f"the part's child {pid} still runs")


def test_store_bench_without_redis_reports_the_skip_and_ends() -> None:
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "benchmarks" / "store_bench.py"),
            "--decisions",
            "200",
            "--sessions",
            "20",
            "--repeat",
            "1",
            "--redis",
            "redis://127.0.0.1:9/0",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert "skipped  Redis, 1 worker:" in done.stdout and "cannot reach Redis" in done.stdout
    assert "SQLite, 1 process" in done.stdout
    assert "Traceback" not in done.stdout + done.stderr


def test_scale_runs_a_full_maintenance_pass_against_stops(tmp_path: Path) -> None:
    """scale.py's maintenance window covers one whole pass: every kind of step ran and
    all the work the prefill made due was done, while stops went on."""
    out = tmp_path / "scale.json"
    args = ["--levels", "2000", "--stops", "50", "--rate", "100", "--rss-stops", "0"]
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "scale.py"), *args, "--json", str(out)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    (row,) = json.loads(out.read_text())["levels"]
    assert row["maint_complete"] and row["maint_stops"] > 0
    # the empty store's stops alternate with the level's: its own p50, from the same blocks
    assert row["p50_vs_empty"] == round(row["stop_p50_ms"] / row["empty_p50_ms"], 2)
    assert all(n >= 1 for n in row["maint_kind_steps"].values()), row["maint_kind_steps"]
    rows, due = row["maint_kind_rows"], row["due_per_kind"]
    sessions = min(due, row["sessions"] // 5)  # each kind of due session
    assert rows["records"] == rows["outbox"] == due
    assert rows["forget"] == rows["abandon"] == sessions
    assert rows["alert"] == 2 * sessions  # the abandoned ones and the silent ones
    assert rows["files"] == 50
