"""One headless agent turn: its result (`TurnResult`), the `Agent` seam, stream parsing.

A turn is one prompt sent to an agent in a project directory and everything the agent
did until it stopped for good (Stop-hook continuations included). Claude Code reports
it as stream-json lines (`claude -p … --output-format stream-json --verbose`) ending
with one `result` message that carries `session_id`, `result`, `total_cost_usd`,
`num_turns`, `is_error`; `parse_stream` turns those lines into a `TurnResult`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

__all__ = [
    "AfterResult",
    "Agent",
    "TurnError",
    "TurnResult",
    "TurnTimeoutError",
    "hook_feedback",
    "parse_stream",
    "read_line",
    "request_feedback",
    "result_from_message",
    "session_of",
    "user_message",
]

HOOK_FEEDBACK_PREFIX = "Stop hook feedback:"


class TurnError(RuntimeError):
    """The agent ended without a `result` message (crash, bad arguments, killed).

    `session_id` is known when the agent had started a session; `events` holds what it
    printed; `stderr` the tail of its error output.
    """

    def __init__(
        self,
        message: str,
        *,
        session_id: str | None = None,
        events: tuple[Mapping[str, Any], ...] = (),
        stderr: str = "",
    ) -> None:
        super().__init__(message)
        self.session_id = session_id
        self.events = events
        self.stderr = stderr


class TurnCancelled(TurnError):  # noqa: N818 - reads as a sentence
    """The turn was cancelled while it ran (`ClaudeCode.cancel`, e.g. the human's /stop)."""


class TurnTimeoutError(TurnError, TimeoutError):
    """The turn did not finish within its time limit; the agent process was killed.
    It is also a `TimeoutError`."""


@dataclass(frozen=True, slots=True)
class TurnResult:
    """What one agent turn produced.

    `result` is the agent's final message of the turn (for a failed model call, the
    agent's error text). `is_error` is True when the turn ended in an error (a failed
    model call, a budget or turn limit). `error` names the failure for the supervisor
    (e.g. "api_error 529"), None on success. `cost_usd` is what the agent reported
    (None when it did not); `tokens` the input and output tokens it reported (cache
    reads and writes included). `events` are the agent's own messages (stream-json objects),
    in order; `hook_blocks` the reasons Stop hooks sent the agent back to work with.
    """

    session_id: str
    result: str
    is_error: bool = False
    cost_usd: float | None = None
    tokens: int | None = None
    num_turns: int = 0
    duration_ms: int = 0
    subtype: str = "success"
    terminal_reason: str | None = None
    api_error_status: int | None = None
    uuid: str | None = None
    events: tuple[Mapping[str, Any], ...] = field(default=(), repr=False)

    @property
    def error(self) -> str | None:
        """A short name of the failure, None when the turn succeeded."""
        if not self.is_error:
            return None
        parts = [self.terminal_reason or self.subtype or "error"]
        if self.api_error_status is not None:
            parts.append(str(self.api_error_status))
        return " ".join(parts)

    @property
    def hook_blocks(self) -> list[str]:
        """The Stop-hook reasons that sent the agent back to work, in order."""
        return hook_feedback(self.events)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready summary (without the events)."""
        return {
            "session_id": self.session_id,
            "result": self.result,
            "is_error": self.is_error,
            "error": self.error,
            "cost_usd": self.cost_usd,
            "tokens": self.tokens,
            "num_turns": self.num_turns,
            "duration_ms": self.duration_ms,
            "hook_blocks": self.hook_blocks,
        }


# Called with the turn's result while the agent process is still alive (its stdin
# open): asynchronous hooks such as StopFailure get the time to finish.
AfterResult = Callable[[TurnResult], None]


class Agent(Protocol):
    """Runs one turn of a headless agent in a fixed project directory.

    `resume` continues an earlier session by id. Raises `TurnError` (or `TurnTimeoutError`)
    when no result could be obtained; a turn that ended in an error is a `TurnResult`
    with `is_error` set.
    """

    def run_turn(
        self, prompt: str, *, resume: str | None = None, after_result: AfterResult | None = None
    ) -> TurnResult: ...


def _int(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _tokens(usage: Any) -> int | None:
    if not isinstance(usage, Mapping):
        return None
    keys = (
        "input_tokens",
        "output_tokens",
        "cache_creation_input_tokens",
        "cache_read_input_tokens",
    )
    return sum(_int(usage.get(k)) for k in keys)


def result_from_message(
    message: Mapping[str, Any], events: tuple[Mapping[str, Any], ...] = ()
) -> TurnResult:
    """The `TurnResult` of a stream-json `result` message (and the events before it)."""
    cost = message.get("total_cost_usd")
    status = message.get("api_error_status")
    result = message.get("result")
    if not isinstance(result, str):  # error subtypes carry `errors` instead
        errors = message.get("errors")
        result = "; ".join(map(str, errors)) if isinstance(errors, list) else ""
    return TurnResult(
        session_id=str(message.get("session_id") or ""),
        result=result,
        is_error=bool(message.get("is_error")),
        cost_usd=float(cost) if isinstance(cost, int | float) else None,
        tokens=_tokens(message.get("usage")),
        num_turns=_int(message.get("num_turns")),
        duration_ms=_int(message.get("duration_ms")),
        subtype=str(message.get("subtype") or ""),
        terminal_reason=message.get("terminal_reason") or None,
        api_error_status=status if isinstance(status, int) else None,
        uuid=message.get("uuid") or None,
        events=events,
    )


def decode_line(line: str | bytes) -> dict[str, Any] | None:
    """One stream-json line as a dict; None for a blank or non-JSON line."""
    try:
        value = json.loads(line)
    except (ValueError, UnicodeDecodeError):
        return None
    return value if isinstance(value, dict) else None


def read_line(line: str | bytes, events: list[dict[str, Any]]) -> TurnResult | None:
    """Append stream-json `line` to `events` (unless it is blank or not a JSON object);
    the turn when it was the `result` message, else None."""
    message = decode_line(line)
    if message is None:
        return None
    events.append(message)
    if message.get("type") == "result":
        return result_from_message(message, tuple(events))
    return None


def session_of(events: Iterable[Mapping[str, Any]]) -> str | None:
    """The first non-empty `session_id` among stream-json `events`, if any."""
    return next((str(e["session_id"]) for e in events if e.get("session_id")), None)


def user_message(prompt: str) -> dict[str, Any]:
    """`prompt` as one stream-json user message (the input of a streaming turn)."""
    return {
        "type": "user",
        "session_id": "",
        "message": {"role": "user", "content": prompt},
        "parent_tool_use_id": None,
    }


def parse_stream(lines: Iterable[str | bytes]) -> TurnResult:
    """The turn described by stream-json `lines`; raises `TurnError` without a result."""
    events: list[dict[str, Any]] = []
    for line in lines:
        turn = read_line(line, events)
        if turn is not None:
            return turn
    raise TurnError(
        "the agent printed no result", session_id=session_of(events), events=tuple(events)
    )


def _feedback(content: Any) -> list[str]:
    blocks = [content] if isinstance(content, str) else content or []
    found: list[str] = []
    for block in blocks if isinstance(blocks, list) else []:
        text = block.get("text") if isinstance(block, dict) else block
        reason = _hook_reason(text) if isinstance(text, str) else None
        if reason is not None:
            found.append(reason)
    return found


def _hook_reason(text: str) -> str | None:
    """The reason in a Stop hook's feedback text, or None when `text` is not one.

    Claude Code writes it "Stop hook feedback:\n<reason>" (transcripts, stream-json, and
    API requests up to 2.1.330); from 2.1.331 on it is wrapped in API requests as
    "<system-reminder>\n<a line saying it comes from a hook>\nStop hook feedback:\n
    <reason>\n</system-reminder>"."""
    if text.startswith(HOOK_FEEDBACK_PREFIX):
        return text[len(HOOK_FEEDBACK_PREFIX) :].strip()
    if not text.startswith(_REMINDER):
        return None
    body = "\n" + text[len(_REMINDER) :].strip().removesuffix(_REMINDER_END).rstrip()
    at = body.find("\n" + HOOK_FEEDBACK_PREFIX)  # at a line start
    return None if at == -1 else body[at + 1 + len(HOOK_FEEDBACK_PREFIX) :].strip()


_REMINDER, _REMINDER_END = "<system-reminder>", "</system-reminder>"


def request_feedback(body: Mapping[str, Any]) -> list[str]:
    """The Stop-hook reasons a Messages API request body carries, oldest first.

    Claude Code sends each reason to the model as a user message whose text is
    "Stop hook feedback:\n<reason>" (newer versions: inside a `<system-reminder>`, see
    `_hook_reason`), followed by a `system` message echoing it ("Stop hook blocking error
    from command: …"); this reads the user messages.
    """
    found: list[str] = []
    for message in body.get("messages") or []:
        if isinstance(message, dict) and message.get("role") == "user":
            found += _feedback(message.get("content"))
    return found


def hook_feedback(events: Iterable[Mapping[str, Any]]) -> list[str]:
    """The Stop-hook block reasons among stream-json `events`.

    Claude Code hands a Stop hook's reason to the model as a synthetic user message
    "Stop hook feedback:\\n<reason>" (and echoes it as a system message naming the hook).
    """
    found: list[str] = []
    for event in events:
        if event.get("type") == "user":
            found += _feedback((event.get("message") or {}).get("content"))
    return found
