"""The supervisor service: the one door to session state.

Every change to a session passes here: stops (with their context: can the agent be sent
back? is it a subagent?), human messages, the agent waiting for the human, sessions
opening and closing, watchdog flags and status changes, outbox deliveries. Each is one
store transaction (`coachloop.supervisor.writes`) followed by its lifecycle snapshot.
Code elsewhere reads through `reads` (a read-only view of the store) and never writes
to the store itself.

Per stop: read the session's stored context to build the judge's input (`context`), let
the judge run outside any lock (an LLM call may take seconds), then `on_stop` commits the
decision in one store transaction (state, timeline record, outbox entries) and writes the
lifecycle snapshot. The periodic jobs (`maintain`: the watchdog every 5 minutes, the
retention cleanup every hour, each claimed in the store so one process among many runs
it) never run inside a stop: the daemon and `serve` run them in the background, in
steps of bounded work, and `coachloop maintain` on demand. Snapshot or maintenance
failures are logged and never change or lose a decision.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from coachloop import snapshots
from coachloop.core.events import HumanMessage, StopEvent
from coachloop.core.judge_input import JudgeInput
from coachloop.core.session import Decision, SessionState, SessionStatus
from coachloop.redaction import redact
from coachloop.snapshot_pack import pack, pack_stop
from coachloop.store.records import COMMITTED_STATE, Life
from coachloop.supervisor import watchdog, writes
from coachloop.supervisor.human import HumanDoor
from coachloop.supervisor.maintenance import PURGE_MIN, Maintained
from coachloop.supervisor.policy import Policy, context_for
from coachloop.supervisor.writes import StopResult

if TYPE_CHECKING:
    from collections.abc import Mapping

    from coachloop.config import Settings
    from coachloop.core.record import TurnRecord
    from coachloop.core.verdict import Verdict
    from coachloop.store.base import Store, StoreReader

log = logging.getLogger("coachloop.supervisor")
ENV_RETENTION = "COACHLOOP_SNAPSHOT_RETENTION_DAYS"


def lifecycle(event: StopEvent, verdict: Verdict, decision: Decision) -> str:
    """The snapshot event of a decided stop."""
    if decision.kind == "continue":
        return "auto_continue"
    if decision.kind == "drop":
        return "drop"
    if verdict.type == "error" or event.failed:
        return "error"
    return "complete" if verdict.type == "completion" else "deliver"


def redacted_stop(event: StopEvent) -> StopEvent:
    """`event` with its agent text and error redacted (`coachloop.redaction`): the door
    every stop passes before it is stored, snapshotted or delivered."""
    text = redact(event.text)
    error = redact(event.error) if event.error else event.error
    if text == event.text and error == event.error:
        return event
    return replace(event, text=text, error=error)


def retention_days(project: Path | None = None) -> float:
    """The snapshot retention: `COACHLOOP_SNAPSHOT_RETENTION_DAYS`, else `[snapshots]
    retention_days` in the config files, else 7 days. A bad value raises `ConfigError`."""
    from coachloop.config import ConfigError, config_table
    from coachloop.config.env import environment

    raw = environment().snapshot_retention_days
    if raw is None:  # the files are read only when the variable is unset, as before
        raw = config_table("snapshots", project).get("retention_days")
    try:
        value = float(raw) if raw is not None else snapshots.DEFAULT_RETENTION_DAYS
    except (TypeError, ValueError) as exc:
        raise ConfigError(f"snapshot retention_days must be a number, got {raw!r}") from exc
    if value < 0:
        raise ConfigError(f"snapshot retention_days must not be negative, got {value}")
    return value


class Supervisor(Maintained, HumanDoor):
    """Decides every stop of every session within the policy's caps, and records it.

    `snapshot_root` None means `$COACHLOOP_HOME/sessions`; `snapshots_on=False` turns
    snapshots off. `limits` are the watchdog's. `clock` is injectable for tests.
    """

    def __init__(
        self,
        store: Store,
        policy: Policy | None = None,
        *,
        snapshots_on: bool = True,
        snapshot_root: Path | None = None,
        retention_days: float = snapshots.DEFAULT_RETENTION_DAYS,
        cleanup_interval: float = 3600.0,
        watchdog_interval: float = 300.0,
        limits: watchdog.Limits | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._store = store
        self.policy = policy or Policy()
        self.snapshots_on = snapshots_on
        self.snapshot_root = snapshot_root
        self.retention_days = retention_days
        self.cleanup_interval = cleanup_interval
        self.watchdog_interval = watchdog_interval
        self.limits = limits or watchdog.Limits()
        self.clock = clock
        self._next_walk = 0.0  # no store round trip for a claim before these times
        self._next_cleanup = 0.0
        self._walking = False  # a watchdog walk is under way; its place:
        self._cursor = None
        self._trimming = False
        self._purging = True  # rows a forgetting left (another run's too): looked for once
        self._purge_batch = PURGE_MIN * 2  # rows per purge write, sized to its time (`_purge`)

    @classmethod
    def open(
        cls,
        project: Path | str | None = None,
        *,
        store: str | None = None,
        settings: Settings | None = None,
    ) -> Supervisor:
        """The supervisor configured for `project`: its settings (the auto-continue cap;
        `settings` when the caller has read them already), its store (`open_store`) and
        its snapshot retention (`retention_days`)."""
        from coachloop.config import load_settings
        from coachloop.store import open_store

        proj = Path(project) if project else None
        settings = settings or load_settings(proj)
        return cls(
            open_store(store, project=proj),
            Policy.from_settings(settings),
            retention_days=retention_days(proj),
        )

    @property
    def reads(self) -> StoreReader:
        """The store, to read from (sessions, timelines, pending outbox) for display."""
        return self._store

    def state(self, session_id: str) -> SessionState | None:
        """The stored state of a session, None when it is new."""
        from coachloop.store.base import UnknownSession

        try:
            return self._store.get_session(session_id)
        except UnknownSession:
            return None

    def context(self, event: StopEvent) -> JudgeInput:
        """The judge's input for `event`, with the session's stored prompt, skill and plan."""
        return context_for(self.state(event.session_id), event)

    def on_stop(
        self, event: StopEvent, verdict: Verdict, record: TurnRecord | None = None
    ) -> StopResult:
        """Decide and record one judged stop (the policy reads the stop's context:
        `event.kind` "SubagentStop", `event.can_block`); returns the committed result.
        With the turn's `record`, a turn that spun on one tool call `repeat_threshold`
        times in a row is flagged "repeat" at once (one watchdog alert). The stop's
        lifecycle record is written in the stop's own transaction. Its texts are redacted
        first (`redacted_stop`)."""
        event = redacted_stop(event)
        run = watchdog.tool_run(record)
        now = self.clock()

        def life(decision: Decision, new: SessionState) -> Life | None:
            if not self.snapshots_on:
                return None
            label = lifecycle(event, verdict, decision)
            # What the stop's timeline record and its state do not hold already: the
            # stop's context (its text, verdict, decision and time are in the record; the
            # time saved beside the body), the same text for a session's stops.
            try:
                body = pack_stop(event, label)
                return Life(label, body, now, state=COMMITTED_STATE)
            except Exception:  # a lost record must never lose the decision
                log.exception("could not save the %s snapshot of %s", label, event.session_id)
                return None

        result = writes.record_stop(self._store, event, verdict, self.policy, run, life=life)
        if run is not None and run[1] >= self.limits.repeat_threshold:
            found = watchdog.conditions(result.state, event.timestamp, self.limits)
            self.flag(event.session_id, {"repeat": found["repeat"]}, event.timestamp)
        return result

    def process(self, event: StopEvent, judge: Callable[[JudgeInput], Verdict]) -> StopResult:
        """Judge `event` with its session context, then `on_stop`."""
        return self.on_stop(event, judge(self.context(event)))

    def on_human(self, msg: HumanMessage) -> SessionState:
        """Record a human message (redacted first): resets the auto-continue count,
        replaces the prompt."""
        if msg.text != (text := redact(msg.text)):
            msg = replace(msg, text=text)
        state, event_id = writes.record_human(self._store, msg)
        self._snapshot(
            msg.session_id,
            "resume",
            {
                "event_id": event_id,
                "message": msg.to_dict(),
                "state": state.to_dict(),
            },
        )
        return state

    def on_notice(
        self, session_id: str, text: str, detail: str, *, agent: str, project: str, cwd: str
    ) -> None:
        """The agent waits for the human (`detail`: why): deliver `text` as a notice,
        record it, a running session becomes "waiting"."""
        event_id = writes.notice(
            self._store, session_id, text, detail, agent=agent, project=project, cwd=cwd
        )
        self._written(session_id, "notice", event_id, {"text": text, "detail": detail})

    def on_start(self, session_id: str, why: str, *, agent: str, project: str, cwd: str) -> None:
        """A session opened: created or reopened as "waiting" (a live one is left alone)."""
        done = writes.opened(self._store, session_id, why, agent=agent, project=project, cwd=cwd)
        if done is not None:
            self._written(session_id, "start", done[1], {"why": why}, done[0])

    def on_end(self, session_id: str, why: str, *, agent: str) -> None:
        """A session closed: "done" (a failed one stays "failed"); unknown ones are ignored."""
        done = writes.closed(self._store, session_id, why, agent=agent)
        if done is not None:
            self._written(session_id, "end", done[1], {"why": why}, done[0])

    def flag(
        self, session_id: str, alerts: Mapping[str, str], now: float | None = None
    ) -> tuple[str, ...]:
        """Raise watchdog conditions (condition -> message), the new ones as ONE alert;
        returns the newly flagged conditions."""
        raised, event_id = writes.flag(self._store, session_id, alerts, now)
        if event_id is not None:
            self._written(session_id, "alert", event_id, {"conditions": list(raised)})
        return raised

    def set_status(
        self, session_id: str, status: SessionStatus, why: str, now: float | None = None
    ) -> None:
        """Change a session's status outside a stop (abandoned, stopped from the chat)."""
        event_id = writes.set_status(self._store, session_id, status, why, now)
        self._written(session_id, "status", event_id, {"status": status, "why": why})

    def forget(self, session_id: str, idle_before: float | None = None) -> bool:
        """Forget a session's state and timeline (the retention cleanup). With
        `idle_before`, only while the session is still idle since then (no stop came
        since the watchdog read it), in one short write: the rows it leaves go in later
        maintenance steps (`Store.forget_session`, `purge_forgotten`). True when
        forgotten."""
        if idle_before is None:
            self._store.delete_session(session_id)
            return True
        gone = self._store.forget_session(session_id, idle_before)
        self._purging = self._purging or gone
        return gone

    def mark_sent(self, entry_id: int, sent_at: float | None = None) -> None:
        """An outbox entry reached the human's chat (idempotent)."""
        self._store.mark_sent(entry_id, sent_at)

    def close(self) -> None:
        """Release the store."""
        self._store.close()

    def _written(
        self,
        session_id: str,
        label: str,
        event_id: int,
        data: dict[str, object],
        state: SessionState | None = None,
    ) -> None:
        """The snapshot of a change made outside a stop (with the session's new state)."""
        if not self.snapshots_on:
            return
        st = state or self.state(session_id)
        body: dict[str, object] = {"event_id": event_id, **data}
        if st is not None:
            body["state"] = st.to_dict()
        self._snapshot(session_id, label, body)

    def _snapshot(self, session_id: str, label: str, data: dict[str, object]) -> None:
        if not self.snapshots_on:
            return
        now = self.clock()
        body = dict(data)
        event_id = body.pop("event_id", 0)
        try:
            packed = pack(session_id, label, body, now)
            ident = event_id if isinstance(event_id, int) else 0
            self._store.save_life(session_id, Life(label, packed, now, ident))
        except Exception:  # a lost record must never lose the change it records
            log.exception("could not save the %s snapshot of session %s", label, session_id)
