"""Codex CLI: its Claude-compatible hooks, and the older `notify` program.

Hooks (`coachloop hook codex`, JSON on stdin): the Claude Code shapes with Codex's
`turn_id` as the job. Stop carries `stop_hook_active` and `last_assistant_message` (may
be null: then the transcript is tried) but no prompt, and the installer adds no prompt
hook, so a new human turn is recognised by its new `turn_id` (`turn_rule` "job", see
`coachloop.agents.dispatch`). Reply: `{"decision": "block", "reason": …}`.

notify (`coachloop hook codex-notify '<json>'`: the JSON is the LAST command-line
argument, and the client passes it as the payload): `{"type": "agent-turn-complete",
"thread-id", "turn-id", "cwd", "input-messages": [...], "last-assistant-message"}`.
Codex does not wait for it, so it can never send the agent back: the stop is judged,
recorded and delivered (a "continue" becomes a delivery carrying the coaching). The
turn's `input-messages` are its prompt (`turn_rule` "prompt"). Other types are ignored.
"""

from __future__ import annotations

from typing import Any

from coachloop.agents import claude_code
from coachloop.agents import payload as p
from coachloop.agents.payload import Hook, PayloadError

NAME = "codex"
NOTIFY_TYPE = "agent-turn-complete"


def normalise(data: dict[str, Any]) -> Hook | None:
    """The `Hook` of one Codex hook payload; None to ignore it."""
    return claude_code.normalise(data, agent=NAME, job_keys=("turn_id",), turn_rule="job")


def normalise_notify(data: dict[str, Any]) -> Hook | None:
    """The `Hook` of one Codex `notify` payload (always a stop that cannot block)."""
    kind = data.get("type")
    if not isinstance(kind, str):
        raise PayloadError("notify payload has no type")
    if kind != NOTIFY_TYPE:
        return None
    messages = data.get("input-messages")
    prompt = None
    if isinstance(messages, list):
        parts = [p.clean(m) for m in messages[:100] if isinstance(m, str)]
        prompt = p.clip_middle("\n\n".join(parts)) if parts else None
    return Hook(
        "stop",
        NAME,
        p.session(data, "thread-id", "thread_id"),
        p.path_field(data, "cwd") or "",
        text=p.string(data, "last-assistant-message", "last_assistant_message") or "",
        job_id=p.identifier(data, "turn-id", "turn_id"),
        prompt=prompt,
        can_block=False,
        turn_rule="prompt",
    )


def reply(reason: str) -> bytes:
    """The reply that sends the agent back to work with `reason`."""
    return p.block_reply(reason, "block")
