"""`ScriptedModel`: a local HTTP server that answers model API calls from a script.

It speaks the Anthropic Messages API (POST /v1/messages, with or without `?beta=true`,
JSON or `stream: true` Server-Sent Events, plus /v1/messages/count_tokens), the OpenAI
Chat Completions API (POST /v1/chat/completions), the OpenAI Responses API (POST
/v1/responses, as Codex CLI calls it) and the Gemini API (POST
/v1beta/models/{model}:generateContent or :streamGenerateContent, as Gemini CLI calls
it), all from the same script items. Each model request consumes
the next step of the script; when the script is exhausted the `default` step answers,
and without a default the server answers 500 "script exhausted". Every request is
recorded in `requests`, in arrival order.

Side calls: with `side_call` set, a model request that carries no `tools` is first
offered to that rule (an item, or a callable returning an item or None to decline);
an answered side call does not consume the script. Claude Code sends such small
requests (titles, summaries) next to its agent turns, which always carry tools; Gemini
CLI sends some too (routing, next-speaker checks) unless a model is named with `-m`.

    with ScriptedModel([tool_use("record_verdict", {...}), Fail(529)]) as model:
        client = anthropic.Anthropic(base_url=model.base_url, api_key="test")
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable, Iterable
from types import TracebackType
from typing import Any, TypeAlias

from coachloop.testing._http import LocalHTTPServer
from coachloop.testing.handler import Handler
from coachloop.testing.render import fail_response, reply_response
from coachloop.testing.replies import (
    Api,
    Delay,
    Fail,
    RecordedRequest,
    ScriptItem,
    Step,
    as_reply,
)
from coachloop.testing.response import Response

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

    def render(
        self,
        api: Api,
        item: ScriptItem,
        body: dict[str, Any],
        *,
        stream: bool | None = None,
        model: str | None = None,
    ) -> Response:
        """Turn a script item into an HTTP answer in the shape of `api`. `stream` defaults
        to the body's `stream` flag, `model` to the body's `model` (the Gemini API names
        both in the URL instead, so its route passes them)."""
        delay = 0.0
        while isinstance(item, Delay):
            delay += item.seconds
            item = item.then
        n = self.next_id()
        if isinstance(item, Fail):
            return fail_response(api, item, n, delay)
        return reply_response(
            api,
            as_reply(item),
            body,
            n,
            stream=body.get("stream") is True if stream is None else stream,
            model=str(body.get("model") or "") if model is None else model,
            delay=delay,
        )
