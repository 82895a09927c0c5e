"""The token `coachloop serve` requires on every HTTP request.

`COACHLOOP_SERVE_TOKEN` when set; else the token stored in `$COACHLOOP_HOME/serve.token`
(mode 0600 in the private data directory), generated on the first start (32 random
bytes, URL-safe). `coachloop install --http` writes hooks whose `Authorization` header
reads the token from `$COACHLOOP_SERVE_TOKEN` (Claude Code interpolates the variables a
hook lists in `allowedEnvVars`); `coachloop dashboard` opens the login URL with it. The
value is registered with `coachloop.redaction`, so no log or page ever shows it.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

ENV_TOKEN = "COACHLOOP_SERVE_TOKEN"
TOKEN_FILE = "serve.token"
MIN_CHARS = 16  # a shorter token is refused: it could be guessed


class TokenError(ValueError):
    """A token that cannot be used (too short, unreadable file); the message says why."""


def token_path() -> Path:
    """Where the generated token is kept: `$COACHLOOP_HOME/serve.token`."""
    from coachloop.config import home

    return home() / TOKEN_FILE


def read_token() -> str | None:
    """The token a client should send: the environment's, else the stored one (None when
    neither exists). Never creates anything."""
    from coachloop.config.env import environment

    value = environment().serve_token
    if value:
        return value
    try:
        return token_path().read_text(encoding="utf-8").strip() or None
    except OSError:
        return None


def ensure_token() -> str:
    """The server's token: the environment's, else the stored one, else a new one stored
    0600 (two servers starting at once agree: the file is created exclusively). Raises
    `TokenError` for a token shorter than `MIN_CHARS`."""
    from coachloop.config.private import in_private
    from coachloop.redaction import register

    token = read_token()
    if token is None:
        path = in_private(token_path())
        fresh = secrets.token_urlsafe(32)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
        except FileExistsError:
            token = read_token()
        else:
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                fh.write(fresh + "\n")
            token = fresh
    if token is None or len(token) < MIN_CHARS:
        raise TokenError(
            f"the serve token must have at least {MIN_CHARS} characters "
            f"({ENV_TOKEN} or {token_path()})"
        )
    register(token)
    return token
