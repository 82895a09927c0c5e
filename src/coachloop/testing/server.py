"""`ScriptedModel`: a local HTTP server that answers model API calls from a script.

It speaks the Anthropic Messages API (POST /v1/messages, with or without `?beta=true`,
JSON or `stream: true` Server-Sent Events, plus /v1/messages/count_tokens) and the
OpenAI Chat Completions API (POST /v1/chat/completions). Each model request consumes
the next step of the script; when the script is exhausted the `default` step answers,
and without a default the server answers 500 "script exhausted". Every request is
recorded in `requests`, in arrival order.

Side calls: with `side_call` set, a model request that carries no `tools` is first
offered to that rule (an item, or a callable returning an item or None to decline);
an answered side call does not consume the script. Claude Code sends such small
requests (titles, summaries) next to its agent turns, which always carry tools.

    with ScriptedModel([tool_use("record_verdict", {...}), Fail(529)]) as model:
        client = anthropic.Anthropic(base_url=model.base_url, api_key="test")
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable, Iterable
from types import TracebackType
from typing import Any, TypeAlias

from coachloop.testing import anthropic_wire, openai_wire
from coachloop.testing._http import LocalHTTPServer
from coachloop.testing.handler import Handler
from coachloop.testing.replies import (
    Api,
    Delay,
    Fail,
    RecordedRequest,
    Reply,
    ScriptItem,
    Step,
    as_reply,
)
from coachloop.testing.response import Response, json_response

__all__ = ["ScriptedModel", "SideRule"]

SideRule: TypeAlias = ScriptItem | Callable[[dict[str, Any]], ScriptItem | None]
EXHAUSTED = Fail(500, error_type="api_error", message="scripted model: script exhausted")


class ScriptedModel:
    """A scripted model API server on `host`, an ephemeral port unless `port` is given.

    Contract: steps are served strictly in order, one per model request (side calls
    excepted); `requests` holds every request received, including ones that timed out
    at the client. A `Responder` that raises makes the server answer 500 and appends
    the exception to `errors`. Use as a context manager, or call `start()`/`close()`.
    """

    def __init__(
        self,
        script: Iterable[Step] = (),
        *,
        default: Step | None = None,
        side_call: SideRule | None = None,
        host: str = "127.0.0.1",
        port: int = 0,
    ) -> None:
        self._script: deque[Step] = deque(script)
        self.default = default
        self.side_call = side_call
        self.errors: list[BaseException] = []
        self._requests: list[RecordedRequest] = []
        self._lock = threading.Lock()
        self._counter = 0
        self.closing = threading.Event()
        self._http = LocalHTTPServer(self, Handler, host=host, port=port, name="scripted-model")

    # -- lifecycle ---------------------------------------------------------------
    @property
    def base_url(self) -> str:
        """The root URL, e.g. "http://127.0.0.1:41234" (Anthropic SDK, Claude Code)."""
        return self._http.base_url

    @property
    def openai_base_url(self) -> str:
        """The URL for OpenAI-compatible clients: `base_url` + "/v1"."""
        return f"{self.base_url}/v1"

    def start(self) -> ScriptedModel:
        """Serve in a daemon thread; returns self. Starting twice is a no-op."""
        self._http.start()
        return self

    def close(self) -> None:
        """Stop serving; pending delays end at once."""
        self.closing.set()
        self._http.close()

    def __enter__(self) -> ScriptedModel:
        return self.start()

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    # -- script and records ------------------------------------------------------
    def extend(self, *steps: Step) -> None:
        """Append steps to the script."""
        with self._lock:
            self._script.extend(steps)

    @property
    def remaining(self) -> int:
        """Script steps not yet consumed."""
        with self._lock:
            return len(self._script)

    @property
    def requests(self) -> list[RecordedRequest]:
        """A copy of every request received so far, in order."""
        with self._lock:
            return list(self._requests)

    @property
    def model_requests(self) -> list[RecordedRequest]:
        """The requests the script answered: model API POSTs that were not side calls."""
        return [r for r in self.requests if r.api != "other" and not r.side_call]

    def record(self, request: RecordedRequest) -> None:
        with self._lock:
            self._requests.append(request)

    def next_id(self) -> int:
        with self._lock:
            self._counter += 1
            return self._counter

    # -- choosing and rendering --------------------------------------------------
    def choose(self, body: dict[str, Any]) -> tuple[ScriptItem, bool]:
        """The item answering a model request, and whether it was a side call."""
        if self.side_call is not None and not body.get("tools"):
            rule = self.side_call
            try:
                side = rule(body) if callable(rule) else rule
            except Exception as exc:  # a broken rule must not hang the client
                self.errors.append(exc)
                return Fail(500, message=f"scripted model: side_call raised {exc!r}"), True
            if side is not None:
                return side, True
        with self._lock:
            step: Step | None = self._script.popleft() if self._script else self.default
        if step is None:
            return EXHAUSTED, False
        if callable(step):
            try:
                return step(body), False
            except Exception as exc:
                self.errors.append(exc)
                return Fail(500, message=f"scripted model: responder raised {exc!r}"), False
        return step, False

    def render(self, api: Api, item: ScriptItem, body: dict[str, Any]) -> Response:
        """Turn a script item into an HTTP answer in the shape of `api`."""
        delay = 0.0
        while isinstance(item, Delay):
            delay += item.seconds
            item = item.then
        n = self.next_id()
        if isinstance(item, Fail):
            return self._fail(api, item, n, delay)
        return self._reply(api, as_reply(item), body, n, delay)

    def _fail(self, api: Api, fail: Fail, n: int, delay: float) -> Response:
        request_id = f"req_scripted_{n:04d}"
        headers = {"request-id": request_id, "x-request-id": request_id}
        if fail.retry_after is not None:
            headers["retry-after"] = f"{fail.retry_after:g}"
        payload = (
            openai_wire.error_body(fail)
            if api == "openai"
            else anthropic_wire.error_body(fail, request_id)
        )
        return json_response(fail.status, payload, headers=headers, delay=delay)

    def _reply(
        self, api: Api, reply: Reply, body: dict[str, Any], n: int, delay: float
    ) -> Response:
        tool_ids = [f"toolu_scripted_{n:04d}_{i}" for i in range(len(reply.blocks))]
        prompt_tokens = anthropic_wire.estimate_tokens(str(body))
        model = str(body.get("model") or "")
        headers = {"request-id": f"req_scripted_{n:04d}"}
        stream = body.get("stream") is True
        if api == "openai":
            full = openai_wire.completion_json(
                reply,
                completion_id=f"chatcmpl-scripted-{n:04d}",
                tool_ids=tool_ids,
                model=model or openai_wire.DEFAULT_MODEL,
                created=int(time.time()),
                prompt_tokens=prompt_tokens,
            )
            if stream:
                return Response(
                    200,
                    openai_wire.stream_chunks(full),
                    stream=True,
                    content_type="text/event-stream",
                    headers=headers,
                    delay=delay,
                )
            return json_response(200, full, headers=headers, delay=delay)
        kwargs: dict[str, Any] = {
            "message_id": f"msg_scripted_{n:04d}",
            "tool_ids": tool_ids,
            "model": model or anthropic_wire.DEFAULT_MODEL,
            "input_tokens": prompt_tokens,
        }
        if stream:
            return Response(
                200,
                anthropic_wire.sse_events(reply, **kwargs),
                stream=True,
                content_type="text/event-stream; charset=utf-8",
                headers=headers,
                delay=delay,
            )
        return json_response(
            200, anthropic_wire.message_json(reply, **kwargs), headers=headers, delay=delay
        )
