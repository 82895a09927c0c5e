"""Claude Code hooks: payload to `Hook`, decision to reply.

Events (field `hook_event_name`; every payload has `session_id`, `cwd`,
`transcript_path` and, since 2.1, `prompt_id`):

- Stop, SubagentStop: a stop. The text is `last_assistant_message`; only when that field
  is absent (or not a string) is the last assistant message read from the transcript
  (`agent_transcript_path` for a subagent, which is also the stop's `transcript_path`,
  the record its claims are checked against). `stop_hook_active` is passed on. The job is
  `prompt_id` (it stays the same across a Stop-hook continuation); a subagent's stops
  also carry its `agent_id`, so its jobs never collide with the main agent's.
- StopFailure: a stop of kind "StopFailure" with `error` and `error_details`; recorded
  and never continued (Claude Code ignores its output anyway).
- UserPromptSubmit: a human prompt (resets the cap, records prompt and skill), unless its
  `source` says a machine injected it ("system", "loop_wakeup", "schedule_wakeup",
  "poll_event"): those are not the human speaking and are ignored.
- Notification of types where the agent waits for the human (`permission_prompt`,
  `idle_prompt`, `elicitation_dialog`, `elicitation_url_dialog`): a notice for the human.
  Other types are ignored.
- SessionStart / SessionEnd: the session opens / closes.
- PostToolUse: a tool call ended inside a running turn: the human's queued messages, if
  any, are added to the turn (`context_reply`: `hookSpecificOutput.additionalContext`).
- PreToolUse: a tool call is about to run: a pending `/stop` ends the turn there
  (`halt_reply`: the call denied, and `{"continue": false, "stopReason": …}`).

Any other event is ignored (None). A payload without a usable session id or event name
raises `PayloadError`. Reply: `{"decision": "block", "reason": …}` within 10,000 chars.
"""

from __future__ import annotations

from typing import Any

from coachloop.agents import payload as p
from coachloop.agents.payload import Hook, PayloadError

NAME = "claude-code"
HUMAN_SOURCES = frozenset({"user", "sdk"})  # a missing source counts as the human too
WAITING_NOTIFICATIONS = frozenset(
    {"permission_prompt", "idle_prompt", "elicitation_dialog", "elicitation_url_dialog"}
)


def event_name(data: dict[str, Any]) -> str:
    """The hook event's name; `PayloadError` when missing."""
    name = p.identifier(data, "hook_event_name")
    if name is None:
        raise PayloadError("payload has no hook_event_name")
    return name


def stop_text(data: dict[str, Any], *transcript_keys: str) -> str:
    """`last_assistant_message`, else (field absent) the transcript's last assistant text."""
    text = p.string(data, "last_assistant_message")
    if text is not None:
        return text
    return p.transcript_text(p.path_field(data, *transcript_keys))


def normalise(
    data: dict[str, Any],
    *,
    agent: str = NAME,
    job_keys: tuple[str, ...] = ("prompt_id",),
    turn_rule: p.TurnRule = "none",
) -> Hook | None:
    """The `Hook` of one Claude Code (or Claude-compatible) payload; None to ignore it."""
    event = event_name(data)
    sid = p.session(data, "session_id")
    cwd = p.path_field(data, "cwd") or ""
    transcript = p.path_field(data, "transcript_path")
    job = p.identifier(data, *job_keys)
    if event in ("Stop", "SubagentStop"):
        sub = p.identifier(data, "agent_id") if event == "SubagentStop" else None
        keys = ("agent_transcript_path", "transcript_path") if sub else ("transcript_path",)
        return Hook(
            "stop",
            agent,
            sid,
            cwd,
            text=stop_text(data, *keys),
            kind="SubagentStop" if event == "SubagentStop" else "Stop",
            job_id=job,
            sub_id=sub or ("subagent" if event == "SubagentStop" else None),
            transcript_path=p.path_field(data, *keys),
            stop_hook_active=p.flag(data, "stop_hook_active"),
            turn_rule=turn_rule,
        )
    if event == "StopFailure":
        return Hook(
            "stop",
            agent,
            sid,
            cwd,
            text=p.string(data, "last_assistant_message") or "",
            kind="StopFailure",
            job_id=job,
            error=p.error_text(p.string(data, "error"), p.string(data, "error_details")),
            transcript_path=transcript,
        )
    if event == "UserPromptSubmit":
        prompt = p.string(data, "prompt")
        source = data.get("source")
        if prompt is None or (source is not None and source not in HUMAN_SOURCES):
            return None
        return Hook("prompt", agent, sid, cwd, text=prompt, job_id=job)
    if event == "Notification":
        kind = p.string(data, "notification_type", limit=p.MAX_ID) or ""
        if kind not in WAITING_NOTIFICATIONS:
            return None
        message = p.string(data, "message", limit=p.MAX_FIELD) or ""
        return Hook("notice", agent, sid, cwd, text=message, detail=kind)
    if event in ("PostToolUse", "PreToolUse"):
        if p.identifier(data, "agent_id") is not None:
            return None  # a subagent's tool call: its context is not the human's turn
        action: p.Action = "tool" if event == "PostToolUse" else "pretool"
        return Hook(
            action, agent, sid, cwd, detail=p.string(data, "tool_name", limit=p.MAX_ID) or ""
        )
    if event == "SessionStart":
        detail = p.string(data, "source", limit=p.MAX_ID) or ""
        return Hook("start", agent, sid, cwd, detail=detail)
    if event == "SessionEnd":
        detail = p.string(data, "reason", limit=p.MAX_ID) or ""
        return Hook("end", agent, sid, cwd, detail=detail)
    return None


def reply(reason: str) -> bytes:
    """The reply that sends the agent back to work with `reason`."""
    return p.block_reply(reason, "block")


def context_reply(text: str) -> bytes:
    """The PostToolUse reply that adds `text` to the running turn's context."""
    return p.fit_reply(
        text,
        lambda t: {"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": t}},
    )


def halt_reply(note: str) -> bytes:
    """The PreToolUse reply that refuses the tool call and ends the turn, saying why
    (`continue: false` alone ends the turn only after the tool ran: seen with Claude
    Code 2.1.3xx, so the call is denied too)."""
    return p.fit_reply(
        note,
        lambda t: {
            "continue": False,
            "stopReason": t,
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": "deny",
                "permissionDecisionReason": t,
            },
        },
    )
