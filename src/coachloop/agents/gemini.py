"""Gemini CLI hooks: payload to `Hook`, decision to reply.

Every payload has `session_id`, `cwd`, `transcript_path` (the chat file),
`hook_event_name`, `timestamp`.

- AfterAgent: a stop. Reply `{"decision": "deny", "reason": …}`: Gemini sends the
  reason to the model as a new user message, under the same prompt. What the payload
  says of the stop cannot be taken as it is (Gemini CLI 0.61, seen by running it):
  `prompt` is always the turn's original prompt; `prompt_response` stacks the text of
  every model call under that prompt, the retries included, joined with newlines (and a
  streamed answer's chunks are joined with spaces, pieces repeated); `stop_hook_active`
  is true only when the retry call itself ends the turn: after a tool call the final
  answer comes from a fresh call and says false. So the stop is read from the chat file
  (`coachloop.transcript_agents.gemini_turn`, the turn that opens with `prompt`): the
  text is what the model said since the last user message of that turn (the prompt, or
  the reason of the last retry), and the stop is the reply to a continuation when a
  retry message follows the prompt in the same turn. Without a readable chat file the
  payload is used as it is ("[no response text]" counts as empty). Gemini gives no turn
  id, so the job is derived from the session (`coachloop.agents.dispatch`); a changed
  prompt marks a new human turn (`turn_rule` "prompt"), which matters because the
  installer adds no BeforeAgent hook.
- BeforeAgent: a human prompt (`prompt`), when a user adds that hook (Gemini fires it
  for a retry's reason too; the dispatcher knows its own coaching echoed back).
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
        prompt = p.string(data, "prompt")
        transcript = p.path_field(data, "transcript_path")
        text, replied = stop_text(data, transcript, prompt)
        return Hook(
            "stop",
            NAME,
            sid,
            cwd,
            text=text,
            transcript_path=transcript,
            stop_hook_active=replied,
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


def stop_text(data: dict[str, Any], transcript: str | None, prompt: str | None) -> tuple[str, bool]:
    """The text of an AfterAgent stop and whether it replies to a continuation (see the
    module docstring): from the chat file's turn when it can be read, else the payload."""
    text = p.string(data, "prompt_response") or ""
    replied = p.flag(data, "stop_hook_active")
    if transcript and prompt and prompt.strip():
        from coachloop.transcript_agents import gemini_turn

        turn = gemini_turn(transcript, prompt)
        if turn is not None and (turn.texts or turn.continuations):
            return "\n".join(turn.texts), replied or bool(turn.continuations)
    return ("" if text.strip() == NO_TEXT else text), replied


def reply(reason: str) -> bytes:
    """The reply that makes Gemini retry with `reason` as the next prompt."""
    return p.block_reply(reason, "deny")
