"""The steering queue, run against SQLite and the real Redis (`store_spec`): a human
message for a running session is queued, handed to the agent once (after a tool call or
at its next stop, before judging), resets the cap, and survives reopening the store."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from coachloop.core.events import HumanMessage, StopEvent
from coachloop.core.verdict import Verdict
from coachloop.store import Store, UnknownSession
from coachloop.supervisor import Supervisor
from coachloop.supervisor.steering import MAX_QUEUED, SteeringError, injection

T0 = time.time()  # the watchdog forgets sessions idle for long: keep them recent
STATUS = Verdict(
    "status", 0.9, "mid-work", "rules", route="continue", coaching_message="[System Coach] go"
)


def stop(sid: str, text: str, ts: float, **kw: object) -> StopEvent:
    return StopEvent(sid, text=text, project="/work/proj", timestamp=ts, **kw)  # type: ignore[arg-type]


@pytest.fixture
def sup(store: Store, tmp_path: Path) -> Supervisor:
    return Supervisor(store, snapshot_root=tmp_path / "snaps")


def running(sup: Supervisor, sid: str = "s1") -> None:
    """A session whose turn runs and was already auto-continued once."""
    sup.on_human(HumanMessage(sid, "build the cart", project="/work/proj", timestamp=T0 + 0))
    result = sup.on_stop(stop(sid, "still working on it", T0 + 1), STATUS)
    assert result.decision.kind == "continue" and result.state.continues == 1


def test_a_message_for_a_running_turn_is_queued_and_handed_over_at_the_next_stop(
    sup: Supervisor, store: Store
) -> None:
    running(sup)
    assert sup.steer("s1", "use SQLite", key="m1") == "queued"
    assert sup.steer("s1", "  and keep the API  ", key="m2") == "queued"
    assert [q.text for q in store.get_session("s1").steering] == ["use SQLite", "and keep the API"]
    result = sup.steer_at_stop(stop("s1", "done, I think", T0 + 2, job_id="j1"))
    assert result is not None and result.decision.kind == "continue"
    assert result.decision.text == "[Human] use SQLite\n\n[Human] and keep the API"
    state = store.get_session("s1")
    assert state.steering == () and state.continues == 0  # the cap reset
    assert state.context.prompt == "use SQLite\n\nand keep the API"
    assert state.status == "running" and state.last_decision == "continue"
    last = store.timeline("s1")[-1]
    assert last.id == result.event_id and last.kind == "stop" and last.decision == "continue"
    assert last.message == result.decision.text and last.text == "done, I think"
    assert last.source == "steering" and last.verdict is None
    assert sup.steer_at_stop(stop("s1", "again", T0 + 3)) is None  # nothing injected twice


def test_an_idle_session_is_not_queued_and_an_unknown_one_is_refused(sup: Supervisor) -> None:
    sup.on_human(HumanMessage("s1", "what is 2+2?", timestamp=T0 + 0))
    question = Verdict("question", 0.9, "asks", "rules")
    sup.on_stop(stop("s1", "Four. Anything else?", T0 + 1), question)
    assert sup.reads.get_session("s1").status == "waiting"
    assert sup.steer("s1", "thanks", key="m1") == "idle"
    assert sup.reads.get_session("s1").steering == ()
    assert sup.steer("s1", "queue it anyway", key="m2", running=True) == "queued"
    with pytest.raises(UnknownSession):
        sup.steer("nobody", "hello", key="m3")
    with pytest.raises(SteeringError):
        sup.steer("s1", "   ", key="m4")


def test_the_same_message_is_queued_once_and_a_full_queue_refuses_more(sup: Supervisor) -> None:
    running(sup)
    assert sup.steer("s1", "one", key="chat-42-7") == "queued"
    assert sup.steer("s1", "one", key="chat-42-7") == "duplicate"
    sup.steer_mid_turn("s1", "after a tool call")
    assert sup.steer("s1", "one", key="chat-42-7") == "duplicate"  # taken already
    for n in range(MAX_QUEUED):
        assert sup.steer("s1", f"m{n}", key=f"k{n}") == "queued"
    assert sup.steer("s1", "one more", key="extra") == "full"
    assert len(sup.reads.get_session("s1").steering) == MAX_QUEUED


def test_mid_turn_take_resets_the_cap_and_records_the_injection(
    sup: Supervisor, store: Store
) -> None:
    running(sup)
    assert sup.steer_mid_turn("s1", "after a tool call").steers == ()  # nothing queued
    sup.steer("s1", "stop using mocks", key="m1")
    taken = sup.steer_mid_turn("s1", "after a tool call (Bash)")
    assert taken.text == "[Human] stop using mocks" and taken.event_id > 0
    state = store.get_session("s1")
    assert state.steering == () and state.continues == 0 and state.last_human_at is not None
    rec = store.timeline("s1")[-1]
    assert rec.kind == "human" and rec.source == "steering" and rec.text == taken.text
    assert "after a tool call (Bash)" in rec.why
    lives = [life.label for life in store.lifecycle("s1")]
    assert lives[-1] == "resume" and store.lifecycle("s1")[-1].event_id == taken.event_id
    assert sup.steer_mid_turn("s1", "after a tool call").text == ""
    assert len(store.lifecycle("s1")) == len(lives)  # nothing taken: nothing recorded
    assert sup.steer_at_stop(stop("s1", "ok", T0 + 2)) is None  # judged as usual now


def test_the_queue_survives_reopening_the_store(store_spec: object, tmp_path: Path) -> None:
    first = store_spec.open()  # type: ignore[attr-defined]
    running(Supervisor(first, snapshots_on=False))
    Supervisor(first, snapshots_on=False).steer("s1", "survive me", key="m1")
    first.close()  # the daemon (or the bridge) is restarted
    again = store_spec.open()  # type: ignore[attr-defined]
    try:
        sup = Supervisor(again, snapshots_on=False)
        assert [q.text for q in again.get_session("s1").steering] == ["survive me"]
        result = sup.steer_at_stop(stop("s1", "hm", T0 + 2))
        assert result is not None and result.decision.text == "[Human] survive me"
    finally:
        again.close()


def test_racing_takers_inject_each_message_exactly_once(store_spec: object) -> None:
    setup = store_spec.open()  # type: ignore[attr-defined]
    running(Supervisor(setup, snapshots_on=False))
    for n in range(10):
        Supervisor(setup, snapshots_on=False).steer("s1", f"message {n}", key=f"k{n}")
    setup.close()
    got: list[str] = []
    lock = threading.Lock()

    def take(n: int) -> None:
        own = store_spec.open()  # type: ignore[attr-defined]
        try:
            sup = Supervisor(own, snapshots_on=False)
            if n % 2:
                text = sup.steer_mid_turn("s1", "after a tool call").text
            else:
                res = sup.steer_at_stop(stop("s1", "x", T0 + 2 + n))
                text = res.decision.text if res is not None else ""
            with lock:
                got.append(text)
        finally:
            own.close()

    threads = [threading.Thread(target=take, args=(n,)) for n in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    winners = [t for t in got if t]
    assert len(got) == 6 and len(winners) == 1
    assert winners[0].count("[Human]") == 10


def test_injection_keeps_order_and_separates_messages() -> None:
    from coachloop.core.session import Steer

    text = injection((Steer("a", "first\nline two"), Steer("b", "second")))
    assert text == "[Human] first\nline two\n\n[Human] second"


def test_stopping_and_accepting_leave_their_lifecycle_records(
    sup: Supervisor, store: Store
) -> None:
    """The human's other doors (/stop, 👍) record a lifecycle entry like every event."""
    running(sup)
    before = len(store.lifecycle("s1"))
    sup.request_stop("s1")
    assert sup.stop_now("s1", "before a tool call (Bash)") is not None
    assert sup.stop_now("s1", "before a tool call (Bash)") is None  # no mark: nothing
    sup.accept("s1", "/done")
    assert [life.label for life in store.lifecycle("s1")][before:] == ["status"] * 3
