"""Hook events around the stops: the agent waits for the human, a session opens or closes.

- `notice`: the agent waits for the human (a permission prompt, an idle prompt): the
  message is delivered (outbox "notice", and the console channel) and recorded as an
  "alert" record with source "notification"; a running session becomes "waiting". The
  agent is never blocked.
- `start`: a new session is recorded as "waiting" for its first prompt; a "done" or
  "abandoned" one is reopened ("waiting"); a live one is left alone.
- `end`: the session is marked "done" (a failed one stays "failed" until a human
  message); an unknown session is not created just to be closed.

Each change goes through the supervisor (one store transaction with a timeline record,
and its snapshot). Standard library only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from coachloop.agents.payload import Hook
from coachloop.chat import delivery
from coachloop.core.events import AGENT_LABELS
from coachloop.core.text import NOTE

if TYPE_CHECKING:
    from coachloop.supervisor import Supervisor


def notice(sup: Supervisor, hook: Hook, project: str) -> None:
    """Deliver a "the agent waits for you" notification of `hook` and record it."""
    label = AGENT_LABELS.get(hook.agent, hook.agent)
    text = f"{NOTE} {label} is waiting for you ({hook.detail})"
    text += f": {hook.text.strip()}" if hook.text.strip() else "."
    sup.on_notice(
        hook.session_id, text, hook.detail, agent=hook.agent, project=project, cwd=hook.cwd
    )
    delivery.announce(hook.session_id, hook.agent, project, [("notice", text)])


def start(sup: Supervisor, hook: Hook, project: str) -> None:
    """Record that the session of `hook` opened (created, or reopened when closed)."""
    why = f"session started ({hook.detail or 'unknown'})"
    sup.on_start(hook.session_id, why, agent=hook.agent, project=project, cwd=hook.cwd)


def end(sup: Supervisor, hook: Hook) -> None:
    """Record that the session of `hook` closed (known sessions only)."""
    sup.on_end(hook.session_id, f"session ended ({hook.detail or 'unknown'})", agent=hook.agent)
