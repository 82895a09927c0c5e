"""The SQLite store's WAL starts over under a steady stream of stops, before the
committing connection's own safety checkpoint (a stop that copies and syncs) is due."""

from __future__ import annotations

from pathlib import Path

from coachloop.core.events import StopEvent
from coachloop.core.verdict import Verdict
from coachloop.store.sqlite import SQLiteStore
from coachloop.store.sqlite_file import RESTART_PAGES, SAFETY_PAGES
from coachloop.supervisor.writes import record_stop

STATUS = Verdict("status", 0.9, "mid-work", "rules", route="continue", coaching_message="go on")


def test_the_wal_restarts_under_stops_back_to_back(tmp_path: Path) -> None:
    path = tmp_path / "w.db"
    with SQLiteStore(path) as store:
        page = store.write(lambda db: int(db.execute("PRAGMA page_size").fetchone()[0]))
        for i in range(3000):  # over 30,000 pages written, without a pause
            text = f"step {i}: " + "the parser needs a second pass over nested lists. " * 12
            record_stop(store, StopEvent(f"s{i % 200}", text=text), STATUS)
        largest = Path(f"{path}-wal").stat().st_size // page  # the file keeps its largest
    # started over soon after RESTART_PAGES by the checkpoint thread, not grown to
    # SAFETY_PAGES for a stop's commit to copy and sync
    assert RESTART_PAGES <= largest < SAFETY_PAGES, largest
