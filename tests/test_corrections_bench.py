"""Corrections kept from the human's verdicts become a benchmark: `coachloop bench
--corrections` scores the judge on them (a real process on the real home store)."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

from coachloop.core.events import StopEvent
from coachloop.core.verdict import Verdict
from coachloop.supervisor import Supervisor
from coachloop.supervisor.feedback import Label, last_delivered

OLD_WRONG = Verdict("completion", 0.9, "an older judge believed the hedge", "llm")
EVIDENCED = Verdict("completion", 0.95, "evidenced", "rules")
HEDGE = "Fixed the login bug. It should work now."
DONE = "Added the export. Ran `pytest -q`: 14 passed in 0.8s. Commit 3f2a9c1."


def bench(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "coachloop", "bench", "--corrections", "--judge", "rules", *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def delivered(sup: Supervisor, sid: str, text: str, verdict: Verdict, project: Path) -> None:
    event = StopEvent(sid, text, project=str(project), cwd=str(project), timestamp=time.time())
    assert sup.on_stop(event, verdict).decision.kind == "deliver"


def test_bench_scores_the_judge_on_the_corrections_kept(tmp_path: Path) -> None:
    assert "No corrections recorded yet" in bench().stdout
    project = tmp_path / "proj"
    project.mkdir()
    sup = Supervisor.open(project)
    try:
        delivered(sup, "s-hedge", HEDGE, OLD_WRONG, project)
        delivered(sup, "s-done", DONE, EVIDENCED, project)
        for sid in ("s-hedge", "s-done"):  # the human rejected both (👎)
            stop = last_delivered(sup.reads, sid)
            assert stop is not None
            assert sup.correct(sid, stop, Label("status", "continue", "👎")) is not None
        agreeing = last_delivered(sup.reads, "s-done")
        assert agreeing is not None  # a label equal to the verdict corrects nothing
        assert sup.correct("s-done", agreeing, Label("completion", "deliver", "👍")) is None
    finally:
        sup.close()
    export = tmp_path / "corrections.jsonl"
    done = bench("--json", "--export", str(export))
    assert done.returncode == 0, done.stderr
    (report,) = json.loads(done.stdout)["files"]
    assert report["n"] == 2
    # the rules judge now sends the hedge back (right) and still delivers the evidenced
    # report the human rejected (wrong): half the routes agree with the human
    assert report["route_accuracy"] == 0.5
    rows = [json.loads(line) for line in export.read_text().splitlines()]
    assert {r["text"] for r in rows} == {HEDGE, DONE}
    assert all(r["type"] == "status" and r["route"] == "continue" for r in rows)
    assert {r["corrected"]["source"] for r in rows} == {"llm", "rules"}
