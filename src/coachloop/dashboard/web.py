"""The dashboard's HTTP vocabulary: a request in, a response (or an event stream) out.

The server (`coachloop.server.http`) parses the wire and writes the bytes; the dashboard
only ever sees a `Request` and returns a `Response`, so it needs no web framework and
the hook endpoint's server stays the only one.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from urllib.parse import parse_qs

# Defence in depth beside escaping: no inline script or style can run, nothing is
# framed, no page address (which may carry the login token) leaks as a referrer.
SECURITY_HEADERS = (
    (
        "Content-Security-Policy",
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
    ),
    ("X-Content-Type-Options", "nosniff"),
    ("X-Frame-Options", "DENY"),
    ("Referrer-Policy", "no-referrer"),
    ("Cache-Control", "no-store"),
)
HTML = "text/html; charset=utf-8"


@dataclass(frozen=True, slots=True)
class Request:
    """One HTTP request: `path` without the query, `query` parsed (blank values kept)."""

    method: str
    path: str
    query: Mapping[str, list[str]] = field(default_factory=dict)
    headers: Mapping[str, str] = field(default_factory=dict)
    body: bytes = b""

    @classmethod
    def parse(
        cls, method: str, target: str, headers: Mapping[str, str], body: bytes = b""
    ) -> Request:
        path, _, query = target.partition("?")
        return cls(method, path or "/", parse_qs(query, keep_blank_values=True), headers, body)

    def arg(self, name: str, default: str = "") -> str:
        values = self.query.get(name)
        return values[0] if values else default

    def header(self, name: str) -> str:
        lowered = name.lower()
        for key, value in self.headers.items():
            if key.lower() == lowered:
                return value
        return ""

    def cookies(self) -> dict[str, str]:
        out: dict[str, str] = {}
        for part in self.header("Cookie").split(";"):
            name, sep, value = part.strip().partition("=")
            if sep:
                out[name] = value
        return out

    def form(self) -> dict[str, str]:
        """An `application/x-www-form-urlencoded` body (first value of each field)."""
        parsed = parse_qs(self.body.decode("utf-8", "replace"), keep_blank_values=True)
        return {k: v[0] for k, v in parsed.items()}


@dataclass(slots=True)
class Response:
    """What to answer. With `stream`, the body is written chunk by chunk as it comes
    (server-sent events) and the connection closes after it."""

    status: int = 200
    body: bytes = b""
    content_type: str = HTML
    headers: list[tuple[str, str]] = field(default_factory=list)
    stream: Iterator[bytes] | None = None

    def all_headers(self) -> list[tuple[str, str]]:
        return [("Content-Type", self.content_type), *SECURITY_HEADERS, *self.headers]


def redirect(location: str, *headers: tuple[str, str]) -> Response:
    """A 303 to `location` (a local path)."""
    return Response(303, b"", "text/plain; charset=utf-8", [("Location", location), *headers])


def text(status: int, message: str) -> Response:
    return Response(status, message.encode(), "text/plain; charset=utf-8")


def local_path(target: str) -> str:
    """`target` when it is a path on this server, else "/" (no open redirect)."""
    if not target.startswith("/") or target.startswith("//") or "\\" in target:
        return "/"
    return target
