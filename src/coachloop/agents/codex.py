"""Codex CLI: its Claude-compatible hooks, and the older `notify` program.

Hooks (`coachloop hook codex`, JSON on stdin): the Claude Code shapes with Codex's
`turn_id` as the job (seen with Codex CLI 0.169: one turn id across a Stop-hook
continuation, tool calls included; the reason reaches the model as a user message
`<hook_prompt …>REASON</hook_prompt>`). Every payload has `session_id`, `turn_id`,
`transcript_path` (the rollout file), `cwd`, `model`, `permission_mode`.

- Stop: `stop_hook_active`, `last_assistant_message`. That is null when the last model
  call said nothing: then the text is what the agent said since it was last stopped,
  from the rollout (`coachloop.transcript_agents.codex_turn`), else empty (an error,
  never continued). The stop also carries the turn's human prompt read from the
  rollout, so a new human turn is recognised by its prompt (`turn_rule` "prompt") and
  recorded with it, even where the prompt hook does not run.
- UserPromptSubmit (`prompt`): the human's prompt; Codex does not fire it for a
  Stop-hook continuation. No Codex hook fires when the model call fails.
- SessionStart / SessionEnd, as for Claude Code.
Reply: `{"decision": "block", "reason": …}`.

notify (`coachloop hook codex-notify '<json>'`: the JSON is the LAST command-line
argument, and the client passes it as the payload): `{"type": "agent-turn-complete",
"thread-id", "turn-id", "cwd", "input-messages": [...], "last-assistant-message"}`.
Codex does not wait for it, so it can never send the agent back: the stop is judged,
recorded and delivered (a "continue" becomes a delivery carrying the coaching). The
turn's `input-messages` are its prompt (`turn_rule` "prompt"). Other types are ignored.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from coachloop.agents import claude_code
from coachloop.agents import payload as p
from coachloop.agents.payload import Hook, PayloadError

NAME = "codex"
NOTIFY_TYPE = "agent-turn-complete"


def normalise(data: dict[str, Any]) -> Hook | None:
    """The `Hook` of one Codex hook payload; None to ignore it."""
    if claude_code.event_name(data) != "Stop":
        return claude_code.normalise(data, agent=NAME, job_keys=("turn_id",))
    from coachloop.transcript_agents import TAIL_STEPS, codex_turn

    text = p.string(data, "last_assistant_message")
    # The prompt only matters when no prompt hook ran: a small window is enough for it
    # (a stop must stay cheap); an empty stop looks further back for what was said.
    most = TAIL_STEPS[0] if text is not None else None
    turn = codex_turn(
        p.path_field(data, "transcript_path"), p.identifier(data, "turn_id"), most=most
    )
    if text is None:
        text = (turn.last_text if turn else None) or ""
    hook = claude_code.normalise(
        {**data, "last_assistant_message": text},
        agent=NAME,
        job_keys=("turn_id",),
        turn_rule="prompt",
    )
    if hook is None or turn is None or not turn.prompt:
        return hook
    return replace(hook, prompt=p.clip_middle(p.clean(turn.prompt)))


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
