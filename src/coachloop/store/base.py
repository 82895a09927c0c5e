"""The `Store` protocol and the logic shared by every backend.

A backend implements a handful of primitives, chiefly `transact`: read one session's
state, let a function compute what to write, and commit the new state, timeline records
and outbox messages atomically — or retry if another writer got there first. `StoreBase`
builds the supervisor's operations on it (`record_stop`, `record_human`, `flag`,
`record_tool_call`, `set_status`), so both backends share one behaviour and the
concurrency guarantee rests in a single place per backend.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Protocol, TypeVar

from coachloop.core.events import HumanMessage, StopEvent
from coachloop.core.session import Decision, SessionState, SessionStatus
from coachloop.store.records import (
    EventRecord,
    JobSummary,
    OutboxEntry,
    OutboxKind,
    Write,
    clip,
    job_summaries,
    verdict_dict,
)
from coachloop.supervisor.policy import Policy, decide, on_human

if TYPE_CHECKING:
    from coachloop.core.verdict import Verdict

R = TypeVar("R")
TxnFn = Callable[[SessionState | None], tuple[Write | None, R]]
Cursor = tuple[float, str]  # (updated_at, session_id) of the last session of a page
StepFn = Callable[[SessionState, StopEvent, "Verdict", Policy], tuple[Decision, SessionState]]


class StoreError(RuntimeError):
    """The store cannot be used (not a database, unreachable, newer schema, ...)."""


class UnknownSession(StoreError):  # noqa: N818 - reads as a sentence: raise UnknownSession
    """No session with this id exists in the store."""

    def __init__(self, session_id: str, location: str = "") -> None:
        where = f" in {location}" if location else ""
        super().__init__(f"unknown session {session_id!r}{where}")
        self.session_id = session_id


@dataclass(frozen=True, slots=True)
class StopResult:
    """The committed outcome of one stop: its timeline record id, decision, next state."""

    event_id: int
    decision: Decision
    state: SessionState


class Store(Protocol):
    """Sessions, their timelines, the delivery outbox, watchdog flags and counters.

    Every method that changes a session does so in one atomic transaction; concurrent
    writers (threads, processes, machines) never lose an update. Reading or changing a
    session that does not exist raises `UnknownSession` (stops and human messages create
    their session).
    """

    location: str

    def transact(
        self, session_id: str, fn: TxnFn[R], *, project: str = ""
    ) -> tuple[R, tuple[int, ...]]: ...
    def get_session(self, session_id: str) -> SessionState: ...
    def list_sessions(self, project: str | None = None) -> list[SessionState]: ...
    def session_page(
        self, limit: int, before: Cursor | None = None, project: str | None = None
    ) -> list[SessionState]: ...
    def trim_outbox(self, sent_before: float, limit: int = 1000) -> int: ...
    def timeline(self, session_id: str, limit: int | None = None) -> list[EventRecord]: ...
    def outbox_pending(self, limit: int = 100) -> list[OutboxEntry]: ...
    def mark_sent(self, entry_id: int, sent_at: float | None = None) -> None: ...
    def delete_session(self, session_id: str) -> None: ...
    def claim(self, name: str, interval: float, now: float | None = None) -> bool: ...
    def close(self) -> None: ...
    def record_stop(
        self,
        event: StopEvent,
        verdict: Verdict,
        policy: Policy | None = None,
        step: StepFn | None = None,
    ) -> StopResult: ...
    def record_human(self, msg: HumanMessage) -> tuple[SessionState, int]: ...
    def record_tool_call(
        self, session_id: str, signature: str, now: float | None = None
    ) -> int: ...
    def flag(
        self, session_id: str, alerts: Mapping[str, str], now: float | None = None
    ) -> tuple[str, ...]: ...
    def set_status(
        self, session_id: str, status: SessionStatus, why: str, now: float | None = None
    ) -> None: ...
    def jobs(self, session_id: str) -> list[JobSummary]: ...


def _outbox(decision: Decision) -> tuple[tuple[OutboxKind, str], ...]:
    items: list[tuple[OutboxKind, str]] = []
    if decision.kind == "deliver":
        items.append(("deliver", decision.text))
    items.extend(("notice", n) for n in decision.notices)
    return tuple(items)


class StoreBase(ABC):
    """The supervisor's operations, built on a backend's `transact`."""

    location: str = ""

    @abstractmethod
    def transact(
        self, session_id: str, fn: TxnFn[R], *, project: str = ""
    ) -> tuple[R, tuple[int, ...]]:
        """Atomically: state = load(session_id) or None; (write, result) = fn(state);
        commit `write` unless None. Returns (result, ids of the records written).
        `fn` may run more than once (on a conflict) and must be pure. `project` names the
        namespace of a session not yet stored."""

    @abstractmethod
    def get_session(self, session_id: str) -> SessionState:
        """The stored state of a session; `UnknownSession` if there is none."""

    @abstractmethod
    def list_sessions(self, project: str | None = None) -> list[SessionState]:
        """Every session (of `project` when given), most recently active first."""

    @abstractmethod
    def session_page(
        self, limit: int, before: Cursor | None = None, project: str | None = None
    ) -> list[SessionState]:
        """At most `limit` sessions (of `project` when given), most recently active first
        (ties by session id, descending), strictly after the cursor `before`: the
        (updated_at, session_id) of the last session of the previous page. Reads only the
        page (an index), so paging a million sessions costs the same per page."""

    @abstractmethod
    def trim_outbox(self, sent_before: float, limit: int = 1000) -> int:
        """Delete at most `limit` outbox entries delivered before `sent_before` (unsent
        ones are never touched); returns how many went."""

    @abstractmethod
    def timeline(self, session_id: str, limit: int | None = None) -> list[EventRecord]:
        """The session's records in commit order (the last `limit` when given)."""

    @abstractmethod
    def outbox_pending(self, limit: int = 100) -> list[OutboxEntry]:
        """Unsent outbox entries, oldest first."""

    @abstractmethod
    def mark_sent(self, entry_id: int, sent_at: float | None = None) -> None:
        """Mark an entry delivered (idempotent); an unknown id raises `StoreError`."""

    @abstractmethod
    def delete_session(self, session_id: str) -> None:
        """Forget a session's state and timeline (pending outbox entries are kept)."""

    @abstractmethod
    def claim(self, name: str, interval: float, now: float | None = None) -> bool:
        """True for at most one caller per `interval` seconds (periodic jobs such as the
        snapshot cleanup run once across all processes)."""

    @abstractmethod
    def close(self) -> None:
        """Release the connection."""

    def __enter__(self) -> StoreBase:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def record_stop(
        self,
        event: StopEvent,
        verdict: Verdict,
        policy: Policy | None = None,
        step: StepFn | None = None,
    ) -> StopResult:
        """Decide on `event` (with `step`, the policy's `decide` by default) and commit the
        new state, one "stop" record and its outbox messages in one transaction."""
        run = step or decide
        pol = policy or Policy()

        def fn(state: SessionState | None) -> tuple[Write, tuple[Decision, SessionState]]:
            current = state or SessionState.new(
                event.session_id,
                event.timestamp,
                agent=event.agent,
                project=event.project,
                cwd=event.cwd,
            )
            decision, new = run(current, event, verdict, pol)
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
            return Write(new, (record,), _outbox(decision)), (decision, new)

        (decision, new), ids = self.transact(event.session_id, fn, project=event.project)
        return StopResult(ids[0], decision, new)

    def record_human(self, msg: HumanMessage) -> tuple[SessionState, int]:
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

        new, ids = self.transact(msg.session_id, fn, project=msg.project)
        return new, ids[0]

    def jobs(self, session_id: str) -> list[JobSummary]:
        """The session's jobs with their stops and decisions (`UnknownSession` if none)."""
        return job_summaries(self.get_session(session_id), self.timeline(session_id))

    def _existing(self, session_id: str, state: SessionState | None) -> SessionState:
        if state is None:
            raise UnknownSession(session_id, self.location)
        return state

    def record_tool_call(self, session_id: str, signature: str, now: float | None = None) -> int:
        """Note a tool call; returns how many times in a row this signature was seen.
        A different signature clears the session's "repeat" watchdog flag."""
        ts = time.time() if now is None else now

        def fn(state: SessionState | None) -> tuple[Write, int]:
            st = self._existing(session_id, state)
            if st.tool_signature == signature:
                new = replace(st, tool_repeats=st.tool_repeats + 1)
            else:
                flags = tuple(f for f in st.flags if f != "repeat")
                new = replace(st, tool_signature=signature, tool_repeats=1, flags=flags)
            new = replace(new, updated_at=max(st.updated_at, ts))
            return Write(new), new.tool_repeats

        return self.transact(session_id, fn)[0]

    def flag(
        self, session_id: str, alerts: Mapping[str, str], now: float | None = None
    ) -> tuple[str, ...]:
        """Raise watchdog conditions (condition -> message). Conditions already flagged are
        skipped; the new ones are marked and delivered together as ONE outbox alert.
        Returns the newly flagged conditions (empty when nothing was new)."""
        ts = time.time() if now is None else now

        def fn(state: SessionState | None) -> tuple[Write | None, tuple[str, ...]]:
            st = self._existing(session_id, state)
            new_conds = tuple(c for c in alerts if c not in st.flags)
            if not new_conds:
                return None, ()
            text = "[coachloop watchdog] " + " ".join(alerts[c] for c in new_conds)
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
            new = replace(st, flags=st.flags + new_conds)
            return Write(new, (record,), (("alert", text),)), new_conds

        return self.transact(session_id, fn)[0]

    def set_status(
        self, session_id: str, status: SessionStatus, why: str, now: float | None = None
    ) -> None:
        """Change a session's status outside a stop (e.g. mark it abandoned), with a record."""
        ts = time.time() if now is None else now

        def fn(state: SessionState | None) -> tuple[Write, None]:
            st = self._existing(session_id, state)
            record = EventRecord(
                id=0,
                session_id=session_id,
                kind="status",
                ts=ts,
                recorded_at=time.time(),
                source="watchdog",
                why=why,
                message=status,
            )
            return Write(replace(st, status=status), (record,)), None

        self.transact(session_id, fn)
