"""The supervisor's door for the human steering a running session: the steering queue
(`supervisor.steering`) and `/stop` (`supervisor.stopping`), as `Supervisor` methods.

A mixin of `Supervisor` (kept apart so each module stays small): it uses the
supervisor's store, clock and snapshots. Every change written here leaves its lifecycle
record, as every other door of the supervisor does.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from coachloop.core.events import StopEvent
from coachloop.redaction import redact
from coachloop.supervisor import feedback, steering, stopping

if TYPE_CHECKING:
    from coachloop.store.base import Store
    from coachloop.store.records import EventRecord
    from coachloop.supervisor.writes import StopResult


class HumanDoor:
    """Steering and stopping a session's running turn (see the module docstring)."""

    _store: Store
    clock: Callable[[], float] = time.time

    def _snapshot(self, session_id: str, label: str, data: dict[str, object]) -> None:
        raise NotImplementedError  # the Supervisor's

    def _written(self, session_id: str, label: str, event_id: int, data: dict[str, object]) -> None:
        raise NotImplementedError  # the Supervisor's

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
        The text is redacted first, as every human message. See `supervisor.steering`."""
        return steering.queue(
            self._store, session_id, redact(text), key=key, source=source, running=running
        )

    def steer_mid_turn(self, session_id: str, where: str) -> steering.Taken:
        """Take the queued messages for the running turn (a hook that adds context)."""
        taken = steering.take_mid_turn(self._store, session_id, where, self.clock())
        if taken.steers:
            self._written(session_id, "resume", taken.event_id, {"injected": taken.text})
        return taken

    def steer_at_stop(self, event: StopEvent) -> StopResult | None:
        """At a stop, before judging: the queued messages as the decision to continue
        with, recorded (None: nothing queued; judge the stop as usual)."""
        from coachloop.supervisor.writes import StopResult

        taken, decision = steering.take_at_stop(self._store, _redacted(event))
        if decision is None:
            return None
        state = self._store.get_session(event.session_id)
        self._snapshot(
            event.session_id,
            "resume",
            {"event_id": taken.event_id, "stop": event.to_dict(), "injected": taken.text},
        )
        return StopResult(taken.event_id, decision, state)

    def request_stop(self, session_id: str, note: str = stopping.DEFAULT_NOTE) -> int:
        """Mark the session to end its turn at its next tool call or stop (`/stop`);
        returns how many queued messages were dropped. See `supervisor.stopping`."""
        dropped, event_id = stopping.request(self._store, session_id, note, self.clock())
        self._written(session_id, "status", event_id, {"stop_requested": note})
        return dropped

    def stop_now(self, session_id: str, where: str) -> str | None:
        """End a turn marked to stop, here; returns the note delivered (None: no mark)."""
        done = stopping.consume(self._store, session_id, where, self.clock())
        if done is None:
            return None
        self._written(session_id, "status", done[1], {"stopped": where, "note": done[0]})
        return done[0]

    def accept(self, session_id: str, how: str) -> int:
        """The human accepted the session's work (👍, `/done`): its job closes as done;
        the record's id. See `supervisor.feedback`."""
        event_id = feedback.accept(self._store, session_id, how, self.clock())
        self._written(session_id, "status", event_id, {"accepted": how})
        return event_id

    def correct(self, session_id: str, stop: EventRecord, label: feedback.Label) -> int | None:
        """Keep `stop` as a labelled example of what the human says it was (None: the
        judge agreed). The human's words are redacted first."""
        state = self._store.get_session(session_id)
        label = replace(label, said=redact(label.said))
        return feedback.correct(self._store, session_id, stop, label, state.context.prompt)


def _redacted(event: StopEvent) -> StopEvent:
    from coachloop.supervisor.service import redacted_stop

    return redacted_stop(event)
