"""The HTTP request handler behind `ScriptedModel` (HTTP/1.1, keep-alive).

Routes: POST /v1/messages (Anthropic; any query such as `?beta=true` is accepted),
POST /v1/messages/count_tokens, POST /v1/chat/completions or /chat/completions
(OpenAI), POST /v1/responses or /responses (OpenAI Responses API), POST
/v1beta/models/{model}:generateContent, :streamGenerateContent (any query, such as
`?alt=sse`) and :countTokens (Gemini); GET / and /health answer {"status": "ok"},
GET /v1/models lists one model;
HEAD answers 200 with no body anywhere; anything else is a 404 in the Anthropic error
shape. Streams are sent with chunked transfer encoding, one SSE record per chunk.
"""

from __future__ import annotations

import json
from http.server import BaseHTTPRequestHandler
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, urlsplit

from coachloop.testing import anthropic_wire, gemini_wire
from coachloop.testing.replies import Api, Fail, RecordedRequest
from coachloop.testing.response import Response, json_response

if TYPE_CHECKING:
    from coachloop.testing.server import ScriptedModel

__all__ = ["Handler"]

_ANTHROPIC_PATHS = frozenset({"/v1/messages"})
_OPENAI_PATHS = frozenset({"/v1/chat/completions", "/chat/completions"})
_RESPONSES_PATHS = frozenset({"/v1/responses", "/responses"})
_COUNT_PATH = "/v1/messages/count_tokens"
_DISCONNECTS = (BrokenPipeError, ConnectionResetError, ConnectionAbortedError, TimeoutError)


class Handler(BaseHTTPRequestHandler):
    """One connection; `self.server.owner` is the `ScriptedModel`."""

    protocol_version = "HTTP/1.1"
    server_version = "coachloop-scripted-model/1"
    sys_version = ""

    @property
    def owner(self) -> ScriptedModel:
        return self.server.owner  # type: ignore[attr-defined, no-any-return]

    def log_message(self, format: str, *args: Any) -> None:
        """Silent: tests assert on `requests`, not on a log."""

    # -- reading -------------------------------------------------------------------
    def _read_body(self) -> bytes:
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            parts: list[bytes] = []
            while True:
                size = int(self.rfile.readline().split(b";")[0].strip() or b"0", 16)
                if size == 0:
                    while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                        pass
                    return b"".join(parts)
                parts.append(self.rfile.read(size))
                self.rfile.readline()
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length > 0 else b""

    def _record(self, api: Api, raw: bytes, body: Any, side: bool, served: str) -> None:
        url = urlsplit(self.path)
        query = {k: tuple(v) for k, v in parse_qs(url.query, keep_blank_values=True).items()}
        self.owner.record(
            RecordedRequest(
                method=self.command,
                path=url.path,
                query=query,
                headers={k.lower(): v for k, v in self.headers.items()},
                body=body,
                api=api,
                side_call=side,
                served=served,
                raw=raw,
            )
        )

    # -- writing -------------------------------------------------------------------
    def _send(self, response: Response, *, head_only: bool = False) -> None:
        if response.delay > 0 and self.owner.closing.wait(response.delay):
            self.close_connection = True
            return
        try:
            self.send_response(response.status)
            self.send_header("Content-Type", response.content_type)
            for name, value in response.headers.items():
                self.send_header(name, value)
            if response.stream:
                self.send_header("Cache-Control", "no-cache")
                self.send_header("Transfer-Encoding", "chunked")
                self.end_headers()
                for chunk in response.body:
                    self.wfile.write(f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n")
                    self.wfile.flush()
                self.wfile.write(b"0\r\n\r\n")
            else:
                data = b"".join(response.body)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                if not head_only:
                    self.wfile.write(data)
            self.wfile.flush()
        except _DISCONNECTS:
            self.close_connection = True

    def _json(self, status: int, payload: Any) -> None:
        self._send(json_response(status, payload))

    def _not_found(self) -> None:
        fail = Fail(404, message=f"{self.command} {urlsplit(self.path).path} is not scripted")
        self._json(404, anthropic_wire.error_body(fail, "req_scripted_404"))

    # -- verbs -----------------------------------------------------------------------
    def do_HEAD(self) -> None:
        self._record("other", b"", None, False, "head")
        self._send(json_response(200, {"status": "ok"}), head_only=True)

    def do_GET(self) -> None:
        path = urlsplit(self.path).path
        self._record("other", b"", None, False, "get")
        if path in ("/", "/health"):
            self._json(200, {"status": "ok"})
        elif path == "/v1/models":
            model = {
                "type": "model",
                "id": anthropic_wire.DEFAULT_MODEL,
                "display_name": "Scripted model",
                "created_at": "2025-01-01T00:00:00Z",
            }
            self._json(
                200,
                {
                    "data": [model],
                    "has_more": False,
                    "first_id": model["id"],
                    "last_id": model["id"],
                },
            )
        else:
            self._not_found()

    def do_POST(self) -> None:
        path = urlsplit(self.path).path.rstrip("/") or "/"
        try:
            raw = self._read_body()
        except (ValueError, *_DISCONNECTS):
            self.close_connection = True
            return
        try:
            body: Any = json.loads(raw) if raw else None
        except (ValueError, UnicodeDecodeError):
            body = None
        api, stream, model = _route(path)
        if path == _COUNT_PATH and isinstance(body, dict):
            self._record("other", raw, body, False, "count_tokens")
            self._json(200, anthropic_wire.count_tokens_json(body))
            return
        if api == "gemini" and model is not None and stream is None and isinstance(body, dict):
            self._record("other", raw, body, False, "countTokens")
            self._json(200, gemini_wire.count_tokens_json(body))
            return
        if api == "other":
            self._record("other", raw, body, False, "404")
            self._not_found()
            return
        if not isinstance(body, dict):
            self._record(api, raw, body, False, "400 not a JSON object")
            fail = Fail(400, message="the request body is not a JSON object")
            self._send(self.owner.render(api, fail, {}))
            return
        item, side = self.owner.choose(body)
        self._record(api, raw, body, side, _describe(item))
        self._send(self.owner.render(api, item, body, stream=stream, model=model))


def _route(path: str) -> tuple[Api, bool | None, str | None]:
    """The API a POST path belongs to, and for the Gemini API the streaming flag and the
    model its URL names (stream None: `:countTokens`). Other APIs read both from the body."""
    if path in _ANTHROPIC_PATHS:
        return "anthropic", None, None
    if path in _OPENAI_PATHS:
        return "openai", None, None
    if path in _RESPONSES_PATHS:
        return "responses", None, None
    found = gemini_wire.PATH.match(path)
    if found is None:
        return "other", None, None
    method = found.group(2)
    stream = None if method == "countTokens" else method == "streamGenerateContent"
    return "gemini", stream, found.group(1)


def _describe(item: object) -> str:
    text = repr(item)
    return text if len(text) <= 120 else text[:119] + "…"
