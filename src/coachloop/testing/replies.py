"""What a scripted model says: replies, HTTP failures, delays, and recorded requests.

A script is a sequence of `Step`s. A step is a `ScriptItem` (served as is) or a
`Responder`, a callable given the parsed JSON body of the request that returns the
item to serve. Items:

- `Reply`: an assistant message made of `TextBlock`s and `ToolUseBlock`s. A plain
  `str` is shorthand for a reply with one text block.
- `Fail`: an HTTP error status with the API's error body (in the shape of whichever
  API was called: Anthropic, OpenAI, Gemini).
- `Delay`: wait, then serve another item; used to provoke client timeouts.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, TypeAlias

__all__ = [
    "Block",
    "Delay",
    "Fail",
    "RecordedRequest",
    "Reply",
    "Responder",
    "ScriptItem",
    "Step",
    "TextBlock",
    "ToolUseBlock",
    "reply",
    "text",
    "tool_use",
]


@dataclass(frozen=True, slots=True)
class TextBlock:
    """A text content block."""

    text: str


@dataclass(frozen=True, slots=True)
class ToolUseBlock:
    """A tool call. `id` is generated ("toolu_scripted_N") when None."""

    name: str
    input: Mapping[str, Any]
    id: str | None = None


Block: TypeAlias = TextBlock | ToolUseBlock


@dataclass(frozen=True, slots=True)
class Reply:
    """One assistant message.

    `stop_reason` defaults to "tool_use" when a tool block is present, else "end_turn".
    `model` defaults to the model named in the request.
    """

    blocks: tuple[Block, ...]
    stop_reason: str | None = None
    model: str | None = None

    @property
    def effective_stop_reason(self) -> str:
        if self.stop_reason:
            return self.stop_reason
        has_tool = any(isinstance(b, ToolUseBlock) for b in self.blocks)
        return "tool_use" if has_tool else "end_turn"

    @property
    def text(self) -> str:
        """All text blocks joined (what an OpenAI-style reply carries as content)."""
        return "".join(b.text for b in self.blocks if isinstance(b, TextBlock))


_ANTHROPIC_ERROR_TYPES = {
    400: "invalid_request_error",
    401: "authentication_error",
    403: "permission_error",
    404: "not_found_error",
    413: "request_too_large",
    429: "rate_limit_error",
    500: "api_error",
    503: "api_error",
    529: "overloaded_error",
}
_MESSAGES = {
    "invalid_request_error": "Invalid request",
    "authentication_error": "invalid x-api-key",
    "permission_error": "Your API key does not have permission to use this resource",
    "not_found_error": "Not found",
    "request_too_large": "Request exceeds the maximum allowed size",
    "rate_limit_error": "Rate limited",
    "api_error": "Internal server error",
    "overloaded_error": "Overloaded",
}


@dataclass(frozen=True, slots=True)
class Fail:
    """An HTTP error answer; type and message default from the status (529 → overloaded).

    `retry_after` adds a `retry-after` header (seconds) when set.
    """

    status: int = 500
    error_type: str | None = None
    message: str | None = None
    retry_after: float | None = None

    @property
    def kind(self) -> str:
        return self.error_type or _ANTHROPIC_ERROR_TYPES.get(self.status, "api_error")

    @property
    def detail(self) -> str:
        return self.message or _MESSAGES.get(self.kind, f"HTTP {self.status}")


@dataclass(frozen=True, slots=True)
class Delay:
    """Wait `seconds` before serving `then` (the server's close cuts the wait short)."""

    seconds: float
    then: ScriptItem = ""


ScriptItem: TypeAlias = Reply | Fail | Delay | str
Responder: TypeAlias = Callable[[dict[str, Any]], ScriptItem]
Step: TypeAlias = ScriptItem | Responder
Api = Literal["anthropic", "openai", "responses", "gemini", "other"]


@dataclass(frozen=True, slots=True)
class RecordedRequest:
    """A request the server received. `body` is the parsed JSON (None when not JSON).

    `headers` keys are lower-case. `side_call` is True when the side-call rule
    answered it (the script was not consumed).
    """

    method: str
    path: str
    query: Mapping[str, tuple[str, ...]]
    headers: Mapping[str, str]
    body: Any
    api: Api
    side_call: bool = False
    served: str = ""  # a short description of what was served, for debugging
    raw: bytes = field(default=b"", repr=False)

    @property
    def json(self) -> dict[str, Any]:
        """The body as a dict ({} when it was not a JSON object)."""
        return self.body if isinstance(self.body, dict) else {}


def text(content: str, *, stop_reason: str | None = None) -> Reply:
    """A reply with one text block."""
    return Reply((TextBlock(content),), stop_reason=stop_reason)


def tool_use(
    name: str,
    input: Mapping[str, Any],
    *,
    preface: str | None = None,
    id: str | None = None,
) -> Reply:
    """A reply calling tool `name` with `input`, optionally after a text block."""
    blocks: list[Block] = [TextBlock(preface)] if preface else []
    blocks.append(ToolUseBlock(name, dict(input), id))
    return Reply(tuple(blocks))


def reply(*blocks: Block | str, stop_reason: str | None = None) -> Reply:
    """A reply from blocks in order; a `str` is a text block."""
    return Reply(
        tuple(TextBlock(b) if isinstance(b, str) else b for b in blocks), stop_reason=stop_reason
    )


def as_reply(item: str | Reply) -> Reply:
    """Normalise the `str` shorthand."""
    return text(item) if isinstance(item, str) else item
