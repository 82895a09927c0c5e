"""What one stop costs the SQLite store in WAL pages: every index on a row a stop writes
is a page or two more in its commit (and in the checkpoints that copy it back), so the
count is pinned here, measured the way scale.py's decisions/s stops are made."""

from __future__ import annotations

import random
import sqlite3
import time
from pathlib import Path

from coachloop.core.events import StopEvent
from coachloop.core.verdict import Verdict
from coachloop.store.sqlite import SQLiteStore
from coachloop.supervisor import Supervisor

STATUS = Verdict("status", 0.9, "mid-work", "rules", route="continue", coaching_message="go on")
ASK = Verdict("question", 0.9, "asks", "rules")
TEXT = "Running the migration now; 14 of 40 files done, the parser needs a second pass. " * 6


def _stops(sup: Supervisor, sids: list[str], n: int, rng: random.Random) -> None:
    for i in range(n):
        event = StopEvent(rng.choice(sids), text=f"{TEXT} step {i}", agent="claude-code")
        sup.on_stop(event, ASK if i % 7 == 0 else STATUS)


def test_a_stop_writes_few_pages(tmp_path: Path) -> None:
    path = tmp_path / "pages.db"
    sids = [f"s-{i}" for i in range(200)]
    sup = Supervisor(SQLiteStore(path))
    try:
        _stops(sup, sids, 1000, random.Random(1))
        # A reader holding a snapshot that reads the WAL keeps it from starting over:
        # every page the stops commit is appended to it, whatever the checkpoints copy.
        reader = sqlite3.connect(path, isolation_level=None, timeout=10)
        deadline = time.monotonic() + 10
        while (got := reader.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()) != (0, 0, 0):
            assert time.monotonic() < deadline, got  # busy: the store's thread is copying
            time.sleep(0.01)
        _stops(sup, sids, 1, random.Random(3))
        reader.execute("BEGIN")
        reader.execute("SELECT count(*) FROM sessions").fetchone()
        page = int(reader.execute("PRAGMA page_size").fetchone()[0])
        wal = Path(f"{path}-wal")
        before = wal.stat().st_size
        _stops(sup, sids, 500, random.Random(2))
        frames = (wal.stat().st_size - before) / (page + 24)  # a frame: header and page
        reader.execute("COMMIT")
        reader.close()
    finally:
        sup.close()
    # 11.93 pages a stop before migration 0014 (two indexes moved by each session
    # update), 10.51 before 0015 (a stop's JSON repeated its row's columns: more new pages)
    assert frames / 500 < 10.45, frames / 500


def test_a_session_update_moves_one_index_entry(tmp_path: Path) -> None:
    path = tmp_path / "idx.db"
    SQLiteStore(path).close()
    db = sqlite3.connect(path)
    indexes = {
        r[1]: [c[2] for c in db.execute(f"PRAGMA index_info({r[1]})")]
        for r in db.execute("PRAGMA index_list(sessions)")
        if r[3] == "c"  # created by the schema, not the primary key's own
    }
    plan = db.execute(
        "EXPLAIN QUERY PLAN SELECT state FROM sessions WHERE +project = ?"
        " ORDER BY updated_at DESC, session_id DESC LIMIT 20",
        ("/p",),
    ).fetchall()
    db.close()
    # sessions_by_project (0016) is not moved: a stop's UPDATE names the project only when
    # it changes (the page count above holds it)
    assert indexes == {
        "sessions_recent": ["updated_at", "session_id", "project"],
        "sessions_by_project": ["project"],
    }
    assert "sessions_recent" in str(plan) and "TEMP B-TREE" not in str(plan)
