"""What reading the turn's record adds to a stop, for a 100 MB transcript and a small one.

    python benchmarks/record_bench.py                 # 200 rounds, a 100 MB transcript
    python benchmarks/record_bench.py --mb 20 --rounds 50 --check

The big transcript is real Claude Code turns (tests/data/turns/) written one after
another until it reaches the size, each with the bookkeeping lines Claude Code writes
at every model request (an API request shape of about 38 KB, as in a real transcript),
ending with the turn `pyunit-edit-after`; the small one is that turn alone. Measured,
interleaved round by round so that machine noise hits every variant alike:
- judge:            the stop judged from its message (offline rules), no record;
- judge + record:   the same, with the record read from the transcript's tail
                    (`coachloop.record.for_hook`) and the claims checked against it;
- record read:      `claude_transcript(path)` alone.
The file is in the page cache (as a transcript Claude Code just wrote is). Wall time and
this process's CPU time are both shown: on a shared machine the wall time also counts
the waits for a CPU.
Target (issue 11): judge + record minus judge <= 5 ms p50 for the 100 MB transcript.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from coachloop.core.judge_input import JudgeInput
from coachloop.judge import make_judge
from coachloop.record import claude_transcript, for_hook

DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "turns"
LAST = "pyunit-edit-after"
TARGET_MS = 5.0


def shape_line(session: str) -> bytes:
    """An `api-request-shape` line like the ones Claude Code writes (about 38 KB)."""
    shape = {"system": ["x" * 200] * 150, "tools": [{"name": f"T{i}"} for i in range(40)]}
    entry = {"type": "api-request-shape", "sessionId": session, "shape": shape}
    return json.dumps(entry, separators=(",", ":")).encode() + b"\n"


def build(path: Path, megabytes: int) -> None:
    turns = [p for p in sorted(DATA.glob("*.jsonl")) if p.name != "labels.jsonl"]
    pad = shape_line("bench")
    with path.open("wb") as out:
        size, i = 0, 0
        while size < megabytes * 1024 * 1024:
            for line in turns[i % len(turns)].read_bytes().splitlines(keepends=True):
                out.write(line)
                size += len(line)
                if b'"type":"assistant"' in line[:200] or line.startswith(b'{"type":"api-req'):
                    out.write(pad)
                    size += len(pad)
            i += 1
        out.write((DATA / f"{LAST}.jsonl").read_bytes())


def p50(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mb", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    labels = {json.loads(x)["name"]: json.loads(x) for x in (DATA / "labels.jsonl").open()}
    text = labels[LAST]["text"]
    judge = make_judge()
    with tempfile.TemporaryDirectory() as tmp:
        big = Path(tmp) / "big.jsonl"
        build(big, args.mb)
        small = DATA / f"{LAST}.jsonl"
        item = JudgeInput(text=text)
        checked = judge.judge(for_hook(item, "claude-code", str(big)))
        assert checked.route == "continue" and checked.problems[0].kind == "edited_after_run"
        cases: dict[str, Callable[[], object]] = {
            "judge": lambda: judge.judge(item),
            "judge + record (big)": lambda: judge.judge(for_hook(item, "claude-code", str(big))),
            "judge + record (small)": lambda: judge.judge(
                for_hook(item, "claude-code", str(small))
            ),
            "record read (big)": lambda: claude_transcript(str(big)),
            "record read (small)": lambda: claude_transcript(str(small)),
        }
        times: dict[str, list[float]] = {name: [] for name in cases}
        cpu: dict[str, list[float]] = {name: [] for name in cases}
        for fn in cases.values():
            fn()  # warm-up: imports, caches, the page cache
        for _ in range(args.rounds):
            for name, fn in cases.items():
                start, start_cpu = time.perf_counter(), time.process_time()
                fn()
                cpu[name].append(time.process_time() - start_cpu)
                times[name].append(time.perf_counter() - start)
        size = big.stat().st_size / 1024 / 1024
    print(f"transcript: {size:.0f} MB ({args.rounds} rounds, interleaved); in ms")
    print(f"  {'':24} {'p50':>7} {'p90':>7} {'cpu p50':>8}")
    for name, samples in times.items():
        q = statistics.quantiles(samples, n=10)
        print(f"  {name:24} {p50(samples):7.2f} {q[8] * 1000:7.2f} {p50(cpu[name]):8.2f}")
    added = p50(times["judge + record (big)"]) - p50(times["judge"])
    added_small = p50(times["judge + record (small)"]) - p50(times["judge"])
    added_cpu = p50(cpu["judge + record (big)"]) - p50(cpu["judge"])
    print(
        f"added to a stop by the record: {added:.2f} ms p50 for {size:.0f} MB "
        f"(target <= {TARGET_MS:g} ms; CPU time {added_cpu:.2f} ms), "
        f"{added_small:.2f} ms for the turn alone"
    )
    if args.check and added > TARGET_MS:
        sys.exit(1)


if __name__ == "__main__":
    main()
