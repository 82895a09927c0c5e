"""Who may see the dashboard.

- With a token (`COACHLOOP_SERVE_TOKEN`), every page and event stream needs proof of it:
  the session cookie, or `Authorization: Bearer <token>`. A browser gets the cookie from
  the login URL `/?token=…` (then a redirect drops the token from the address, as Jupyter
  does) or from the login form. The cookie holds a keyed digest of the token, not the
  token, and is `HttpOnly; SameSite=Strict`.
- Bound to a loopback address, the dashboard answers only requests whose `Host` names a
  loopback host: a web page on another site cannot reach it by pointing its own domain
  at 127.0.0.1 (DNS rebinding).
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
from urllib.parse import quote

from coachloop.dashboard.web import Request

LOOPBACK_NAMES = frozenset({"localhost", "localhost.", "127.0.0.1", "::1"})


def loopback(host: str) -> bool:
    """True when `host` (a name or an address, without port) is this machine only."""
    host = host.strip("[]").lower()
    if host in LOOPBACK_NAMES or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def host_of(header: str) -> str:
    """The host part of a `Host` header ("[::1]:8787" -> "::1", "a:1" -> "a")."""
    header = header.strip()
    if header.startswith("["):
        return header[1 : header.find("]")] if "]" in header else header
    return header.rsplit(":", 1)[0] if header.count(":") == 1 else header


def login_url(host: str, port: int, token: str | None, path: str = "/") -> str:
    """The URL that opens the dashboard (and logs the browser in when there is a token)."""
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{port}{path}"
    return f"{url}?token={quote(token, safe='')}" if token else url


class Gate:
    """The dashboard's checks for one server (`token` None: no login needed)."""

    def __init__(self, token: str | None, port: int, bound_host: str) -> None:
        self.token = token or None
        self.cookie_name = f"coachloop-dashboard-{port}"
        self.local_only = loopback(bound_host)

    @property
    def cookie_value(self) -> str:
        assert self.token is not None
        key = self.token.encode()
        return hmac.new(key, b"coachloop dashboard session", hashlib.sha256).hexdigest()

    def host_ok(self, request: Request) -> bool:
        """False for a request naming a non-loopback host to a loopback-bound server."""
        return not self.local_only or loopback(host_of(request.header("Host")))

    def valid(self, given: str) -> bool:
        """True when `given` is the token (constant-time comparison)."""
        return self.token is not None and hmac.compare_digest(given.encode(), self.token.encode())

    def allowed(self, request: Request) -> bool:
        """True when no token is needed, or the request carries the cookie or the token."""
        if self.token is None:
            return True
        cookie = request.cookies().get(self.cookie_name, "")
        if cookie and hmac.compare_digest(cookie.encode(), self.cookie_value.encode()):
            return True
        bearer = request.header("Authorization")
        return bearer.startswith("Bearer ") and self.valid(bearer[len("Bearer ") :])

    def set_cookie(self) -> tuple[str, str]:
        value = f"{self.cookie_name}={self.cookie_value}; HttpOnly; SameSite=Strict; Path=/"
        return ("Set-Cookie", value)

    def clear_cookie(self) -> tuple[str, str]:
        return ("Set-Cookie", f"{self.cookie_name}=; Max-Age=0; HttpOnly; SameSite=Strict; Path=/")
