"""Anthropic Messages API wire format: message JSON, SSE event stream, error bodies.

Shapes follow the official API: a non-streaming answer is a `message` object; a
streaming one is `event: NAME\\ndata: {compact json}\\n\\n` records in the order
message_start, content_block_start, ping, content_block_delta..., content_block_stop
(per block), message_delta (stop_reason, usage), message_stop.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from coachloop.testing.replies import Fail, Reply, TextBlock, ToolUseBlock

__all__ = [
    "error_body",
    "estimate_tokens",
    "message_json",
    "sse_events",
    "sse_record",
    "tool_results",
]

DEFAULT_MODEL = "claude-scripted"
_TEXT_CHUNK = 24  # characters per text_delta
_JSON_CHUNK = 32  # characters per input_json_delta


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def estimate_tokens(text: str) -> int:
    """A deterministic token estimate (about four characters a token, at least 1)."""
    return max(1, (len(text) + 3) // 4)


def _usage(input_tokens: int, output_tokens: int) -> dict[str, Any]:
    return {
        "input_tokens": input_tokens,
        "cache_creation_input_tokens": 0,
        "cache_read_input_tokens": 0,
        "output_tokens": output_tokens,
        "service_tier": "standard",
    }


def _block_json(block: TextBlock | ToolUseBlock, tool_id: str) -> dict[str, Any]:
    if isinstance(block, TextBlock):
        return {"type": "text", "text": block.text}
    return {
        "type": "tool_use",
        "id": block.id or tool_id,
        "name": block.name,
        "input": dict(block.input),
    }


def _output_text(reply: Reply) -> str:
    return "".join(
        b.text if isinstance(b, TextBlock) else _dumps(dict(b.input)) for b in reply.blocks
    )


def message_json(
    reply: Reply, *, message_id: str, tool_ids: list[str], model: str, input_tokens: int
) -> dict[str, Any]:
    """The non-streaming response body for `reply`; `tool_ids` name tool blocks in order."""
    ids = iter(tool_ids)
    content = [
        _block_json(b, next(ids) if isinstance(b, ToolUseBlock) else "") for b in reply.blocks
    ]
    return {
        "id": message_id,
        "type": "message",
        "role": "assistant",
        "model": reply.model or model,
        "content": content,
        "stop_reason": reply.effective_stop_reason,
        "stop_sequence": None,
        "usage": _usage(input_tokens, estimate_tokens(_output_text(reply))),
    }


def sse_record(event: str, data: dict[str, Any]) -> bytes:
    """One Server-Sent Event exactly as the API writes it."""
    return f"event: {event}\ndata: {_dumps(data)}\n\n".encode()


def _chunks(text: str, size: int) -> Iterator[str]:
    for start in range(0, len(text), size):
        yield text[start : start + size]


def sse_events(
    reply: Reply, *, message_id: str, tool_ids: list[str], model: str, input_tokens: int
) -> Iterator[bytes]:
    """The streaming response body for `reply`, one SSE record at a time."""
    full = message_json(
        reply, message_id=message_id, tool_ids=tool_ids, model=model, input_tokens=input_tokens
    )
    start = dict(full, content=[], stop_reason=None, stop_sequence=None)
    start["usage"] = _usage(input_tokens, 1)
    yield sse_record("message_start", {"type": "message_start", "message": start})
    for index, block in enumerate(full["content"]):
        if block["type"] == "text":
            opening: dict[str, Any] = {"type": "text", "text": ""}
            deltas = [
                {"type": "text_delta", "text": c} for c in _chunks(block["text"], _TEXT_CHUNK)
            ]
        else:
            opening = {"type": "tool_use", "id": block["id"], "name": block["name"], "input": {}}
            raw = _dumps(block["input"])
            deltas = [{"type": "input_json_delta", "partial_json": ""}]
            deltas += [
                {"type": "input_json_delta", "partial_json": c} for c in _chunks(raw, _JSON_CHUNK)
            ]
        yield sse_record(
            "content_block_start",
            {"type": "content_block_start", "index": index, "content_block": opening},
        )
        if index == 0:
            yield sse_record("ping", {"type": "ping"})
        for delta in deltas:
            yield sse_record(
                "content_block_delta",
                {"type": "content_block_delta", "index": index, "delta": delta},
            )
        yield sse_record("content_block_stop", {"type": "content_block_stop", "index": index})
    yield sse_record(
        "message_delta",
        {
            "type": "message_delta",
            "delta": {"stop_reason": full["stop_reason"], "stop_sequence": None},
            "usage": {"output_tokens": full["usage"]["output_tokens"]},
        },
    )
    yield sse_record("message_stop", {"type": "message_stop"})


def error_body(fail: Fail, request_id: str) -> dict[str, Any]:
    """The API's error object: {"type": "error", "error": {...}, "request_id": ...}."""
    return {
        "type": "error",
        "error": {"type": fail.kind, "message": fail.detail},
        "request_id": request_id,
    }


def count_tokens_json(body: dict[str, Any]) -> dict[str, Any]:
    """An answer to POST /v1/messages/count_tokens."""
    return {"input_tokens": estimate_tokens(_dumps(body))}


def tool_results(body: dict[str, Any]) -> Iterator[str]:
    """The text of every tool_result block in a Messages API request body, in order
    (what the client's tools printed, as the model is shown it)."""
    for message in body.get("messages") or []:
        content = message.get("content") if isinstance(message, dict) else None
        for block in content if isinstance(content, list) else []:
            if isinstance(block, dict) and block.get("type") == "tool_result":
                inner = block.get("content")
                if isinstance(inner, list):
                    inner = "".join(b.get("text", "") for b in inner if isinstance(b, dict))
                yield str(inner)
