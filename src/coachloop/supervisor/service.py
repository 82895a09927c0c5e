"""The supervisor service: the pure policy, wrapped in persistence and side effects.

Per stop: read the session's stored context to build the judge's input (`context`), let
the judge run outside any lock (an LLM call may take seconds), then `on_stop` commits the
decision in one store transaction (state, timeline record, outbox entries), writes the
lifecycle snapshot, and now and then runs the periodic jobs (`maintain`): the watchdog
every 5 minutes and the retention cleanup every hour, each claimed in the store so one
process among many runs it. Snapshot or maintenance failures are logged and never
change or lose a decision.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from coachloop import snapshots, watchdog
from coachloop.core.events import HumanMessage, StopEvent
from coachloop.core.judge_input import JudgeInput
from coachloop.core.session import Decision, SessionState
from coachloop.supervisor import steering, stopping
from coachloop.supervisor.policy import Policy, context_for

if TYPE_CHECKING:
    from coachloop.core.verdict import Verdict
    from coachloop.store import StopResult, Store

log = logging.getLogger("coachloop.supervisor")
ENV_RETENTION = "COACHLOOP_SNAPSHOT_RETENTION_DAYS"
CLEANUP_CLAIM = "cleanup"
WATCHDOG_CLAIM = "watchdog"


def lifecycle(event: StopEvent, verdict: Verdict, decision: Decision) -> str | None:
    """The snapshot event of a decided stop (None: no snapshot, e.g. a dropped duplicate)."""
    if decision.kind == "continue":
        return "auto_continue"
    if decision.kind == "drop":
        return None
    if verdict.type == "error" or event.failed:
        return "error"
    return "complete" if verdict.type == "completion" else "deliver"


def retention_days(project: Path | None = None) -> float:
    """The snapshot retention: `COACHLOOP_SNAPSHOT_RETENTION_DAYS`, else `[snapshots]
    retention_days` in the config files, else 7 days. A bad value raises `ConfigError`."""
    from coachloop.config import ConfigError
    from coachloop.store import config_table

    raw = os.environ.get(ENV_RETENTION) or config_table("snapshots", project).get("retention_days")
    try:
        value = float(raw) if raw is not None else snapshots.DEFAULT_RETENTION_DAYS
    except (TypeError, ValueError) as exc:
        raise ConfigError(f"snapshot retention_days must be a number, got {raw!r}") from exc
    if value < 0:
        raise ConfigError(f"snapshot retention_days must not be negative, got {value}")
    return value


@dataclass(slots=True)
class Maintenance:
    """What one `Supervisor.maintain` call ran (None / empty: not due here)."""

    alerts: list[watchdog.Alert] = field(default_factory=list)
    cleanup: snapshots.CleanupReport | None = None
    stale: watchdog.Report | None = None


class Supervisor:
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
        self.store = store
        self.policy = policy or Policy()
        self.snapshots_on = snapshots_on
        self.snapshot_root = snapshot_root
        self.retention_days = retention_days
        self.cleanup_interval = cleanup_interval
        self.watchdog_interval = watchdog_interval
        self.limits = limits or watchdog.Limits()
        self.clock = clock
        self._next_check = 0.0  # no store round trip for maintenance before this time

    @classmethod
    def open(cls, project: Path | str | None = None, *, store: str | None = None) -> Supervisor:
        """The supervisor configured for `project`: its settings (the auto-continue cap),
        its store (`open_store`) and its snapshot retention (`retention_days`)."""
        from coachloop.config import load_settings
        from coachloop.store import open_store

        proj = Path(project) if project else None
        settings = load_settings(proj)
        return cls(
            open_store(store, project=proj),
            Policy.from_settings(settings),
            retention_days=retention_days(proj),
        )

    def context(self, event: StopEvent) -> JudgeInput:
        """The judge's input for `event`, with the session's stored prompt, skill and plan."""
        from coachloop.store import UnknownSession

        try:
            state: SessionState | None = self.store.get_session(event.session_id)
        except UnknownSession:
            state = None
        return context_for(state, event)

    def on_stop(self, event: StopEvent, verdict: Verdict) -> StopResult:
        """Decide and record one judged stop; returns the committed result."""
        result = self.store.record_stop(event, verdict, self.policy)
        label = lifecycle(event, verdict, result.decision)
        if label is not None:
            self._snapshot(
                event.session_id,
                label,
                {
                    "event_id": result.event_id,
                    "stop": event.to_dict(),
                    "verdict": verdict.to_dict(),
                    "decision": result.decision.to_dict(),
                    "state": result.state.to_dict(),
                },
            )
        self.maintain()
        return result

    def process(self, event: StopEvent, judge: Callable[[JudgeInput], Verdict]) -> StopResult:
        """Judge `event` with its session context, then `on_stop`."""
        return self.on_stop(event, judge(self.context(event)))

    def on_human(self, msg: HumanMessage) -> SessionState:
        """Record a human message: resets the auto-continue count, replaces the prompt."""
        state, event_id = self.store.record_human(msg)
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

    def steer(
        self,
        session_id: str,
        text: str,
        *,
        key: str,
        source: str = "chat",
        running: bool | None = None,
    ) -> steering.Queued:
        """Queue a human message for a session whose turn runs ("queued"; also
        "duplicate", "full"), or "idle" (nothing written: resume it as for any message).
        See `coachloop.supervisor.steering`."""
        return steering.queue(self.store, session_id, text, key=key, source=source, running=running)

    def steer_mid_turn(self, session_id: str, where: str) -> steering.Taken:
        """Take the queued messages for the running turn (a hook that adds context)."""
        return steering.take_mid_turn(self.store, session_id, where, self.clock())

    def steer_at_stop(self, event: StopEvent) -> StopResult | None:
        """At a stop, before judging: the queued messages as the decision to continue
        with, recorded (None: nothing queued; judge the stop as usual)."""
        from coachloop.store import StopResult

        taken, decision = steering.take_at_stop(self.store, event)
        if decision is None:
            return None
        state = self.store.get_session(event.session_id)
        self._snapshot(
            event.session_id,
            "resume",
            {"event_id": taken.event_id, "stop": event.to_dict(), "injected": taken.text},
        )
        return StopResult(taken.event_id, decision, state)

    def request_stop(self, session_id: str, note: str = stopping.DEFAULT_NOTE) -> int:
        """Mark the session to end its turn at its next tool call or stop (`/stop`);
        returns how many queued messages were dropped. See `supervisor.stopping`."""
        return stopping.request(self.store, session_id, note, self.clock())

    def stop_now(self, session_id: str, where: str) -> str | None:
        """End a turn marked to stop, here; returns the note delivered (None: no mark)."""
        return stopping.consume(self.store, session_id, where, self.clock())

    def maintain(self, now: float | None = None) -> Maintenance:
        """Run the periodic jobs that are due, each claimed in the store so that one
        process among many runs it per interval: the watchdog check (every
        `watchdog_interval`) and the retention cleanup (every `cleanup_interval`: old
        snapshots, then abandoned and forgotten sessions). Never raises."""
        ts = self.clock() if now is None else now
        done = Maintenance()
        if ts < self._next_check:
            return done
        self._next_check = ts + min(self.watchdog_interval, self.cleanup_interval)
        try:
            if self.store.claim(WATCHDOG_CLAIM, self.watchdog_interval, ts):
                done.alerts = watchdog.check(self.store, ts, self.limits)
            if self.store.claim(CLEANUP_CLAIM, self.cleanup_interval, ts):
                done.cleanup = snapshots.cleanup(
                    self.retention_days, root=self.snapshot_root, now=ts
                )
                done.stale = watchdog.cleanup_stale(self.store, ts, self.limits)
        except Exception:  # maintenance must never break a decision
            log.exception("supervisor maintenance failed")
            return done
        for err in done.cleanup.errors if done.cleanup else ():
            log.warning("snapshot cleanup: %s", err)
        return done

    def _snapshot(self, session_id: str, label: str, data: dict[str, object]) -> None:
        if not self.snapshots_on:
            return
        try:
            snapshots.save(session_id, label, data, root=self.snapshot_root, now=self.clock())
        except (OSError, ValueError, TypeError):
            log.exception("could not save the %s snapshot of session %s", label, session_id)
