"""Forgetting idle sessions in bounded steps: the session goes at once, its rows in batches
across maintenance steps, and a stop that comes meanwhile starts a new session that never
sees (nor loses) a row of the old one."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

from coachloop.core.events import HumanMessage, StopEvent
from coachloop.core.verdict import Verdict
from coachloop.store.base import UnknownSession
from coachloop.store.sqlite import SQLiteStore
from coachloop.supervisor import Supervisor, maintenance, watchdog
from coachloop.supervisor.writes import record_stop

STATUS = Verdict("status", 0.9, "mid-work", "rules", route="continue", coaching_message="go")
ASK = Verdict("question", 0.9, "asks", "rules")
T0 = 1_900_000_000.0
DAY = 86_400.0


def _rows(path: Path, session_id: str) -> dict[str, int]:
    with sqlite3.connect(path) as db:
        return {
            table: db.execute(
                f"SELECT count(*) FROM {table} WHERE session_id = ?", (session_id,)
            ).fetchone()[0]
            for table in ("events", "lifecycle", "outbox", "forgotten")
        }


def test_a_big_session_is_forgotten_at_once_and_purged_in_batches_across_steps(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(maintenance, "PURGE_SECONDS", 0.0)  # one batch a step
    path = tmp_path / "f.db"
    clock = [T0]
    sup = Supervisor(SQLiteStore(path), snapshot_root=tmp_path / "s", clock=lambda: clock[0])
    try:
        sup.on_human(HumanMessage("old", "build it"))  # a record in the lifecycle table
        for i in range(120):
            sup.on_stop(StopEvent("old", text=f"step {i}", timestamp=T0), STATUS)
        for i in range(3):
            sup.on_stop(StopEvent("old", text=f"Which DB {i}?", timestamp=T0), ASK)
        pending = sup.reads.outbox_pending(1000)
        for entry in pending[:-1]:
            sup.mark_sent(entry.id, T0)  # delivered: purged; the last stays pending
        before = _rows(path, "old")
        assert before["events"] == 124 and before["lifecycle"] >= 1
        assert before["outbox"] == len(pending) > 1
        clock[0] = T0 + 31 * DAY
        sup.on_stop(StopEvent("recent", text="working", timestamp=clock[0]), STATUS)

        steps = [sup.maintain(budget=200)]  # the walk: "old" forgotten, one batch purged
        assert steps[0].stale is not None and steps[0].stale.forgotten == ["old"]
        assert 0 < steps[0].purged <= maintenance.TRIM_BATCH
        with pytest.raises(UnknownSession):
            sup.reads.get_session("old")
        assert _rows(path, "old")["events"] > 0  # the rest waits for later steps

        # a stop for the same id meanwhile: a new session, none of the old one's rows
        sup.on_stop(StopEvent("old", text="back again", timestamp=clock[0]), STATUS)
        fresh = sup.reads.get_session("old")
        assert fresh.stops == 1 and fresh.created_at == clock[0]
        assert [e.text for e in sup.reads.timeline("old")] == ["back again"]
        assert [x.event_id for x in sup.reads.lifecycle("old")] == [
            e.id for e in sup.reads.timeline("old")
        ]

        while sup.maintaining:
            steps.append(sup.maintain(budget=200))
        purged = [s.purged for s in steps if s.purged]
        assert len(purged) >= 3 and max(purged) <= maintenance.TRIM_BATCH
        assert sum(purged) >= 124  # with the records and delivered rows not trimmed before
        left = _rows(path, "old")  # the new session's stop; outbox rows: the pending ones
        assert left["events"] == 1 and left["lifecycle"] == left["forgotten"] == 0
        waiting = [e.id for e in sup.reads.outbox_pending(1000) if e.session_id == "old"]
        assert left["outbox"] == len(waiting) and pending[-1].id in waiting
        assert [e.text for e in sup.reads.timeline("old")] == ["back again"]
        assert len(sup.reads.lifecycle("old")) == 1
        assert sup.reads.get_session("recent").stops == 1
    finally:
        sup.close()


def test_a_session_a_stop_came_to_after_the_walk_read_it_is_not_forgotten(
    tmp_path: Path,
) -> None:
    clock = [T0]
    sup = Supervisor(SQLiteStore(tmp_path / "r.db"), clock=lambda: clock[0])
    try:
        sup.on_stop(StopEvent("idle", text="working", timestamp=T0), STATUS)
        clock[0] = T0 + 31 * DAY
        page = sup.reads.session_page(10)  # what the walk read: idle for 31 days
        sup.on_stop(StopEvent("idle", text="back", timestamp=clock[0]), STATUS)
        report = watchdog.sweep(sup, page, clock[0])
        assert report.forgotten == []
        assert [e.text for e in sup.reads.timeline("idle")] == ["working", "back"]
    finally:
        sup.close()


def test_forget_session_only_while_idle(store_spec: Any) -> None:
    store = store_spec.open()
    try:
        record_stop(store, StopEvent("s1", text="working", timestamp=T0), STATUS)
        updated = store.get_session("s1").updated_at
        assert store.forget_session("s1", updated - 1) is False  # changed since
        assert store.timeline("s1")
        assert store.forget_session("s1", updated) is True
        with pytest.raises(UnknownSession):
            store.get_session("s1")
        assert store.forget_session("s1", updated) is False  # nothing left to forget
        while store.purge_forgotten(1):
            pass
        assert store.purge_forgotten(10) == 0
    finally:
        store.close()


class _SlowDisk(SQLiteStore):
    """The real store on a disk where each purged row costs `per_row` seconds more (a
    busy disk, secure_delete, rows with big records): what `_purge` sizes its writes to."""

    def __init__(self, path: Path, per_row: float) -> None:
        super().__init__(path)
        self.per_row = per_row
        self.asked: list[int] = []

    def purge_forgotten(self, limit: int = 1000) -> int:
        self.asked.append(limit)
        gone = super().purge_forgotten(limit)
        time.sleep(gone * self.per_row)
        return gone


@pytest.mark.parametrize("per_row", [0.0, 0.002])
def test_purge_writes_are_sized_to_the_time_a_row_takes(tmp_path: Path, per_row: float) -> None:
    store = _SlowDisk(tmp_path / "p.db", per_row)
    sup = Supervisor(store, snapshot_root=tmp_path / "s", clock=lambda: T0 + 31 * DAY)
    try:
        for i in range(300):
            record_stop(store, StopEvent("old", text=f"step {i}", timestamp=T0), STATUS)
        assert store.forget_session("old", T0 + DAY)
        while sup.maintaining:
            sup.maintain(budget=200)
        assert _rows(tmp_path / "p.db", "old")["events"] == 0  # all of it, in the end
        writes = store.asked[1:]  # after the first, each sized by the one before
        if per_row:  # 2 ms a row: batches of PURGE_MIN, each write ~10 ms, not 50 rows' 100
            assert writes and max(writes) == maintenance.PURGE_MIN
        else:  # rows cost little: the batch grows to TRIM_BATCH
            assert max(writes) == maintenance.TRIM_BATCH
    finally:
        sup.close()
