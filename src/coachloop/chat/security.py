"""Who may talk to the bridge, and keeping the bot token out of every log.

- `Secret`: a value whose `str`/`repr` never show it (`reveal()` does).
- `AllowList`: an update is served only when its user id AND its chat id are listed (a
  private chat's id is the user's id, so listing a user covers their direct chat; a group
  needs its chat id and each member's user id). Strangers are ignored and logged once.
- `install_redaction(secret)`: the secret is registered with `coachloop.redaction` (so
  `redact` hides it everywhere) and every log record created anywhere in the process is
  redacted (a log-record factory,
  so the libraries' loggers are covered too: python-telegram-bot logs its API URL, which
  contains the token, at DEBUG, and httpx logs request URLs at INFO). `RedactingFilter`
  does the same for a handler a caller sets up.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterable
from typing import Any

from coachloop.redaction import REDACTED, register, scrub_record

log = logging.getLogger("coachloop.chat.security")

_LOCK = threading.Lock()
_FACTORY: list[bool] = []  # [True] once the log-record factory is installed


class Secret:
    """A secret string: printing, formatting or repr'ing it shows "[REDACTED]"."""

    __slots__ = ("_value",)

    def __init__(self, value: str) -> None:
        self._value = value

    def reveal(self) -> str:
        """The secret itself: pass it to the library that needs it, never to a log."""
        return self._value

    def __str__(self) -> str:
        return REDACTED

    def __repr__(self) -> str:
        return f"Secret({REDACTED})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Secret) and other._value == self._value

    def __hash__(self) -> int:
        return hash(self._value)


def _scrub(record: logging.LogRecord) -> None:
    """Rewrite `record` in place so that no secret survives formatting."""
    scrub_record(record)


class RedactingFilter(logging.Filter):
    """A handler filter that redacts registered secrets (it never drops a record)."""

    def filter(self, record: logging.LogRecord) -> bool:
        _scrub(record)
        return True


def install_redaction(secret: Secret | str) -> None:
    """Register `secret` and make sure every log record created from now on is redacted.
    Idempotent; safe from any thread."""
    value = secret.reveal() if isinstance(secret, Secret) else secret
    with _LOCK:
        if value:
            register(value)
        if _FACTORY:
            return
        previous = logging.getLogRecordFactory()

        def factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
            record = previous(*args, **kwargs)
            _scrub(record)
            return record

        logging.setLogRecordFactory(factory)
        _FACTORY.append(True)


class AllowList:
    """The Telegram ids that may use the bridge. Empty means nobody (a warning at start)."""

    def __init__(self, ids: Iterable[int]) -> None:
        self.ids = frozenset(ids)
        self._seen: set[tuple[int | None, int | None]] = set()
        self._lock = threading.Lock()

    def permits(self, user_id: int | None, chat_id: int | None) -> bool:
        """True when both the sender and the chat are listed. An update without a user
        (a channel post) or without a chat is never served."""
        return user_id in self.ids and chat_id in self.ids

    def stranger(self, user_id: int | None, chat_id: int | None) -> bool:
        """Note an update that was refused; logs a warning the first time this (user,
        chat) pair is seen and returns True then, False afterwards."""
        key = (user_id, chat_id)
        with self._lock:
            if key in self._seen:
                return False
            self._seen.add(key)
        log.warning(
            "ignoring Telegram user %s in chat %s: not in COACHLOOP_TELEGRAM_ALLOWED"
            " (further messages from them are ignored silently)",
            user_id,
            chat_id,
        )
        return True
