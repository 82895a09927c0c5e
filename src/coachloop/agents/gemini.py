"""Gemini CLI hooks: payload to `Hook`, decision to reply.

Every payload has `session_id`, `cwd`, `transcript_path`, `hook_event_name`, `timestamp`.

- AfterAgent: a stop. The text is `prompt_response` (Gemini's own placeholder
  "[no response text]" counts as empty); `prompt` is the turn's original prompt and
  `stop_hook_active` is true for the reply to a retry. Gemini gives no turn id, so the
  job is derived from the session (`coachloop.agents.dispatch`); a changed prompt marks a
  new human turn (`turn_rule` "prompt"), which matters because the installer adds no
  BeforeAgent hook. Reply `{"decision": "deny", "reason": …}`: Gemini retries with the
  reason as the next prompt.
- BeforeAgent: a human prompt (`prompt`), when a user adds that hook.
- Notification (`ToolPermission`): a notice for the human.
- SessionStart / SessionEnd: the session opens / closes.

Any other event is ignored (None); a payload without a usable session id or event name
raises `PayloadError`.
"""

from __future__ import annotations

from typing import Any

from coachloop.agents import payload as p
from coachloop.agents.claude_code import event_name
from coachloop.agents.payload import Hook

NAME = "gemini"
NO_TEXT = "[no response text]"


def normalise(data: dict[str, Any]) -> Hook | None:
    """The `Hook` of one Gemini CLI payload; None to ignore it."""
    event = event_name(data)
    sid = p.session(data, "session_id")
    cwd = p.path_field(data, "cwd") or ""
    if event == "AfterAgent":
        text = p.string(data, "prompt_response") or ""
        prompt = p.string(data, "prompt")
        return Hook(
            "stop",
            NAME,
            sid,
            cwd,
            text="" if text.strip() == NO_TEXT else text,
            transcript_path=p.path_field(data, "transcript_path"),
            stop_hook_active=p.flag(data, "stop_hook_active"),
            prompt=p.clip_middle(prompt) if prompt else None,
            turn_rule="prompt",
        )
    if event == "BeforeAgent":
        prompt = p.string(data, "prompt")
        return None if prompt is None else Hook("prompt", NAME, sid, cwd, text=prompt)
    if event == "Notification":
        kind = p.string(data, "notification_type", limit=p.MAX_ID) or "notification"
        message = p.string(data, "message", limit=p.MAX_FIELD) or ""
        return Hook("notice", NAME, sid, cwd, text=message, detail=kind)
    if event == "SessionStart":
        return Hook("start", NAME, sid, cwd, detail=p.string(data, "source", limit=p.MAX_ID) or "")
    if event == "SessionEnd":
        return Hook("end", NAME, sid, cwd, detail=p.string(data, "reason", limit=p.MAX_ID) or "")
    return None


def reply(reason: str) -> bytes:
    """The reply that makes Gemini retry with `reason` as the next prompt."""
    return p.block_reply(reason, "deny")
