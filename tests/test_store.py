"""One shared suite for the `Store` protocol and the supervisor's writes over it
(`coachloop.supervisor.writes`), run against SQLite and the real Redis."""

from __future__ import annotations

import pytest

from coachloop.core.events import HumanMessage, StopEvent
from coachloop.core.session import SessionStatus
from coachloop.core.verdict import Verdict
from coachloop.store import JobSummary, Store, StoreError, UnknownSession
from coachloop.store.records import job_summaries
from coachloop.supervisor import Policy, Supervisor, writes
from coachloop.supervisor.writes import record_human, record_stop

STATUS = Verdict(
    "status", 0.9, "mid-work", "rules", route="continue", coaching_message="[System Coach] go"
)
QUESTION = Verdict("question", 0.9, "asks", "llm")
ERROR = Verdict("error", 0.95, "crash", "signal")


def flag(
    store: Store, sid: str, alerts: dict[str, str], now: float | None = None
) -> tuple[str, ...]:
    return writes.flag(store, sid, alerts, now)[0]


def set_status(
    store: Store, sid: str, status: SessionStatus, why: str, now: float | None = None
) -> None:
    writes.set_status(store, sid, status, why, now)


def jobs(store: Store, sid: str) -> list[JobSummary]:
    return job_summaries(store.get_session(sid), store.timeline(sid))


def ev(sid: str, text: str, ts: float = 1000.0, **kw: object) -> StopEvent:
    return StopEvent(sid, text=text, project="/work/proj", timestamp=ts, **kw)  # type: ignore[arg-type]


def test_a_stop_creates_the_session_and_its_record(store: Store) -> None:
    res = record_stop(store, ev("s1", "running tests", job_id="j1"), STATUS)
    assert res.decision.kind == "continue" and res.state.continues == 1
    st = store.get_session("s1")
    assert st == res.state and st.project == "/work/proj" and st.agent == "claude-code"
    [rec] = store.timeline("s1")
    assert rec.id == res.event_id and rec.kind == "stop" and rec.job_id == "j1"
    assert rec.text == "running tests" and rec.source == "rules" and rec.ts == 1000.0
    assert rec.verdict is not None and rec.verdict["type"] == "status"
    assert (rec.decision, rec.message) == ("continue", "[System Coach] go")
    assert "auto-continue 1/3" in rec.why and rec.recorded_at > 0


def test_cap_reset_and_timeline_order(store: Store) -> None:
    kinds = [
        record_stop(store, ev("s1", f"step {i}", 1000 + i), STATUS).decision.kind for i in range(5)
    ]
    assert kinds == ["continue"] * 3 + ["deliver"] * 2
    state, _ = record_human(store, HumanMessage("s1", "go on", source="chat", timestamp=1100))
    assert state.continues == 0 and store.get_session("s1").continues == 0
    assert record_stop(store, ev("s1", "step 6", 1101), STATUS).decision.kind == "continue"
    tl = store.timeline("s1")
    assert [r.kind for r in tl] == ["stop"] * 5 + ["human", "stop"]
    assert [r.id for r in tl] == sorted(r.id for r in tl) and len({r.id for r in tl}) == 7
    assert [r.id for r in store.timeline("s1", limit=2)] == [r.id for r in tl[-2:]]
    assert tl[5].source == "chat" and tl[5].text == "go on"


def test_outbox_holds_deliveries_and_notices_until_sent(store: Store) -> None:
    assert store.outbox_pending() == []
    r1 = record_stop(store, ev("s1", "Which DB?"), QUESTION)
    record_stop(store, ev("s1", "boom", 1001), ERROR)
    record_stop(store, ev("s1", "boom again", 1002), ERROR)
    r4 = record_stop(store, ev("s1", "fine now?", 1003), QUESTION)
    pending = store.outbox_pending()
    assert [(e.kind, e.event_id) for e in pending] == [
        ("deliver", r1.event_id),
        ("deliver", pending[1].event_id),
        ("deliver", r4.event_id),
        ("notice", r4.event_id),
    ]
    assert pending[0].text == "Which DB?" and "1 more error" in pending[3].text
    store.mark_sent(pending[0].id)
    store.mark_sent(pending[0].id)  # idempotent
    assert [e.id for e in store.outbox_pending()] == [e.id for e in pending[1:]]
    assert len(store.outbox_pending(limit=1)) == 1
    with pytest.raises(StoreError, match="no outbox entry"):
        store.mark_sent(999_999)


def test_unknown_session_is_a_clear_error(store: Store) -> None:
    for call in (
        lambda: store.get_session("nope"),
        lambda: store.timeline("nope"),
        lambda: flag(store, "nope", {"silent": "x"}),
        lambda: set_status(store, "nope", "abandoned", "why"),
    ):
        with pytest.raises(UnknownSession, match="unknown session 'nope'") as info:
            call()
        assert info.value.session_id == "nope"
    assert store.list_sessions() == []  # nothing was created by the failed calls


def test_sessions_listing_and_project_filter(store: Store) -> None:
    record_stop(store, ev("a", "x", 1000), QUESTION)
    record_stop(store, StopEvent("b", text="y", project="/other", timestamp=2000), QUESTION)
    record_human(store, HumanMessage("c", "hello", project="/work/proj", timestamp=3000))
    assert [s.session_id for s in store.list_sessions()] == ["c", "b", "a"]
    assert [s.session_id for s in store.list_sessions("/work/proj")] == ["c", "a"]


def test_flags_are_raised_once_as_one_alert(store: Store) -> None:
    record_stop(store, ev("s1", "x"), STATUS)
    raised = flag(store, "s1", {"silent": "Silent 40 min.", "running": "Running 5 h."}, 5000)
    assert raised == ("silent", "running")
    assert flag(store, "s1", {"silent": "again", "running": "again"}, 5001) == ()
    assert flag(store, "s1", {"silent": "s", "repeat": "Same call 6 times."}, 5002) == ("repeat",)
    alerts = [e for e in store.outbox_pending() if e.kind == "alert"]
    assert len(alerts) == 2 and "Silent 40 min. Running 5 h." in alerts[0].text
    assert set(store.get_session("s1").flags) == {"silent", "running", "repeat"}
    assert [r.kind for r in store.timeline("s1")] == ["stop", "alert", "alert"]
    record_stop(store, ev("s1", "y", 5003), QUESTION)  # a stop clears "silent"
    assert set(store.get_session("s1").flags) == {"running", "repeat"}


def test_a_stop_keeps_the_turns_longest_tool_run(store: Store) -> None:
    record_stop(store, ev("s1", "x"), QUESTION, tool_run=("Bash:ls", 3))
    st = store.get_session("s1")
    assert (st.tool_signature, st.tool_repeats) == ("Bash:ls", 3)
    flag(store, "s1", {"repeat": "r"})
    record_stop(store, ev("s1", "y", 1001), QUESTION)  # no record read: nothing changes
    assert "repeat" in store.get_session("s1").flags
    record_stop(store, ev("s1", "z", 1002), QUESTION, tool_run=("Read:a", 1))
    st = store.get_session("s1")
    assert (st.tool_signature, st.tool_repeats) == ("Read:a", 1) and "repeat" not in st.flags


def test_status_change_delete_and_claim(store: Store) -> None:
    record_stop(store, ev("s1", "x"), STATUS)
    set_status(store, "s1", "abandoned", "silent for 25 h", 9000)
    assert store.get_session("s1").status == "abandoned"
    assert store.timeline("s1")[-1].kind == "status"
    store.delete_session("s1")
    store.delete_session("s1")  # forgetting twice is fine
    with pytest.raises(UnknownSession):
        store.get_session("s1")
    assert store.claim("job", 3600, 100.0) is True
    assert store.claim("job", 3600, 101.0) is False
    assert store.claim("other", 3600, 101.0) is True


def test_data_survives_reopening(store_spec: object) -> None:
    first = store_spec.open()  # type: ignore[attr-defined]
    record_human(first, HumanMessage("s1", "/do-build it", skill="/do-build", plan_file="plan.md"))
    record_stop(first, ev("s1", "working"), STATUS)
    first.close()
    again = store_spec.open()  # type: ignore[attr-defined]
    try:
        st = again.get_session("s1")
        assert st.continues == 1 and st.context.skill == "/do-build"
        sup = Supervisor(again, Policy(), snapshots_on=False)
        ctx = sup.context(ev("s1", "next"))
        assert (ctx.prompt, ctx.skill, ctx.plan_file) == ("/do-build it", "/do-build", "plan.md")
        assert len(again.timeline("s1")) == 2
    finally:
        again.close()


def test_jobs_are_summarised_from_the_timeline(store: Store) -> None:
    record_stop(store, ev("s1", "working", 1000, job_id="j1"), STATUS)
    record_stop(store, ev("s1", "final result", 1001, job_id="j1"), QUESTION)  # duplicate
    record_stop(
        store,
        ev("s1", "4 passed", 1002, job_id="j1", stop_hook_active=True),
        Verdict("completion", 0.9, "done", "rules"),
    )
    record_stop(store, ev("s1", "Which DB?", 1003, job_id="j2"), QUESTION)
    j1, j2 = jobs(store, "s1")
    assert (j1.job_id, j1.status, j1.stops, j1.continues, j1.delivered, j1.dropped) == (
        "j1",
        "closed",
        3,
        1,
        1,
        1,
    )
    assert (j1.first_ts, j1.last_ts) == (1000, 1002)
    assert (j2.job_id, j2.status, j2.stops, j2.delivered) == ("j2", "open", 1, 1)
    with pytest.raises(UnknownSession):
        jobs(store, "nope")


def test_a_long_message_keeps_its_closing_evidence_in_the_timeline(store: Store) -> None:
    from coachloop.core.text import clip
    from coachloop.store.records import MAX_STORED_TEXT

    text = "Start of the report.\n" + "x" * 80_000 + "\nRan pytest: 42 passed in 1.3s."
    record_stop(store, ev("s1", text), QUESTION)
    [rec] = store.timeline("s1")
    assert rec.text.startswith("Start of the report.")
    assert rec.text.endswith("42 passed in 1.3s.")
    assert f"[... {len(text) - MAX_STORED_TEXT} characters cut by coachloop ...]" in rec.text
    assert clip("abcdefghij", 4) == "ab\n\n[... 6 characters cut by coachloop ...]\n\nij"
    assert clip("abcdefghij", 4, head=1, marker="|{n}|") == "a|6|hij"
    assert clip("short", 10) == "short" and clip("any", 0) == "any"
