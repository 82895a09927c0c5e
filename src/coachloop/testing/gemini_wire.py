"""Gemini API wire format (`models/{model}:generateContent` and `:streamGenerateContent`).

This is the API `@google/gemini-cli` calls at `GOOGLE_GEMINI_BASE_URL` with a
`GEMINI_API_KEY`: POST `/v1beta/models/{model}:streamGenerateContent?alt=sse` for agent
turns (they carry `tools`), `:generateContent` for small side calls, `:countTokens`.
Text blocks become `{"text": ...}` parts of the candidate's content (role "model");
tool_use blocks become `{"functionCall": {"name", "args"}}` parts, which Gemini CLI
executes (its shell tool is `run_shell_command` with `{"command": "..."}`) and answers
with a `functionResponse` part in the next request.

A streamed answer is `data: {GenerateContentResponse}\\r\\n\\r\\n` records: the text in
chunks, then the function calls, and a last record carrying `finishReason` and
`usageMetadata`. Errors are `{"error": {"code", "message", "status"}}`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

from coachloop.testing.replies import Fail, Reply, TextBlock

__all__ = [
    "PATH",
    "error_body",
    "function_responses",
    "response_json",
    "sse_records",
    "user_texts",
]

# /v1beta/models/gemini-x:streamGenerateContent (the API version and model are free)
PATH = re.compile(
    r"^/v1[a-z0-9]*/models/([^/:]+):(generateContent|streamGenerateContent|countTokens)$"
)
_TEXT_CHUNK = 40  # characters per streamed text record
_STATUS = {
    400: "INVALID_ARGUMENT",
    401: "UNAUTHENTICATED",
    403: "PERMISSION_DENIED",
    404: "NOT_FOUND",
    429: "RESOURCE_EXHAUSTED",
    500: "INTERNAL",
    503: "UNAVAILABLE",
    504: "DEADLINE_EXCEEDED",
}
_FINISH = {"max_tokens": "MAX_TOKENS"}


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _parts(reply: Reply) -> list[dict[str, Any]]:
    return [
        {"text": b.text}
        if isinstance(b, TextBlock)
        else {"functionCall": {"name": b.name, "args": dict(b.input)}}
        for b in reply.blocks
    ]


def _usage(prompt_tokens: int, parts: list[dict[str, Any]]) -> dict[str, int]:
    from coachloop.testing.anthropic_wire import estimate_tokens

    out = estimate_tokens(_dumps(parts))
    return {
        "promptTokenCount": prompt_tokens,
        "candidatesTokenCount": out,
        "totalTokenCount": prompt_tokens + out,
    }


def _response(parts: list[dict[str, Any]], model: str, n: int) -> dict[str, Any]:
    return {
        "candidates": [{"content": {"role": "model", "parts": parts}, "index": 0}],
        "modelVersion": model,
        "responseId": f"scripted-{n:04d}",
    }


def response_json(reply: Reply, *, n: int, model: str, prompt_tokens: int) -> dict[str, Any]:
    """The non-streaming `GenerateContentResponse` for `reply`."""
    parts = _parts(reply)
    full = _response(parts, reply.model or model, n)
    full["candidates"][0]["finishReason"] = _FINISH.get(reply.effective_stop_reason, "STOP")
    full["usageMetadata"] = _usage(prompt_tokens, parts)
    return full


def sse_records(reply: Reply, *, n: int, model: str, prompt_tokens: int) -> Iterator[bytes]:
    """The streamed body for `reply`: text chunks, function calls, then the finish."""
    full = response_json(reply, n=n, model=model, prompt_tokens=prompt_tokens)
    name = full["modelVersion"]
    chunks: list[list[dict[str, Any]]] = []
    for part in full["candidates"][0]["content"]["parts"]:
        if "text" in part:
            text = part["text"]
            pieces = [text[i : i + _TEXT_CHUNK] for i in range(0, len(text), _TEXT_CHUNK)]
            chunks.extend([{"text": piece}] for piece in pieces or [""])
        else:
            chunks.append([part])
    last = _response(chunks.pop() if chunks else [], name, n)
    for parts in chunks:
        yield f"data: {_dumps(_response(parts, name, n))}\r\n\r\n".encode()
    last["candidates"][0]["finishReason"] = full["candidates"][0]["finishReason"]
    last["usageMetadata"] = full["usageMetadata"]
    yield f"data: {_dumps(last)}\r\n\r\n".encode()


def error_body(fail: Fail) -> dict[str, Any]:
    """Google's error object: {"error": {"code", "message", "status"}}."""
    status = fail.error_type or _STATUS.get(fail.status, "UNKNOWN")
    return {"error": {"code": fail.status, "message": fail.detail, "status": status}}


def count_tokens_json(body: dict[str, Any]) -> dict[str, Any]:
    """An answer to `:countTokens`."""
    from coachloop.testing.anthropic_wire import estimate_tokens

    return {"totalTokens": estimate_tokens(_dumps(body))}


# --- reading what a client sent (for tests and demos) -----------------------------------


def _contents(body: dict[str, Any]) -> list[dict[str, Any]]:
    contents = body.get("contents")
    return [c for c in contents if isinstance(c, dict)] if isinstance(contents, list) else []


def function_responses(body: dict[str, Any]) -> list[Any]:
    """The `response` of every `functionResponse` part of a request, in order."""
    found = []
    for content in _contents(body):
        for part in content.get("parts") or []:
            if isinstance(part, dict) and isinstance(part.get("functionResponse"), dict):
                found.append(part["functionResponse"].get("response"))
    return found


def user_texts(body: dict[str, Any]) -> list[str]:
    """The text of every user content of a request (its text parts joined), in order;
    contents holding only function responses are left out."""
    texts = []
    for content in _contents(body):
        if content.get("role") != "user":
            continue
        parts = [p for p in content.get("parts") or [] if isinstance(p, dict)]
        if parts and all("text" in p for p in parts):
            texts.append("".join(str(p["text"]) for p in parts))
    return texts
