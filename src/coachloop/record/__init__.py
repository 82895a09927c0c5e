"""The record of an agent's turn, read from the agent's own log (see `coachloop.core.record`).

- `read(agent, path)`: the record in a transcript-like file of `agent`: Claude Code's
  transcript, a Codex rollout, a Gemini CLI chat file (None for another agent).
- `claude_stream(events, prompt=...)`: the record of a headless Claude Code turn.
- `attach(item, record)`: `item` with `record` on it, or with an unusable record when
  the record is stale (its last assistant message is not the message being judged).
- `for_stop(item, event)` / `for_hook(item, agent, path)`: read and attach in one step;
  never raises, never blocks: a bad path or file becomes a note in the verdict, and the
  message is judged alone.

Standard library only: the hook path reads records at every stop.
"""

from __future__ import annotations

import logging
from dataclasses import replace

from coachloop.core.events import StopEvent
from coachloop.core.judge_input import JudgeInput
from coachloop.core.record import TestRun, ToolCall, TurnRecord
from coachloop.record.agents import codex_rollout, gemini_chat
from coachloop.record.readers import MAX_TAIL, claude_stream, claude_transcript

__all__ = [
    "MAX_TAIL",
    "TestRun",
    "ToolCall",
    "TurnRecord",
    "attach",
    "claude_stream",
    "claude_transcript",
    "codex_rollout",
    "for_hook",
    "for_stop",
    "gemini_chat",
    "matches",
    "read",
]

log = logging.getLogger(__name__)
STALE = "stale: its last assistant message is not the message being judged"
_EDGE = 400  # characters compared at each end of a message that was cut


def read(
    agent: str, path: str, prompt: str | None = None, cwd: str | None = None
) -> TurnRecord | None:
    """The record of the last turn in `agent`'s log file at `path` (a Gemini turn is
    found by its `prompt`; Codex and Gemini paths are made relative to `cwd`, Claude
    Code's transcript names its own); None when there is no reader for `agent`."""
    if agent in ("claude-code", "sdk"):
        return claude_transcript(path)
    if agent == "codex":
        return codex_rollout(path, cwd)
    if agent == "gemini":
        return gemini_chat(path, prompt, cwd)
    return None


def _norm(text: str) -> str:
    return " ".join(text.split())


def matches(recorded: str | None, message: str) -> bool:
    """True when the record's last assistant text is `message` (whitespace aside; for a
    message cut in its middle, its two ends)."""
    if recorded is None:
        return False
    a, b = _norm(recorded), _norm(message)
    if a == b:
        return True
    cut = "characters cut" in b or "characters cut" in a
    return cut and len(a) > 2 * _EDGE and a[:_EDGE] == b[:_EDGE] and a[-_EDGE:] == b[-_EDGE:]


def attach(item: JudgeInput, record: TurnRecord | None) -> JudgeInput:
    """`item` carrying `record`; a record whose last message is not `item.text` is
    replaced by an unusable one saying it is stale."""
    if record is None:
        return item
    if record.usable and not matches(record.final_text, item.text):
        record = TurnRecord.unusable(record.source, STALE)
    return replace(item, record=record)


def for_stop(item: JudgeInput, event: StopEvent) -> JudgeInput:
    """`item` with the record of the stop `event` (its agent's log, `transcript_path`)."""
    return for_hook(item, event.agent, event.transcript_path, event.cwd or None)


def for_hook(item: JudgeInput, agent: str, path: str | None, cwd: str | None = None) -> JudgeInput:
    """`item` with the record read from `path` (see the module docstring)."""
    if not path or item.event == "StopFailure":
        return item
    try:
        return attach(item, read(agent, path, item.prompt, cwd))
    except Exception as exc:  # a record never costs a stop: judge the message alone
        log.exception("reading the turn's record failed")
        note = f"the record could not be read ({type(exc).__name__})"
        return replace(item, record=TurnRecord.unusable(agent, note))
