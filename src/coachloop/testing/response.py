"""A rendered HTTP answer of the scripted model, independent of the socket."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

__all__ = ["Response", "json_response"]


class Response:
    """Status, headers and body chunks; `stream` sends the chunks as they come (SSE).

    `delay` is how long to wait before answering at all.
    """

    def __init__(
        self,
        status: int,
        body: Iterable[bytes],
        *,
        content_type: str,
        stream: bool = False,
        headers: dict[str, str] | None = None,
        delay: float = 0.0,
    ) -> None:
        self.status = status
        self.body = body
        self.content_type = content_type
        self.stream = stream
        self.headers = headers or {}
        self.delay = delay


def json_response(
    status: int, payload: Any, *, headers: dict[str, str] | None = None, delay: float = 0.0
) -> Response:
    """A compact JSON answer (sent with a Content-Length)."""
    data = json.dumps(payload, separators=(",", ":"), ensure_ascii=False).encode()
    return Response(status, [data], content_type="application/json", headers=headers, delay=delay)
