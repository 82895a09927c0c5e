"""Turning one script item into an HTTP answer in the shape of the API that was called.

`reply_response(api, reply, body, n, stream, model)` and `fail_response(api, fail, n)`
render for every API `ScriptedModel` speaks: Anthropic Messages, OpenAI Chat
Completions, the OpenAI Responses API and the Gemini API. `n` is the server's running
answer number: it makes ids unique and deterministic ("msg_scripted_0003",
"toolu_scripted_0003_1", ...). `model` is the model the request named ("" when none).
"""

from __future__ import annotations

import time
from typing import Any

from coachloop.testing import anthropic_wire, gemini_wire, openai_wire, responses_wire
from coachloop.testing.replies import Api, Fail, Reply
from coachloop.testing.response import Response, json_response

__all__ = ["fail_response", "reply_response"]

_SSE = "text/event-stream"


def fail_response(api: Api, fail: Fail, n: int, delay: float = 0.0) -> Response:
    """The API's error answer for `fail`."""
    request_id = f"req_scripted_{n:04d}"
    headers = {"request-id": request_id, "x-request-id": request_id}
    if fail.retry_after is not None:
        headers["retry-after"] = f"{fail.retry_after:g}"
    if api in ("openai", "responses"):
        payload = openai_wire.error_body(fail)
    elif api == "gemini":
        payload = gemini_wire.error_body(fail)
    else:
        payload = anthropic_wire.error_body(fail, request_id)
    return json_response(fail.status, payload, headers=headers, delay=delay)


def reply_response(
    api: Api,
    reply: Reply,
    body: dict[str, Any],
    n: int,
    *,
    stream: bool,
    model: str = "",
    delay: float = 0.0,
) -> Response:
    """The API's success answer carrying `reply`, streamed (SSE) when `stream`."""
    tool_ids = [f"toolu_scripted_{n:04d}_{i}" for i in range(len(reply.blocks))]
    tokens = anthropic_wire.estimate_tokens(str(body))
    headers = {"request-id": f"req_scripted_{n:04d}"}

    def answer(full: Any, chunks: Any, content_type: str = _SSE) -> Response:
        if stream:
            return Response(
                200, chunks, stream=True, content_type=content_type, headers=headers, delay=delay
            )
        return json_response(200, full, headers=headers, delay=delay)

    if api == "openai":
        full = openai_wire.completion_json(
            reply,
            completion_id=f"chatcmpl-scripted-{n:04d}",
            tool_ids=tool_ids,
            model=model or openai_wire.DEFAULT_MODEL,
            created=int(time.time()),
            prompt_tokens=tokens,
        )
        return answer(full, openai_wire.stream_chunks(full) if stream else ())
    if api == "responses":
        full = responses_wire.response_json(
            reply,
            n=n,
            tool_ids=tool_ids,
            model=model or responses_wire.DEFAULT_MODEL,
            created=int(time.time()),
            input_tokens=tokens,
        )
        return answer(full, responses_wire.sse_events(full) if stream else ())
    if api == "gemini":
        name = model or "gemini-scripted"
        full = gemini_wire.response_json(reply, n=n, model=name, prompt_tokens=tokens)
        records = gemini_wire.sse_records(reply, n=n, model=name, prompt_tokens=tokens)
        return answer(full, records if stream else ())
    kwargs: dict[str, Any] = {
        "message_id": f"msg_scripted_{n:04d}",
        "tool_ids": tool_ids,
        "model": model or anthropic_wire.DEFAULT_MODEL,
        "input_tokens": tokens,
    }
    return answer(
        anthropic_wire.message_json(reply, **kwargs),
        anthropic_wire.sse_events(reply, **kwargs) if stream else (),
        "text/event-stream; charset=utf-8",
    )
