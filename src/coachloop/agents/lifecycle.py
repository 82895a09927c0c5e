"""Hook events around the stops: the agent waits for the human, a session opens or closes.

- `notice`: the agent waits for the human (a permission prompt, an idle prompt): the
  message is delivered (outbox "notice", and the console channel) and recorded as an
  "alert" record with source "notification"; a running session becomes "waiting". The
  agent is never blocked.
- `start`: a new session is recorded as "waiting" for its first prompt; a "done" or
  "abandoned" one is reopened ("waiting"); a live one is left alone.
- `end`: the session is marked "done" (a failed one stays "failed" until a human
  message); an unknown session is not created just to be closed.

Each change is one store transaction with a timeline record. Standard library only.
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import TYPE_CHECKING

from coachloop.agents import delivery
from coachloop.agents.payload import Hook

if TYPE_CHECKING:
    from coachloop.core.session import SessionState, SessionStatus
    from coachloop.store import EventRecord, Store, Write

NOTE = "[coachloop]"


def notice(store: Store, hook: Hook, project: str) -> None:
    """Deliver a "the agent waits for you" notification of `hook` and record it."""
    from coachloop.core.session import SessionState
    from coachloop.store import EventRecord, Write
    from coachloop.store.records import clip

    label = delivery.LABELS.get(hook.agent, hook.agent)
    text = f"{NOTE} {label} is waiting for you ({hook.detail})"
    text += f": {hook.text.strip()}" if hook.text.strip() else "."
    now = time.time()

    def fn(state: SessionState | None) -> tuple[Write, None]:
        st = state or SessionState.new(
            hook.session_id, now, agent=hook.agent, project=project, cwd=hook.cwd
        )
        status = "waiting" if st.status == "running" else st.status
        st = replace(st, status=status, updated_at=max(st.updated_at, now))
        record = EventRecord(
            0,
            hook.session_id,
            "alert",
            now,
            time.time(),
            source="notification",
            why=hook.detail,
            message=clip(text),
        )
        return Write(st, (record,), (("notice", text),)), None

    store.transact(hook.session_id, fn, project=project)
    delivery.announce(hook.session_id, hook.agent, project, [("notice", text)])


def start(store: Store, hook: Hook, project: str) -> None:
    """Record that the session of `hook` opened (created, or reopened when closed)."""
    from coachloop.core.session import SessionState
    from coachloop.store import Write

    now = time.time()

    def fn(state: SessionState | None) -> tuple[Write | None, None]:
        if state is not None and state.status not in ("done", "abandoned"):
            return None, None
        st = state or SessionState.new(
            hook.session_id, now, agent=hook.agent, project=project, cwd=hook.cwd
        )
        st = replace(
            st, status="waiting", cwd=hook.cwd or st.cwd, updated_at=max(st.updated_at, now)
        )
        why = f"session started ({hook.detail or 'unknown'})"
        return Write(st, (_status_record(hook, now, why, "waiting"),)), None

    store.transact(hook.session_id, fn, project=project)


def end(store: Store, hook: Hook) -> None:
    """Record that the session of `hook` closed (known sessions only)."""
    from coachloop.store import Write

    now = time.time()

    def fn(state: SessionState | None) -> tuple[Write | None, None]:
        if state is None:
            return None, None  # never create a session only to close it
        status: SessionStatus = "failed" if state.status == "failed" else "done"
        st = replace(state, status=status, updated_at=max(state.updated_at, now))
        why = f"session ended ({hook.detail or 'unknown'})"
        return Write(st, (_status_record(hook, now, why, status),)), None

    store.transact(hook.session_id, fn)


def _status_record(hook: Hook, now: float, why: str, status: str) -> EventRecord:
    from coachloop.store import EventRecord

    return EventRecord(
        0, hook.session_id, "status", now, time.time(), source=hook.agent, why=why, message=status
    )
