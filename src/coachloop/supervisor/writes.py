"""Every change to a session, each as one store transaction: state, records, outbox.

The store persists; these functions compute what to write (through the pure policy
for stops and human messages) and commit it with `Store.transact`. Only the
`Supervisor` calls them, so every change to a session passes one door and gets its
snapshot there. Standard library only (the hook path).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from coachloop.core.events import HumanMessage, StopEvent
from coachloop.core.session import Decision, SessionState, SessionStatus, evolve
from coachloop.store.base import UnknownSession
from coachloop.store.records import EventRecord, Life, OutboxKind, Write, clip, verdict_dict
from coachloop.supervisor.policy import Policy, decide, on_human

if TYPE_CHECKING:
    from coachloop.core.verdict import Verdict
    from coachloop.store.base import Store

WATCHDOG_NOTE = "[coachloop watchdog]"
LifeFn = Callable[[Decision, SessionState], Life | None]


@dataclass(frozen=True, slots=True)
class StopResult:
    """The committed outcome of one stop: its timeline record id, decision, next state."""

    event_id: int
    decision: Decision
    state: SessionState


REPLAYED = "the same stop again (a retry): the recorded answer, not a second decision"


def _outbox(decision: Decision) -> tuple[tuple[OutboxKind, str], ...]:
    items: list[tuple[OutboxKind, str]] = []
    if decision.kind == "deliver":
        items.append(("deliver", decision.text))
    items.extend(("notice", n) for n in decision.notices)
    return tuple(items)


def _existing(store: Store, session_id: str, state: SessionState | None) -> SessionState:
    if state is None:
        raise UnknownSession(session_id, store.location)
    return state


def record_stop(
    store: Store,
    event: StopEvent,
    verdict: Verdict,
    policy: Policy | None = None,
    tool_run: tuple[str, int] | None = None,
    *,
    life: LifeFn | None = None,
) -> StopResult:
    """Decide on `event` with the policy and commit the new state, one "stop" record and
    its outbox messages in one transaction (the session is created when new).
    `tool_run` is the turn's longest run of one tool call (`watchdog.tool_run`), kept in
    the state for the watchdog; a run of another call clears "repeat", and None (no
    record read) leaves both alone. `life` makes the stop's lifecycle record from the
    decision and new state, committed with it."""
    pol = policy or Policy()

    def fn(state: SessionState | None) -> tuple[Write | None, tuple[Decision, SessionState]]:
        if state is not None and event.stop_id and state.last_stop_id == event.stop_id:
            return None, (replayed(state), state)  # decided already: the same answer
        current = state or SessionState.new(
            event.session_id,
            event.timestamp,
            agent=event.agent,
            project=event.project,
            cwd=event.cwd,
        )
        decision, new = decide(current, event, verdict, pol)
        new = _tool_run(new, tool_run)
        if event.stop_id is not None:  # durable with the decision, before any reply
            reply = decision.text if decision.blocks else None
            new = evolve(new, last_stop_id=event.stop_id, last_reply=reply)
        record = EventRecord(
            id=0,
            session_id=event.session_id,
            kind="stop",
            ts=event.timestamp,
            recorded_at=time.time(),
            text=clip(event.text),
            job_id=event.job_id,
            source=verdict.source,
            verdict=verdict_dict(verdict),
            decision=decision.kind,
            why=decision.why,
            message=clip(decision.text),
            notices=decision.notices,
        )
        packed = life(decision, new) if life is not None else None
        return Write(new, (record,), _outbox(decision), packed), (decision, new)

    (decision, new), ids = store.transact(event.session_id, fn, project=event.project)
    return StopResult(ids[0] if ids else 0, decision, new)


def replayed(state: SessionState) -> Decision:
    """The answer a stop already recorded as `state.last_stop_id` got: its coaching
    again, else a drop (a delivery is never made twice). Writes nothing."""
    if state.last_reply:
        return Decision("continue", state.last_reply, REPLAYED)
    return Decision("drop", "", REPLAYED)


def _tool_run(state: SessionState, run: tuple[str, int] | None) -> SessionState:
    if run is None:
        return state
    signature, count = run
    flags = state.flags
    if signature != state.tool_signature:
        flags = tuple(f for f in flags if f != "repeat")
    return evolve(state, tool_signature=signature, tool_repeats=count, flags=flags)


def record_human(store: Store, msg: HumanMessage) -> tuple[SessionState, int]:
    """Record a human message (resets the auto-continue count); returns the new state
    and the record id. Creates the session when it is new."""

    def fn(state: SessionState | None) -> tuple[Write, SessionState]:
        new, notices = on_human(state, msg)
        record = EventRecord(
            id=0,
            session_id=msg.session_id,
            kind="human",
            ts=msg.timestamp,
            recorded_at=time.time(),
            text=clip(msg.text),
            source=msg.source,
            notices=notices,
        )
        return Write(new, (record,), tuple(("notice", n) for n in notices)), new

    new, ids = store.transact(msg.session_id, fn, project=msg.project)
    return new, ids[0]


def flag(
    store: Store, session_id: str, alerts: Mapping[str, str], now: float | None = None
) -> tuple[tuple[str, ...], int | None]:
    """Raise watchdog conditions (condition -> message). Conditions already flagged are
    skipped; the new ones are marked and delivered together as ONE outbox alert.
    Returns the newly flagged conditions (empty when nothing was new) and the alert's
    record id (None when nothing was written)."""
    ts = time.time() if now is None else now

    def fn(state: SessionState | None) -> tuple[Write | None, tuple[str, ...]]:
        st = _existing(store, session_id, state)
        new_conds = tuple(c for c in alerts if c not in st.flags)
        if not new_conds:
            return None, ()
        text = f"{WATCHDOG_NOTE} " + " ".join(alerts[c] for c in new_conds)
        record = EventRecord(
            id=0,
            session_id=session_id,
            kind="alert",
            ts=ts,
            recorded_at=time.time(),
            source="watchdog",
            why=", ".join(new_conds),
            message=text,
        )
        new = evolve(st, flags=st.flags + new_conds)
        return Write(new, (record,), (("alert", text),)), new_conds

    raised, ids = store.transact(session_id, fn)
    return raised, (ids[0] if ids else None)


def set_status(
    store: Store,
    session_id: str,
    status: SessionStatus,
    why: str,
    now: float | None = None,
    *,
    source: str = "watchdog",
) -> int:
    """Change a session's status outside a stop (e.g. mark it abandoned), with a record;
    returns the record id. `UnknownSession` when the session does not exist."""
    ts = time.time() if now is None else now

    def fn(state: SessionState | None) -> tuple[Write, None]:
        st = _existing(store, session_id, state)
        record = EventRecord(
            id=0,
            session_id=session_id,
            kind="status",
            ts=ts,
            recorded_at=time.time(),
            source=source,
            why=why,
            message=status,
        )
        return Write(evolve(st, status=status), (record,)), None

    return store.transact(session_id, fn)[1][0]


def notice(
    store: Store,
    session_id: str,
    text: str,
    detail: str,
    *,
    agent: str,
    project: str,
    cwd: str,
    now: float | None = None,
) -> int:
    """The agent waits for the human (a permission or idle prompt): deliver `text`
    (outbox "notice") and record it as an "alert" record with source "notification"; a
    running session becomes "waiting". Creates the session when new. Returns the record id."""
    ts = time.time() if now is None else now

    def fn(state: SessionState | None) -> tuple[Write, None]:
        st = state or SessionState.new(session_id, ts, agent=agent, project=project, cwd=cwd)
        status = "waiting" if st.status == "running" else st.status
        st = evolve(st, status=status, updated_at=max(st.updated_at, ts))
        record = EventRecord(
            0,
            session_id,
            "alert",
            ts,
            time.time(),
            source="notification",
            why=detail,
            message=clip(text),
        )
        return Write(st, (record,), (("notice", text),)), None

    return store.transact(session_id, fn, project=project)[1][0]


def opened(
    store: Store,
    session_id: str,
    why: str,
    *,
    agent: str,
    project: str,
    cwd: str,
    now: float | None = None,
) -> tuple[SessionState, int] | None:
    """A session opened: created, or reopened when "done" or "abandoned", as "waiting"
    for its first prompt, with a "status" record; a live session is left alone (None)."""
    ts = time.time() if now is None else now

    def fn(state: SessionState | None) -> tuple[Write | None, SessionState | None]:
        if state is not None and state.status not in ("done", "abandoned"):
            return None, None
        st = state or SessionState.new(session_id, ts, agent=agent, project=project, cwd=cwd)
        st = evolve(st, status="waiting", cwd=cwd or st.cwd, updated_at=max(st.updated_at, ts))
        record = _status_record(session_id, ts, agent, why, "waiting")
        return Write(st, (record,)), st

    new, ids = store.transact(session_id, fn, project=project)
    return (new, ids[0]) if new is not None else None


def closed(
    store: Store, session_id: str, why: str, *, agent: str, now: float | None = None
) -> tuple[SessionState, int] | None:
    """A session closed: marked "done" (a failed one stays "failed" until a human
    message), with a "status" record. An unknown session is not created (None)."""
    ts = time.time() if now is None else now

    def fn(state: SessionState | None) -> tuple[Write | None, SessionState | None]:
        if state is None:
            return None, None  # never create a session only to close it
        status: SessionStatus = "failed" if state.status == "failed" else "done"
        st = evolve(state, status=status, updated_at=max(state.updated_at, ts))
        return Write(st, (_status_record(session_id, ts, agent, why, status),)), st

    new, ids = store.transact(session_id, fn)
    return (new, ids[0]) if new is not None else None


def _status_record(session_id: str, ts: float, source: str, why: str, status: str) -> EventRecord:
    return EventRecord(
        0, session_id, "status", ts, time.time(), source=source, why=why, message=status
    )
