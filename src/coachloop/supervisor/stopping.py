"""`/stop`: end a session's running turn at the first point the agent offers.

`request` marks the session (`SessionState.stop_requested`, stored with the state) and
drops the messages queued for it. The mark is consumed once, by whichever comes first:

- the next tool call, where the agent lets a hook refuse it (Claude Code's `PreToolUse`:
  `consume` records the stop and delivers the note; the hook ends the turn);
- the next stop: the policy decides it as usual but never continues it: what would
  have been sent back is delivered, with the note (`policy.decide`);
- the bridge cancelling its own headless turn (`consume` again).

Standard library only (it runs on the hook path).
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import TYPE_CHECKING

from coachloop.core.session import SessionState
from coachloop.core.text import NOTE

if TYPE_CHECKING:
    from coachloop.store import Store
    from coachloop.store.records import Write

DEFAULT_NOTE = f"{NOTE} Stopped as you asked (/stop)."
STOPPED = "stopped"  # the source of the record of a turn ended by a stop request


def request(store: Store, session_id: str, note: str, now: float | None = None) -> tuple[int, int]:
    """Mark `session_id` to stop at its next tool call or stop; returns how many queued
    messages were dropped and the record's id. `UnknownSession` for a session the store
    does not hold."""
    from coachloop.store.records import EventRecord, Write

    ts = time.time() if now is None else now

    def fn(state: SessionState | None) -> tuple[Write, int]:
        if state is None:
            from coachloop.store import UnknownSession

            raise UnknownSession(session_id, store.location)
        dropped = len(state.steering)
        why = "stop requested: the turn ends at its next tool call or stop"
        if dropped:
            why += f"; {dropped} queued message(s) dropped"
        rec = EventRecord(0, session_id, "status", ts, time.time(), source="human", why=why)
        new = replace(state, stop_requested=note, steering=(), updated_at=max(state.updated_at, ts))
        return Write(new, (rec,)), dropped

    dropped, ids = store.transact(session_id, fn)
    return dropped, ids[0]


def consume(
    store: Store, session_id: str, where: str, now: float | None = None
) -> tuple[str, int] | None:
    """End the turn here (`where`: "before a tool call (Bash)", ...): clear the mark,
    record it, deliver the note. Returns the note and the record's id, or None when no
    stop was requested."""
    from coachloop.store.records import EventRecord, Write

    ts = time.time() if now is None else now

    def fn(state: SessionState | None) -> tuple[Write | None, str | None]:
        if state is None or state.stop_requested is None:
            return None, None
        note = f"{state.stop_requested} The turn ended {where}."
        rec = EventRecord(
            0, session_id, "status", ts, time.time(), source=STOPPED, why=note, message="waiting"
        )
        new = replace(state, stop_requested=None, status="waiting", last_decision="deliver")
        return Write(new, (rec,), (("notice", note),)), note

    note, ids = store.transact(session_id, fn)
    return (note, ids[0]) if note is not None else None
