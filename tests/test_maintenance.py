"""Maintenance off the stop path: paging by activity, bounded steps, the background upkeep,
`coachloop maintain`, the outbox trim, and the Redis store's bounded project memory."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from coachloop.cli import cli
from coachloop.core.events import StopEvent
from coachloop.core.verdict import Verdict
from coachloop.store.sqlite import SQLiteStore
from coachloop.supervisor import Supervisor
from coachloop.supervisor.writes import record_stop

STATUS = Verdict("status", 0.9, "mid-work", "rules", route="continue", coaching_message="go")
DONE = Verdict("completion", 0.9, "done", "rules", route="deliver")
T0 = 1_900_000_000.0
HOUR = 3600.0


def _fill(store: Any, n: int, *, same_time: bool = False) -> list[str]:
    sids = [f"s{i:03d}" for i in range(n)]
    for i, sid in enumerate(sids):
        ts = T0 if same_time else T0 + i
        record_stop(
            store, StopEvent(sid, text="working", timestamp=ts, project=f"/p{i % 2}"), STATUS
        )
    return sids


@pytest.mark.parametrize("same_time", [False, True])
def test_session_pages_walk_every_session_once_newest_first(
    store_spec: Any, same_time: bool
) -> None:
    store = store_spec.open()
    try:
        sids = _fill(store, 23, same_time=same_time)
        seen: list[str] = []
        cursor = None
        while True:
            page = store.session_page(5, cursor)
            seen += [s.session_id for s in page]
            if len(page) < 5:
                break
            cursor = (page[-1].updated_at, page[-1].session_id)
        assert seen == sorted(sids, reverse=True)  # newest first; ties by id, descending
        first = store.session_page(4, project="/p1")
        assert [s.session_id for s in first] == [
            s for s in sorted(sids, reverse=True) if int(s[1:]) % 2
        ][:4]
        assert store.session_page(0) == []
    finally:
        store.close()


@pytest.mark.parametrize("seconds", [0.0, 1e-9])
def test_a_stop_never_runs_maintenance_and_each_step_is_bounded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, seconds: float
) -> None:
    from coachloop.supervisor import maintenance

    monkeypatch.setattr(maintenance, "STEP_SECONDS", seconds)  # 1e-9: one session a step
    clock = [T0]
    sup = Supervisor(
        SQLiteStore(tmp_path / "c.db"), snapshot_root=tmp_path / "s", clock=lambda: clock[0]
    )
    for i in range(7):
        sup.on_stop(StopEvent(f"q{i}", text="working", timestamp=T0), STATUS)
    clock[0] += 2 * HOUR
    sup.on_stop(StopEvent("late", text="Which DB?", timestamp=clock[0]), DONE)
    assert not [e for e in sup.reads.outbox_pending() if e.kind == "alert"]
    steps = []
    while True:  # a walk over 8 sessions, 3 per step
        done = sup.maintain(budget=3)
        steps.append(sorted(a.session_id for a in done.alerts))
        if not sup.maintaining:
            break
    if seconds:
        assert [s for s in steps if s] == [["q6"], ["q5"], ["q4"], ["q3"], ["q2"], ["q1"], ["q0"]]
        assert len(steps) == 8  # "late" (newest) raised nothing: one session per step
    else:
        assert steps == [["q5", "q6"], ["q2", "q3", "q4"], ["q0", "q1"]]
    assert sup.maintain(budget=3).alerts == []  # the next walk waits for its interval
    sup.close()


def test_outbox_keeps_delivered_rows_for_a_bounded_time(store_spec: Any) -> None:
    store = store_spec.open()
    try:
        for i in range(5):
            record_stop(store, StopEvent(f"d{i}", text="done", timestamp=T0), DONE)
        entries = store.outbox_pending()
        for e in entries[:4]:
            store.mark_sent(e.id, T0 + e.id)
        first = entries[0].id
        assert store.trim_outbox(T0 + first + 2, limit=1) == 1  # bounded per call
        assert store.trim_outbox(T0 + first + 2) == 1
        assert store.trim_outbox(T0 + first + 2) == 0
        assert [e.id for e in store.outbox_pending()] == [entries[4].id]  # unsent stays
    finally:
        store.close()


def test_coachloop_maintain_runs_everything_now(tmp_path: Path) -> None:
    db = tmp_path / "c.db"
    now = time.time()
    with SQLiteStore(db) as store:
        record_stop(store, StopEvent("old", text="working", timestamp=now - 40 * 86_400), STATUS)
        record_stop(store, StopEvent("quiet", text="working", timestamp=now - 2 * HOUR), STATUS)
    runner = CliRunner()
    out = runner.invoke(cli, ["maintain", "--store", str(db), "--json"])
    assert out.exit_code == 0, out.output
    report = json.loads(out.output)
    assert report["forgotten"] == ["old"] and report["alerts"][0]["session"] == "quiet"
    assert report["rows_purged"] >= 1  # the forgotten session's event row, gone too
    assert report["records_removed"] == 0
    again = runner.invoke(cli, ["maintain", "--store", str(db)])
    assert again.exit_code == 0 and "0 new alert(s)" in again.output
    assert "(0 of their row(s) purged)" in again.output


def test_the_upkeep_thread_maintains_every_open_supervisor(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from coachloop.agents import projects
    from coachloop.server import upkeep

    monkeypatch.setenv("COACHLOOP_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("COACHLOOP_STORE", raising=False)
    projects.clear()
    try:
        sup = projects.opened(None).supervisor
        sup.on_stop(StopEvent("idle", text="working", timestamp=time.time() - 2 * HOUR), STATUS)
        stop = threading.Event()
        thread = upkeep.Upkeep(stop, interval=0.05)
        thread.start()
        for _ in range(100):
            if any(e.kind == "alert" for e in sup.reads.outbox_pending()):
                break
            stop.wait(0.05)
        stop.set()
        thread.join(5)
        assert not thread.is_alive()
        assert [e.session_id for e in sup.reads.outbox_pending() if e.kind == "alert"] == ["idle"]
    finally:
        projects.clear()


@pytest.mark.parametrize("store_spec", ["redis"], indirect=True)
def test_redis_store_remembers_a_bounded_number_of_projects(
    store_spec: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from coachloop.store import redis_store

    monkeypatch.setattr(redis_store, "PROJECT_CACHE", 10)
    store = store_spec.open()
    try:
        _fill(store, 35)
        assert len(store._projects) <= 10
        assert store.get_session("s001").project == "/p1"  # a forgotten one is read again
    finally:
        store.close()


def test_lifecycle_records_on_both_backends(store_spec: Any) -> None:
    from coachloop.core.events import HumanMessage
    from coachloop.snapshot_pack import unpack, whole

    clock = [time.time() - 3 * 86_400]
    sup = Supervisor(store_spec.open(), retention_days=1, clock=lambda: clock[0])
    try:
        sup.on_stop(StopEvent("a", text="working"), STATUS)  # in the stop's transaction
        clock[0] = time.time()
        sup.on_human(HumanMessage("a", "go on"))  # a record of its own
        sup.on_stop(StopEvent("a", text="Which DB?"), DONE)
        lives = sup.reads.lifecycle("a")
        assert [x.label for x in lives] == ["auto_continue", "resume", "complete"]
        assert [x.event_id for x in lives] == [r.id for r in sup.reads.timeline("a")]
        full = whole(lives[2], sup.reads.timeline("a")[-1])
        assert full["decision"]["kind"] == "deliver" and full["state"]["status"] == "done"
        assert full["stop"]["text"] == "Which DB?" and unpack(lives[2].body)["event"] == "complete"
        assert [x.label for x in sup.reads.lifecycle("a", 1)] == ["complete"]
        assert sup.maintain_all().records == 1  # only the one past the retention
        assert [x.label for x in sup.reads.lifecycle("a")] == ["resume", "complete"]
        sup.forget("a")
        assert sup.reads.lifecycle("a") == []
    finally:
        sup.close()


def test_maintain_clears_every_record_past_retention_after_a_run_of_other_events(
    tmp_path: Path,
) -> None:
    """`coachloop maintain` runs retention to the end: stops without a record (recorded
    while snapshots were off) before an expired one do not end the trim with it kept."""
    clock = [T0]
    path = tmp_path / "c.db"
    with SQLiteStore(path) as store:  # no records: 60 times the step's batch of budget 1
        for i in range(60):
            record_stop(store, StopEvent("quiet", text=f"step {i}", timestamp=T0), STATUS)
    sup = Supervisor(SQLiteStore(path), retention_days=1, clock=lambda: clock[0])
    try:
        sup.on_stop(StopEvent("a", text="working", timestamp=T0), STATUS)
        clock[0] = T0 + 3 * 86_400
        sup.on_stop(StopEvent("a", text="still working", timestamp=clock[0]), STATUS)
        assert len(sup.reads.lifecycle("a")) == 2
        assert sup.maintain_all(budget=1).records == 1  # the expired one, not the new one
        lives = sup.reads.lifecycle("a")  # the new stop's, and the watchdog's alert's
        stop, alert = sup.reads.timeline("a")[1:]  # the events stay, the first stop's too
        assert [(x.event_id, x.saved_at) for x in lives][:1] == [(stop.id, clock[0])]
        assert {x.saved_at for x in lives} == {clock[0]} and alert.kind == "alert"
        assert len(sup.reads.timeline("quiet")) == 60
    finally:
        sup.close()
