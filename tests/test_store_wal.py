"""The SQLite store's WAL starts over under a steady stream of stops: its checkpoint
thread restarts it, so the committing connection's own safety checkpoint (a stop that
copies and syncs) is not what keeps it bounded."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from coachloop.core.events import StopEvent
from coachloop.core.verdict import Verdict
from coachloop.store.sqlite import SQLiteStore
from coachloop.store.sqlite_file import (
    CATCH_UP_QUIET,
    CATCH_UP_ROUNDS,
    RESTART_PAGES,
    Checkpointer,
)
from coachloop.supervisor.writes import record_stop

STATUS = Verdict("status", 0.9, "mid-work", "rules", route="continue", coaching_message="go on")


def test_the_wal_restarts_under_stops_back_to_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    restarts: list[int] = []
    restart = Checkpointer._restart

    def counted(self: Checkpointer, db: sqlite3.Connection) -> None:
        restart(self, db)
        restarts.append(1)

    monkeypatch.setattr(Checkpointer, "_restart", counted)
    path = tmp_path / "w.db"
    with SQLiteStore(path) as store:
        page = store.write(lambda db: int(db.execute("PRAGMA page_size").fetchone()[0]))
        for i in range(3000):  # over 30,000 pages written, without a pause
            text = f"step {i}: " + "the parser needs a second pass over nested lists. " * 12
            record_stop(store, StopEvent(f"s{i % 200}", text=text), STATUS)
        largest = Path(f"{path}-wal").stat().st_size // page  # the file keeps its largest
    # The checkpoint thread started the WAL over, again and again: a PASSIVE checkpoint
    # alone never catches up with a steady stream, and only the committing connection's
    # safety checkpoint (a stop that copies and syncs) would. How soon after RESTART_PAGES
    # it restarts depends on the machine's load (at most RESTART_ANYWAY frames when the
    # disk is slow): `benchmarks/lock_holds.py` and `scale.py` measure that, not a test.
    assert len(restarts) >= 2, restarts
    assert largest >= RESTART_PAGES, largest


class _Timed(Checkpointer):
    """A checkpointer whose copies take the times given (a disk busy for a while)."""

    def __init__(self, path: Path, took: list[float]) -> None:
        super().__init__(path, 1.0, threading.RLock())
        self.took, self.copies = took, 0

    def _copy(self, db: sqlite3.Connection) -> tuple[int, float]:
        self.copies += 1
        return 5000 + self.copies, self.took[min(self.copies, len(self.took)) - 1]


def test_a_restart_waits_for_a_catch_up_copy_short_enough(tmp_path: Path) -> None:
    # copies shorten as the backlog shrinks: the catch-up ends at the first short one
    settling = _Timed(tmp_path / "a.db", [0.03, 0.012, 0.006, CATCH_UP_QUIET / 2, 0.001])
    assert settling._catch_up(sqlite3.connect(":memory:")) == (5004, CATCH_UP_QUIET / 2)
    assert settling.copies == 4
    # a disk that stays slow: CATCH_UP_ROUNDS copies, then the caller decides (later, or
    # at once past RESTART_ANYWAY frames)
    slow = _Timed(tmp_path / "b.db", [0.05])
    frames, took = slow._catch_up(sqlite3.connect(":memory:"))
    assert slow.copies == CATCH_UP_ROUNDS and took == 0.05 and frames == 5000 + CATCH_UP_ROUNDS
