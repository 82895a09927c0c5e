"""OpenAI Responses API wire format (POST /v1/responses): response JSON, SSE events, errors.

This is the API Codex CLI speaks (`wire_api = "responses"` in a `[model_providers.X]`
entry). Text blocks become `message` output items with one `output_text` part; tool_use
blocks become `function_call` items (`call_id`, `name`, `arguments` as a JSON string),
which Codex executes (its shell tool is `exec_command` with `{"cmd": "..."}`) and answers
with a `function_call_output` input item in the next request.

A streaming answer is `event: NAME\\ndata: {json}\\n\\n` records, as the API writes them:
response.created, response.in_progress, then per output item output_item.added,
(content_part.added, output_text.delta..., output_text.done, content_part.done) or
(function_call_arguments.delta, function_call_arguments.done), output_item.done, and
finally response.completed carrying the whole response with its usage. Every record has
a `sequence_number`.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from coachloop.testing.replies import Reply, TextBlock, ToolUseBlock

__all__ = ["function_outputs", "input_texts", "response_json", "sse_events"]

DEFAULT_MODEL = "gpt-scripted"
_TEXT_CHUNK = 24  # characters per output_text.delta
_ARGS_CHUNK = 32  # characters per function_call_arguments.delta


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _item(block: TextBlock | ToolUseBlock, n: int, index: int, tool_id: str) -> dict[str, Any]:
    if isinstance(block, TextBlock):
        return {
            "id": f"msg_scripted_{n:04d}_{index}",
            "type": "message",
            "status": "completed",
            "role": "assistant",
            "content": [{"type": "output_text", "text": block.text, "annotations": []}],
        }
    return {
        "id": f"fc_scripted_{n:04d}_{index}",
        "type": "function_call",
        "status": "completed",
        "call_id": block.id or tool_id,
        "name": block.name,
        "arguments": _dumps(dict(block.input)),
    }


def response_json(
    reply: Reply, *, n: int, tool_ids: list[str], model: str, created: int, input_tokens: int
) -> dict[str, Any]:
    """The non-streaming `response` object for `reply` (also the body of
    response.completed); `tool_ids` name the tool blocks' call ids in order."""
    from coachloop.testing.anthropic_wire import estimate_tokens

    ids = iter(tool_ids)
    output = [
        _item(b, n, i, next(ids) if isinstance(b, ToolUseBlock) else "")
        for i, b in enumerate(reply.blocks)
    ]
    output_tokens = estimate_tokens(_dumps(output))
    return {
        "id": f"resp_scripted_{n:04d}",
        "object": "response",
        "created_at": created,
        "status": "completed",
        "error": None,
        "incomplete_details": None,
        "model": reply.model or model,
        "output": output,
        "parallel_tool_calls": True,
        "tool_choice": "auto",
        "tools": [],
        "usage": {
            "input_tokens": input_tokens,
            "input_tokens_details": {"cached_tokens": 0},
            "output_tokens": output_tokens,
            "output_tokens_details": {"reasoning_tokens": 0},
            "total_tokens": input_tokens + output_tokens,
        },
    }


def _chunks(text: str, size: int) -> Iterator[str]:
    for start in range(0, len(text), size):
        yield text[start : start + size]


def _item_events(index: int, item: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    """The events that stream one output item."""
    opening = dict(item, status="in_progress")
    base = {"item_id": item["id"], "output_index": index}
    if item["type"] == "message":
        opening["content"] = []
        yield "response.output_item.added", {"output_index": index, "item": opening}
        text = item["content"][0]["text"]
        part = {"type": "output_text", "text": "", "annotations": []}
        yield "response.content_part.added", dict(base, content_index=0, part=part)
        for delta in _chunks(text, _TEXT_CHUNK):
            yield "response.output_text.delta", dict(base, content_index=0, delta=delta)
        yield "response.output_text.done", dict(base, content_index=0, text=text)
        done_part = dict(part, text=text)
        yield "response.content_part.done", dict(base, content_index=0, part=done_part)
    else:
        opening["arguments"] = ""
        yield "response.output_item.added", {"output_index": index, "item": opening}
        for delta in _chunks(item["arguments"], _ARGS_CHUNK):
            yield "response.function_call_arguments.delta", dict(base, delta=delta)
        yield "response.function_call_arguments.done", dict(base, arguments=item["arguments"])
    yield "response.output_item.done", {"output_index": index, "item": item}


def sse_events(full: dict[str, Any]) -> Iterator[bytes]:
    """The streaming body for the response object `full`, one SSE record at a time."""
    pending = dict(full, status="in_progress", output=[], usage=None)
    events: list[tuple[str, dict[str, Any]]] = [
        ("response.created", {"response": pending}),
        ("response.in_progress", {"response": pending}),
    ]
    for index, item in enumerate(full["output"]):
        events.extend(_item_events(index, item))
    events.append(("response.completed", {"response": full}))
    for number, (name, data) in enumerate(events):
        record = {"type": name, "sequence_number": number, **data}
        yield f"event: {name}\ndata: {_dumps(record)}\n\n".encode()


# --- reading what a client sent (for tests and demos) -----------------------------------


def function_outputs(body: dict[str, Any]) -> list[str]:
    """The `output` of every `function_call_output` input item of a request, in order."""
    items = body.get("input")
    return [
        str(item.get("output"))
        for item in (items if isinstance(items, list) else [])
        if isinstance(item, dict) and item.get("type") == "function_call_output"
    ]


def input_texts(body: dict[str, Any], role: str = "user") -> list[str]:
    """The text of every `message` input item of `role`, in order (parts joined)."""
    items = body.get("input")
    texts = []
    for item in items if isinstance(items, list) else []:
        if not isinstance(item, dict) or item.get("role") != role:
            continue
        content = item.get("content")
        if isinstance(content, str):
            texts.append(content)
        elif isinstance(content, list):
            texts.append(
                "".join(
                    str(part.get("text", ""))
                    for part in content
                    if isinstance(part, dict) and isinstance(part.get("text"), str)
                )
            )
    return texts
