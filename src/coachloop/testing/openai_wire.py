"""OpenAI Chat Completions wire format: completion JSON, stream chunks, error bodies.

Text blocks become `message.content`; tool_use blocks become `message.tool_calls`
(function calls with JSON-string arguments). A `response_format` in the request needs
nothing special: the scripted text is returned as the content.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from coachloop.testing.anthropic_wire import estimate_tokens
from coachloop.testing.replies import Fail, Reply, ToolUseBlock

__all__ = ["completion_json", "error_body", "stream_chunks"]

DEFAULT_MODEL = "gpt-scripted"
_FINISH = {"tool_use": "tool_calls", "max_tokens": "length", "end_turn": "stop"}
_OPENAI_ERROR_TYPES = {
    400: "invalid_request_error",
    401: "invalid_request_error",
    403: "insufficient_quota",
    404: "invalid_request_error",
    429: "rate_limit_exceeded",
}


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _message(reply: Reply, tool_ids: list[str]) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": reply.text or None, "refusal": None}
    tools = [b for b in reply.blocks if isinstance(b, ToolUseBlock)]
    if tools:
        message["tool_calls"] = [
            {
                "id": b.id or tool_id,
                "type": "function",
                "function": {"name": b.name, "arguments": _dumps(dict(b.input))},
            }
            for b, tool_id in zip(tools, tool_ids, strict=False)
        ]
    elif message["content"] is None:
        message["content"] = ""
    return message


def completion_json(
    reply: Reply,
    *,
    completion_id: str,
    tool_ids: list[str],
    model: str,
    created: int,
    prompt_tokens: int,
) -> dict[str, Any]:
    """The non-streaming `chat.completion` body for `reply`."""
    message = _message(reply, tool_ids)
    out_text = (message["content"] or "") + _dumps(message.get("tool_calls", []))
    completion_tokens = estimate_tokens(out_text)
    return {
        "id": completion_id,
        "object": "chat.completion",
        "created": created,
        "model": reply.model or model,
        "choices": [
            {
                "index": 0,
                "message": message,
                "logprobs": None,
                "finish_reason": _FINISH.get(reply.effective_stop_reason, "stop"),
            }
        ],
        "usage": {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
        },
    }


def stream_chunks(full: dict[str, Any]) -> Iterator[bytes]:
    """A `chat.completion.chunk` stream carrying `full` in one delta, then `[DONE]`."""
    choice = full["choices"][0]
    delta = dict(choice["message"])
    if "tool_calls" in delta:
        delta["tool_calls"] = [dict(c, index=i) for i, c in enumerate(delta["tool_calls"])]
    base = {k: full[k] for k in ("id", "created", "model")}
    base["object"] = "chat.completion.chunk"
    first = dict(
        base, choices=[{"index": 0, "delta": delta, "logprobs": None, "finish_reason": None}]
    )
    last = dict(
        base,
        choices=[
            {"index": 0, "delta": {}, "logprobs": None, "finish_reason": choice["finish_reason"]}
        ],
    )
    for chunk in (first, last):
        yield f"data: {_dumps(chunk)}\n\n".encode()
    yield b"data: [DONE]\n\n"


def error_body(fail: Fail) -> dict[str, Any]:
    """OpenAI's error object: {"error": {"message", "type", "param", "code"}}."""
    kind = fail.error_type or _OPENAI_ERROR_TYPES.get(fail.status, "server_error")
    return {"error": {"message": fail.detail, "type": kind, "param": None, "code": None}}
