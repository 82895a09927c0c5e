"""`sessions` pages newest first, `show` pages long timelines and exports lifecycle records."""

from __future__ import annotations

import json
import time
from pathlib import Path

from click.testing import CliRunner

from coachloop.cli import cli
from coachloop.core.events import StopEvent
from coachloop.core.verdict import Verdict
from coachloop.store.sqlite import SQLiteStore
from coachloop.supervisor import Supervisor

STATUS = Verdict("status", 0.9, "mid-work", "rules", route="continue", coaching_message="go")
ASK = Verdict("question", 0.9, "asks", "rules")


def test_sessions_shows_the_newest_page_and_says_there_is_more(tmp_path: Path) -> None:
    db = tmp_path / "c.db"
    now = time.time()
    sup = Supervisor(SQLiteStore(db))
    for i in range(30):
        sup.on_stop(StopEvent(f"sess-{i:02d}", text="Which DB?", timestamp=now - 100 + i), ASK)
    sup.close()
    runner = CliRunner()
    out = runner.invoke(cli, ["sessions", "--store", str(db), "--json", "--limit", "5"])
    assert out.exit_code == 0, out.output
    shown = [r["session"] for r in json.loads(out.output)["sessions"]]
    assert shown == [f"sess-{i:02d}" for i in range(29, 24, -1)]
    table = runner.invoke(cli, ["sessions", "--store", str(db)])
    assert table.exit_code == 0 and "sess-29" in table.output and "sess-09" not in table.output
    assert "the newest 20 shown" in table.output
    every = runner.invoke(cli, ["sessions", "--store", str(db), "--json", "--limit", "0"])
    assert len(json.loads(every.output)["sessions"]) == 30


def test_show_pages_a_long_timeline_and_exports_snapshots(tmp_path: Path) -> None:
    db = tmp_path / "c.db"
    sup = Supervisor(SQLiteStore(db))
    for i in range(120):
        sup.on_stop(StopEvent("long", text=f"step {i}", timestamp=1_800_000_000.0 + i), STATUS)
    sup.close()
    runner = CliRunner()
    out = runner.invoke(cli, ["show", "long", "--store", str(db)])
    assert out.exit_code == 0, out.output
    assert "step 119" in out.output and "step 19\n" not in out.output and "step 20\n" in out.output
    assert "older events not shown: the last 100" in out.output
    every = runner.invoke(cli, ["show", "long", "--store", str(db), "--all"])
    assert "step 0\n" in every.output and "older events" not in every.output
    folder = tmp_path / "snaps"
    short = runner.invoke(
        cli, ["show", "long", "--store", str(db), "--limit", "2", "--snapshot", str(folder)]
    )
    assert short.exit_code == 0 and "Wrote 120 lifecycle record(s)" in short.output
    files = sorted(folder.iterdir())
    assert len(files) == 120 and json.loads(files[-1].read_text())["stop"]["text"] == "step 119"
