"""A session id used again while a forgotten session's rows wait for their purge: the new
session shows none of the old one's rows anywhere (the store's reads, the dashboard's own
queries), and a stop racing the forgetting itself is never lost (the real Redis too)."""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import redis

from coachloop.core.events import HumanMessage, StopEvent
from coachloop.core.verdict import Verdict
from coachloop.dashboard.data import open_data
from coachloop.dashboard.views import Filters
from coachloop.store import UnknownSession
from coachloop.store.redis_store import RedisStore
from coachloop.store.sqlite import SQLiteStore
from coachloop.supervisor import Supervisor, watchdog
from coachloop.supervisor.writes import record_stop

STATUS = Verdict("status", 0.9, "mid-work", "rules", route="continue", coaching_message="go")
ASK = Verdict("question", 0.9, "asks which database", "rules")
T0 = 1_900_000_000.0
DAY = 86_400.0


def test_the_dashboard_shows_none_of_a_forgotten_sessions_rows_left_to_purge(
    tmp_path: Path,
) -> None:
    path = tmp_path / "d.db"
    clock = [T0]
    sup = Supervisor(SQLiteStore(path), snapshot_root=tmp_path / "s", clock=lambda: clock[0])
    data = open_data(SQLiteStore(path))
    try:
        sup.on_human(HumanMessage("old", "build it"))
        for i in range(3):
            sup.on_stop(StopEvent("old", text=f"Which DB {i}?", timestamp=T0), ASK)
        old_ids = [e.id for e in sup.reads.timeline("old")]
        old_head = data.timeline("old", before=None, limit=50).header
        assert old_head.snapshots and old_head.row.verdict_type == "question"
        clock[0] = T0 + 31 * DAY
        assert sup.forget("old", clock[0] - 30 * DAY)  # its rows wait for the purge
        assert [r.session_id for r in data.sessions(Filters(), offset=0, limit=9).rows] == []

        # the same id again, no stop yet: a new session, nothing of the old one shown
        sup.on_human(HumanMessage("old", "a new task"))
        new_ids = [e.id for e in sup.reads.timeline("old")]
        assert new_ids and not set(new_ids) & set(old_ids)
        page = data.sessions(Filters(), offset=0, limit=9)
        assert [(r.session_id, r.verdict_type, r.stops) for r in page.rows] == [("old", None, 0)]
        tl = data.timeline("old", before=None, limit=50)
        assert [i.id for i in tl.items] == list(reversed(new_ids))
        assert tl.header.row.verdict_type is None
        assert not set(old_head.snapshots) & set(tl.header.snapshots)
        assert [i.id for i in data.items_after("old", 0, 50)] == new_ids
        for eid in old_ids:
            with pytest.raises(UnknownSession):
                data.item("old", eid)
        for name in old_head.snapshots:
            assert data.snapshot("old", name) is None
        assert data.item("old", new_ids[0]).id == new_ids[0]
    finally:
        data.close()
        sup.close()


class _StopAfterTouch(redis.Redis):
    """A real Redis client that runs one stop of `other` right after the first command
    naming `watched` (the key of the session's state) returns."""

    watched = ""
    other: RedisStore | None = None

    def execute_command(self, *args: Any, **options: Any) -> Any:
        out = super().execute_command(*args, **options)  # type: ignore[no-untyped-call]
        names = [a.decode() if isinstance(a, bytes) else a for a in args]
        if self.other is not None and self.watched in names:
            racing, self.other = self.other, None
            record_stop(racing, StopEvent("idle", text="back", timestamp=T0 + 40 * DAY), STATUS)
        return out


@pytest.mark.parametrize("store_spec", ["redis"], indirect=True)
def test_redis_a_stop_racing_the_forgetting_is_never_lost(store_spec: Any) -> None:
    url, prefix = store_spec.target, store_spec.prefix
    store, other = RedisStore(url, prefix=prefix), RedisStore(url, prefix=prefix)
    client = _StopAfterTouch.from_url(url)
    assert isinstance(client, _StopAfterTouch)
    racing = RedisStore(url, prefix=prefix, client=client)
    try:
        record_stop(store, StopEvent("idle", text="working", timestamp=T0), STATUS)
        client.watched, client.other = store._keys_of("idle")[0], other
        forgotten = racing.forget_session("idle", T0 + 10 * DAY)
        assert client.other is None  # the stop ran, after forget_session's first command
        state = store.get_session("idle")  # the stop is kept, whatever the order was
        texts = [e.text for e in store.timeline("idle")]
        assert texts == (["back"] if forgotten else ["working", "back"])
        assert state.updated_at > T0 + 10 * DAY
    finally:
        for s in (store, other, racing):
            s.close()


class _StopAfterList(SQLiteStore):
    """The real SQLite store, where another process's stop commits right after the first
    `list_sessions` (what a command's cleanup read) returns."""

    other: SQLiteStore | None = None

    def list_sessions(self, project: str | None = None) -> list[Any]:
        out = super().list_sessions(project)
        if self.other is not None:
            racing, self.other = self.other, None
            record_stop(racing, StopEvent("idle", text="back", timestamp=T0 + 40 * DAY), STATUS)
        return out


def test_a_commands_cleanup_keeps_a_session_a_stop_came_to_after_its_read(
    tmp_path: Path,
) -> None:
    path = tmp_path / "c.db"
    store, other = _StopAfterList(path), SQLiteStore(path)
    sup = Supervisor(store, snapshots_on=False)
    try:
        record_stop(store, StopEvent("idle", text="working", timestamp=T0), STATUS)
        record_stop(store, StopEvent("gone", text="long ago", timestamp=T0), STATUS)
        store.other = other
        report = watchdog.cleanup_stale(sup, T0 + 40 * DAY)
        assert report.forgotten == ["gone"]
        assert [e.text for e in store.timeline("idle")] == ["working", "back"]
        assert store.list_sessions() and [s.session_id for s in store.list_sessions()] == ["idle"]
        with sqlite3.connect(path) as db:  # the forgotten one's rows went with the command
            left = db.execute("SELECT count(*) FROM events WHERE session_id = 'gone'").fetchone()
            assert left == (0,) and db.execute("SELECT count(*) FROM forgotten").fetchone() == (0,)
    finally:
        sup.close()
        other.close()


_PURGE_SLOWLY = """
import sys, time
from coachloop.store.sqlite import SQLiteStore
store = SQLiteStore(sys.argv[1])
while True:
    store.purge_forgotten(1)  # one row a write, until killed
    print("row", flush=True)
    time.sleep(0.01)
"""


def test_a_purge_killed_midway_is_finished_by_the_next_process(tmp_path: Path) -> None:
    path = tmp_path / "k.db"
    clock = [T0]
    sup = Supervisor(SQLiteStore(path), snapshots_on=False, clock=lambda: clock[0])
    for i in range(40):
        sup.on_stop(StopEvent("old", text=f"step {i}", timestamp=T0), STATUS)
    clock[0] = T0 + 31 * DAY
    assert sup.forget("old", clock[0] - 30 * DAY)
    sup.on_stop(StopEvent("old", text="back again", timestamp=clock[0]), STATUS)
    sup.close()  # the process that forgot it exits before any purge
    purging = subprocess.Popen(
        [sys.executable, "-c", _PURGE_SLOWLY, str(path)], stdout=subprocess.PIPE, text=True
    )
    assert purging.stdout is not None
    for _ in range(5):
        purging.stdout.readline()
    purging.send_signal(signal.SIGKILL)  # mid-purge, maybe inside a write
    purging.wait()
    with sqlite3.connect(path) as db:
        left = db.execute("SELECT count(*) FROM events WHERE session_id = 'old'").fetchone()[0]
    assert 1 < left < 41
    again = Supervisor(SQLiteStore(path), snapshots_on=False, clock=lambda: clock[0])
    try:
        assert again.maintaining  # a new process looks for what is left to purge
        assert again.maintain_all().purged == left - 1
        assert [e.text for e in again.reads.timeline("old")] == ["back again"]
        with sqlite3.connect(path) as db:
            assert db.execute("SELECT count(*) FROM events").fetchone() == (1,)
            assert db.execute("SELECT count(*) FROM forgotten").fetchone() == (0,)
    finally:
        again.close()
