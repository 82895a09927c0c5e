"""The pure decision function: every rule of the supervisor, one at a time."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from coachloop.config import Settings
from coachloop.core.events import HumanMessage, StopEvent
from coachloop.core.session import MAX_JOBS, Decision, SessionState
from coachloop.core.verdict import Verdict
from coachloop.supervisor import CLAUDE_CODE_BLOCK_CAP, Policy, context_for, decide, on_human

SID = "sess-1"


def status(coaching: str | None = "[System Coach] show the test run") -> Verdict:
    return Verdict(
        "status", 0.9, "work in progress", "rules", route="continue", coaching_message=coaching
    )


def delivered(kind: str) -> Verdict:
    return Verdict(kind, 0.9, f"{kind} seen", "rules")  # type: ignore[arg-type]


def stop(text: str = "working on it", ts: float = 1000.0, **kw: object) -> StopEvent:
    return StopEvent(SID, text=text, timestamp=ts, **kw)  # type: ignore[arg-type]


def fresh() -> SessionState:
    return SessionState.new(SID, 900.0, agent="claude-code", project="/p")


def run(
    state: SessionState, *steps: tuple[StopEvent, Verdict], policy: Policy | None = None
) -> tuple[list[Decision], SessionState]:
    out = []
    for event, verdict in steps:
        d, state = decide(state, event, verdict, policy)
        out.append(d)
    return out, state


def test_status_is_continued_with_the_coaching() -> None:
    d, st = decide(fresh(), stop(), status())
    assert d.kind == "continue" and d.blocks
    assert d.text == "[System Coach] show the test run"
    assert st.continues == 1 and st.status == "running" and st.last_decision == "continue"
    assert "1/3" in d.why


def test_status_without_coaching_gets_plain_continue() -> None:
    d, _ = decide(fresh(), stop(), status(coaching=None))
    assert (d.kind, d.text) == ("continue", "continue")


def test_cap_then_deliver_with_a_note() -> None:
    steps = [(stop(f"step {i}", ts=1000 + i), status()) for i in range(6)]
    ds, st = run(fresh(), *steps)
    assert [d.kind for d in ds] == ["continue"] * 3 + ["deliver"] * 3
    assert ds[3].text.startswith("step 3")
    assert "cap reached (3 of 3" in ds[3].text
    assert "cap reached (3/3)" in ds[3].why
    assert st.continues == 3 and st.status == "waiting"


def test_cap_is_configurable_and_bounded_by_claude_codes_own_cap() -> None:
    ds, _ = run(fresh(), (stop("a"), status()), (stop("b"), status()), policy=Policy(1))
    assert [d.kind for d in ds] == ["continue", "deliver"]
    ds, _ = run(fresh(), (stop("a"), status()), policy=Policy(0))
    assert ds[0].kind == "deliver"
    assert Policy(CLAUDE_CODE_BLOCK_CAP - 1).max_auto_continues == 7
    for bad in (CLAUDE_CODE_BLOCK_CAP, 100, -1):
        with pytest.raises(ValueError, match="max_auto_continues"):
            Policy(bad)
    assert Policy.from_settings(Settings(max_auto_continues=2)) == Policy(2)
    assert Policy().max_auto_continues == Settings().max_auto_continues == 3


@pytest.mark.parametrize("source", ["prompt", "chat"])
def test_human_message_resets_the_count(source: str) -> None:
    steps = [(stop(f"s{i}", ts=1000 + i), status()) for i in range(4)]
    ds, st = run(fresh(), *steps)
    assert ds[-1].kind == "deliver"
    st, notices = on_human(st, HumanMessage(SID, "keep going", source=source, timestamp=2000))  # type: ignore[arg-type]
    assert st.continues == 0 and st.status == "running" and notices == ()
    assert st.last_human_at == 2000 and st.run_started_at == 2000
    ds, st = run(st, (stop("s5", ts=2001), status()))
    assert ds[0].kind == "continue" and st.continues == 1


@pytest.mark.parametrize(
    ("kind", "status_after"),
    [("question", "waiting"), ("blocker", "waiting"), ("completion", "done")],
)
def test_delivered_types_reach_the_human(kind: str, status_after: str) -> None:
    d, st = decide(fresh(), stop("Which database should I use?"), delivered(kind))
    assert d.kind == "deliver" and d.text == "Which database should I use?"
    assert d.why.startswith(kind) and st.status == status_after and st.continues == 0


@pytest.mark.parametrize("text", ["", "   \n "])
def test_empty_output_is_never_continued(text: str) -> None:
    d, st = decide(fresh(), stop(text), status())
    assert d.kind == "deliver" and "without any output" in d.text
    assert st.continues == 0


def test_error_is_never_continued_and_marks_the_session_failed() -> None:
    err = Verdict("error", 0.95, "the SDK crashed", "signal")
    d, st = decide(fresh(), stop("Traceback: boom"), err)
    assert d.kind == "deliver" and d.text == "Traceback: boom"
    assert "marked failed" in d.why and st.status == "failed" and st.continues == 0
    # A StopFailure is an error whatever the verdict says.
    d, st = decide(fresh(), stop("", kind="StopFailure", error="rate_limit"), status())
    assert d.kind == "deliver" and "rate_limit" in d.text and st.status == "failed"


def test_a_run_of_errors_is_delivered_once_then_summarised() -> None:
    err = Verdict("error", 0.95, "crash", "signal")
    steps = [(stop(f"crash {i}", ts=1000 + i), err) for i in range(4)]
    ds, st = run(fresh(), *steps)
    assert [d.kind for d in ds] == ["deliver", "drop", "drop", "drop"]
    assert "error 4" in ds[-1].why and st.error_run == 4
    # The run ends at the next non-error stop: one summary notice, never a continuation.
    d, st = decide(st, stop("back to work", ts=1010), status())
    assert d.kind == "deliver" and "failed earlier" in d.text
    assert len(d.notices) == 1 and "3 more errors" in d.notices[0] and "crash" in d.notices[0]
    assert st.error_run == 0 and st.status == "failed"
    # A single error leaves nothing to summarise.
    ds, st = run(fresh(), (stop("x"), err), (stop("fine", ts=1001), delivered("question")))
    assert ds[1].notices == () and st.status == "failed"
    d, st = decide(st, stop("still going", ts=1002), status())
    assert d.kind == "deliver" and st.status == "failed"  # failed is sticky


def test_a_human_message_ends_the_error_run_and_allows_continues_again() -> None:
    err = Verdict("error", 0.95, "crash", "signal")
    _, st = run(fresh(), (stop("a"), err), (stop("b", ts=1001), err))
    st, notices = on_human(st, HumanMessage(SID, "try again", timestamp=1100))
    assert len(notices) == 1 and "1 more error " in notices[0]
    d, st = decide(st, stop("retrying", ts=1101), status())
    assert d.kind == "continue" and st.status == "running"


def test_watchdog_errors_flag_replaces_the_summary_notice() -> None:
    err = Verdict("error", 0.95, "crash", "signal")
    _, st = run(fresh(), (stop("a"), err), (stop("b", ts=1001), err))
    d, st2 = decide(replace(st, flags=("errors",)), stop("ok", ts=1002), delivered("question"))
    assert d.notices == () and "errors" not in st2.flags


def test_completion_closes_its_job() -> None:
    ds, _ = run(
        fresh(),
        (stop("Done: 4 passed", job_id="j1"), delivered("completion")),
        (stop("Done: 4 passed (final SDK result)", job_id="j1", ts=1001), delivered("completion")),
        (stop("more", job_id="j1", ts=1002, stop_hook_active=True), status()),
    )
    assert [d.kind for d in ds] == ["deliver", "drop", "drop"]
    assert "already delivered" in ds[1].why


def test_a_human_message_reopens_every_job() -> None:
    _, st = run(fresh(), (stop("Done: 4 passed", job_id="j1"), delivered("completion")))
    st, _ = on_human(st, HumanMessage(SID, "now add docs", timestamp=1100))
    d, st = decide(st, stop("docs added", job_id="j1", ts=1101), delivered("completion"))
    assert d.kind == "deliver"


def test_continued_job_accepts_only_the_reply_to_the_continuation() -> None:
    """The seed's duplicate bug: after an auto-continue, the job's final result was sent
    again; here it is dropped, while the agent's reply to the coaching is accepted."""
    ds, st = run(
        fresh(),
        (stop("running tests", job_id="j1"), status()),
        (stop("final SDK result", job_id="j1", ts=1001), delivered("completion")),
        (stop("12 passed", job_id="j1", ts=1002, stop_hook_active=True), delivered("completion")),
        (stop("12 passed", job_id="j1", ts=1003, stop_hook_active=True), delivered("completion")),
    )
    assert [d.kind for d in ds] == ["continue", "drop", "deliver", "drop"]
    assert "not the reply" in ds[1].why
    assert st.job("j1") is not None and st.job("j1").status == "closed"  # type: ignore[union-attr]


def test_each_reply_is_consumed_once() -> None:
    reply = {"job_id": "j1", "stop_hook_active": True}
    ds, _ = run(
        fresh(),
        (stop("a", job_id="j1"), status()),
        (stop("b", ts=1001, **reply), status()),
        (stop("c", ts=1002, **reply), status()),
        (stop("d", ts=1003, job_id="j1"), status()),
    )
    assert [d.kind for d in ds] == ["continue", "continue", "continue", "drop"]


def test_identical_redelivery_of_a_job_is_dropped() -> None:
    ds, _ = run(
        fresh(),
        (stop("Should I use Postgres?", job_id="j1"), delivered("question")),
        (stop("Should I use  Postgres?", job_id="j1", ts=1001), delivered("question")),
        (stop("Or SQLite?", job_id="j1", ts=1002), delivered("question")),
    )
    assert [d.kind for d in ds] == ["deliver", "drop", "deliver"]


def test_identical_text_is_never_continued_twice_in_a_row() -> None:
    ds, st = run(
        fresh(), (stop("still working"), status()), (stop("still  working", ts=1001), status())
    )
    assert [d.kind for d in ds] == ["continue", "deliver"]
    assert "repeated" in ds[1].text and st.continues == 1
    ds, _ = run(
        fresh(),
        (stop("a"), status()),
        (stop("b", ts=1001), status()),
        (stop("a", ts=1002), status()),
    )
    assert [d.kind for d in ds] == ["continue"] * 3  # not in a row: allowed


def test_errors_bypass_the_duplicate_gate() -> None:
    ds, st = run(
        fresh(),
        (stop("done", job_id="j1"), delivered("completion")),
        (stop("", job_id="j1", kind="StopFailure", error="overloaded", ts=1001), status()),
    )
    assert [d.kind for d in ds] == ["deliver", "deliver"] and st.status == "failed"


def test_context_survives_every_continuation() -> None:
    st, _ = on_human(
        None,
        HumanMessage(
            SID, "/do-build the parser", skill="/do-build", plan_file="docs/plan.md", timestamp=900
        ),
    )
    for i in range(3):
        ctx = context_for(st, stop(f"s{i}"))
        assert (ctx.prompt, ctx.skill, ctx.plan_file) == (
            "/do-build the parser",
            "/do-build",
            "docs/plan.md",
        )
        _, st = decide(st, stop(f"s{i}", ts=1000 + i, phase="build"), status())
    assert context_for(st, stop("x")).phase == "build"  # context found at a stop is kept too
    # A chat reply replaces the prompt but keeps the workflow; a new skill replaces it.
    st, _ = on_human(st, HumanMessage(SID, "yes, go on", source="chat", timestamp=1100))
    ctx = context_for(st, stop("x"))
    assert (ctx.prompt, ctx.skill, ctx.plan_file) == ("yes, go on", "/do-build", "docs/plan.md")
    st, _ = on_human(st, HumanMessage(SID, "/do-docs", skill="/do-docs", timestamp=1200))
    assert context_for(st, stop("x")).skill == "/do-docs"
    assert context_for(None, stop("x", kind="StopFailure", error="e")).event == "StopFailure"


def test_decide_is_pure_and_checks_the_session() -> None:
    st = fresh()
    assert decide(st, stop(), status()) == decide(st, stop(), status())
    assert st == fresh()
    with pytest.raises(ValueError, match="session"):
        decide(st, StopEvent("other", text="x"), status())
    with pytest.raises(ValueError, match="session"):
        on_human(st, HumanMessage("other", "hi"))


def test_state_json_round_trip() -> None:
    st, _ = on_human(None, HumanMessage(SID, "go", skill="/do-build", timestamp=1.0))
    _, st = run(
        st,
        (stop("a", job_id="j1"), status()),
        (stop("b", job_id="j2", ts=1001), delivered("question")),
    )
    st = replace(st, flags=("silent",))
    again = SessionState.from_dict(json.loads(json.dumps(st.to_dict())))
    assert again == st
    assert SessionState.from_dict({"session_id": "x", "future_field": 1}).session_id == "x"


def test_job_ledger_is_bounded() -> None:
    st = fresh()
    for i in range(100):
        _, st = decide(st, stop(f"q{i}", job_id=f"j{i}", ts=1000 + i), delivered("question"))
    assert len(st.jobs) == MAX_JOBS == 16 and st.jobs[-1].job_id == "j99"


def test_event_and_decision_invariants() -> None:
    for bad in ("", "   "):
        with pytest.raises(ValueError, match="session_id"):
            StopEvent(bad, text="x")
        with pytest.raises(ValueError, match="session_id"):
            HumanMessage(bad, "x")
    with pytest.raises(ValueError, match="kind"):
        StopEvent("s", kind="Done")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="source"):
        HumanMessage("s", "x", source="email")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="job_id"):
        StopEvent("s", job_id="")
    with pytest.raises(ValueError):
        Decision("drop", "text", "why")
    with pytest.raises(ValueError):
        Decision("continue", " ", "why")
    assert Decision.from_dict(Decision("deliver", "t", "w", ("n",)).to_dict()).notices == ("n",)
