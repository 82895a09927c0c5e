"""Steering a running session: the human's messages queued while its turn runs.

A human message for a session whose turn is in progress (a chat reply, a message in a
chat mapped to the project, `coachloop say`) is not run as a new turn: `queue` adds it
to the session's steering queue (`SessionState.steering`, stored with the state, so it
survives any restart of the daemon or the bridge). The agent gets the queued messages at
the first point it offers:

- `take_mid_turn`: after a tool call (Claude Code's `PostToolUse` hook adds them to the
  running turn as context);
- `take_at_stop`: at its next stop, before any judging: the stop is decided "continue"
  with the messages as the reason (`[Human] …`, in order), recorded with what was
  injected.

Either way the messages count as the human speaking: the auto-continue count resets and
the prompt context becomes their text, as for any human message. Taking the queue
empties it in the same store transaction that records the injection, so two hooks racing
for it (or a hook retried after a crash) never inject a message twice, and a message
queued just after is kept for the next point. The key of every message queued is
remembered for a while (`KEEP_KEYS`): the same chat message handled twice is queued once.

Pure functions over `SessionState` plus the transactions that apply them; standard
library only (it runs on the hook path).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Literal

from coachloop.core.events import HumanMessage
from coachloop.core.session import Decision, SessionState, Steer, continue_with
from coachloop.supervisor.policy import on_human

if TYPE_CHECKING:
    from coachloop.core.events import StopEvent
    from coachloop.store import Store
    from coachloop.store.records import Write

HUMAN = "[Human]"
MAX_QUEUED = 50  # messages waiting for one session; more are refused, never dropped
MAX_STEER_CHARS = 4_000  # characters kept of one queued message
KEEP_KEYS = 64  # keys of recently queued messages remembered against re-sends
Queued = Literal["queued", "duplicate", "idle", "full"]


class SteeringError(ValueError):
    """A message that cannot be queued (empty)."""


@dataclass(frozen=True, slots=True)
class Taken:
    """What a take handed to the agent: the messages, their text, the record id."""

    steers: tuple[Steer, ...]
    text: str
    event_id: int


def injection(steers: tuple[Steer, ...]) -> str:
    """The queued messages as the agent reads them: one `[Human] …` paragraph each, in
    the order they were sent (a coaching message starts with `[System Coach]`)."""
    return "\n\n".join(f"{HUMAN} {s.text.strip()}" for s in steers)


def in_progress(state: SessionState | None) -> bool:
    """True when the session's turn is running (no stop has handed it to the human)."""
    return state is not None and state.status == "running"


def enqueue(state: SessionState, steer: Steer) -> tuple[SessionState, Queued]:
    """`state` with `steer` appended to its queue ("queued"), or unchanged when the
    same key was queued before ("duplicate") or the queue is full ("full")."""
    if steer.key in state.steered or any(q.key == steer.key for q in state.steering):
        return state, "duplicate"
    if len(state.steering) >= MAX_QUEUED:
        return state, "full"
    steered = (*state.steered, steer.key)[-KEEP_KEYS:]
    # `updated_at` stays: it is the agent's last activity (a queued message is not)
    new = replace(state, steering=(*state.steering, steer), steered=steered)
    return new, "queued"


def handed(state: SessionState, steers: tuple[Steer, ...], now: float) -> SessionState:
    """The state once `steers` reached the agent: the queue without them, and the human
    message they make (the cap resets, the prompt becomes their text)."""
    msg = HumanMessage(
        state.session_id,
        "\n\n".join(s.text for s in steers),
        source="chat",
        agent=state.agent or "claude-code",
        project=state.project,
        timestamp=now,
    )
    new, _ = on_human(state, msg)
    keys = {s.key for s in steers}
    return replace(new, steering=tuple(q for q in state.steering if q.key not in keys))


def queue(
    store: Store,
    session_id: str,
    text: str,
    *,
    key: str,
    source: str = "chat",
    running: bool | None = None,
    now: float | None = None,
) -> Queued:
    """Queue `text` for `session_id` when its turn runs; "idle" (nothing written) when
    it does not: the caller starts a turn as for any message. `running` True or False
    overrides the stored status (the bridge knows its own turns). `UnknownSession` for
    a session the store does not hold."""
    from coachloop.store.records import EventRecord, Write

    body = text.strip()[:MAX_STEER_CHARS]
    if not body:
        raise SteeringError("an empty message cannot steer a session")
    ts = time.time() if now is None else now

    def fn(state: SessionState | None) -> tuple[Write | None, Queued]:
        if state is None:
            from coachloop.store import UnknownSession

            raise UnknownSession(session_id, store.location)
        busy = in_progress(state) if running is None else running
        if not busy:
            return None, "idle"
        new, outcome = enqueue(state, Steer(key, body, source, ts))
        if outcome != "queued":
            return None, outcome
        why = f"queued: the turn is running; {len(new.steering)} waiting for the agent"
        rec = EventRecord(0, session_id, "human", ts, time.time(), body, source=source, why=why)
        return Write(new, (rec,)), outcome

    return store.transact(session_id, fn)[0]


def take_mid_turn(store: Store, session_id: str, where: str, now: float | None = None) -> Taken:
    """Hand the queued messages to the running turn (`where` names the point, e.g.
    "after a tool call"): empties the queue and records a human message, in one
    transaction. An empty `Taken` (no messages, event id 0) when nothing is queued."""
    from coachloop.store.records import EventRecord, Write

    ts = time.time() if now is None else now

    def fn(state: SessionState | None) -> tuple[Write | None, tuple[Steer, ...]]:
        if state is None or not state.steering:
            return None, ()
        steers = state.steering
        text = injection(steers)
        why = f"handed to the agent {where}: {len(steers)} queued message(s)"
        rec = EventRecord(0, session_id, "human", ts, time.time(), text, source="steering", why=why)
        return Write(handed(state, steers, ts), (rec,)), steers

    steers, ids = store.transact(session_id, fn)
    return Taken(steers, injection(steers), ids[0] if ids else 0)


def take_at_stop(store: Store, event: StopEvent) -> tuple[Taken, Decision | None]:
    """At a stop, before judging: when messages are queued, decide "continue" with them
    as the reason and record the stop with what was injected (one transaction). Returns
    the messages taken and the decision (None: nothing queued, judge as usual)."""
    from coachloop.store.records import EventRecord, Write, clip

    def fn(state: SessionState | None) -> tuple[Write | None, tuple[Steer, ...]]:
        if state is None or not state.steering:
            return None, ()
        steers = state.steering
        text = injection(steers)
        new = handed(state, steers, event.timestamp)
        new = replace(
            new,
            stops=state.stops + 1,
            last_decision="continue",
            cwd=event.cwd or state.cwd,
        )
        why = f"human steering: {len(steers)} message(s) queued during the turn, handed over"
        rec = EventRecord(
            0,
            event.session_id,
            "stop",
            event.timestamp,
            time.time(),
            clip(event.text),
            job_id=event.job_id,
            source="steering",
            decision="continue",
            why=why,
            message=text,
        )
        return Write(new, (rec,)), steers

    steers, ids = store.transact(event.session_id, fn, project=event.project)
    if not steers:
        return Taken((), "", 0), None
    text = injection(steers)
    decision = continue_with(text, f"human steering: {len(steers)} queued message(s)")
    return Taken(steers, text, ids[0]), decision
