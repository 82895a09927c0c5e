"""Rate limiting for the Bot API: per-chat spacing on top of python-telegram-bot's limiter.

Telegram allows about one message per second in a chat, 20 per minute in a group and 30
per second overall, and answers 429 with `retry_after` beyond that (findings §6).
`ChatRateLimiter` plugs into `ApplicationBuilder().rate_limiter(...)`:

- requests to one chat are serialised, and each starts at least `min_interval` seconds
  after the previous one to that chat finished (so the spacing holds as Telegram sees it);
- `AIORateLimiter` (the `rate-limiter` extra) then applies the overall and per-group
  limits, and on a 429 waits `retry_after` (+0.1 s) and retries, up to `max_retries`
  times, pausing all requests meanwhile; past that the `RetryAfter` error is raised.

Requests without a chat (getMe, getUpdates, ...) are not spaced.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Coroutine
from typing import Any

from telegram.ext import AIORateLimiter, BaseRateLimiter

Result = bool | dict[str, Any] | list[dict[str, Any]]


class ChatRateLimiter(BaseRateLimiter[int]):
    """Per-chat spacing plus `AIORateLimiter` (see the module docstring)."""

    def __init__(
        self,
        min_interval: float = 1.0,
        *,
        max_retries: int = 3,
        overall_max_rate: float = 30,
        group_max_rate: float = 20,
        group_time_period: float = 60,
    ) -> None:
        self.min_interval = min_interval
        self._inner = AIORateLimiter(
            overall_max_rate=overall_max_rate,
            group_max_rate=group_max_rate,
            group_time_period=group_time_period,
            max_retries=max_retries,
        )
        self._locks: dict[str, asyncio.Lock] = {}
        self._last: dict[str, float] = {}

    async def initialize(self) -> None:
        await self._inner.initialize()

    async def shutdown(self) -> None:
        await self._inner.shutdown()

    async def process_request(  # noqa: PLR0917 - python-telegram-bot's signature
        self,
        callback: Callable[..., Coroutine[Any, Any, Result]],
        args: Any,
        kwargs: dict[str, Any],
        endpoint: str,
        data: dict[str, Any],
        rate_limit_args: int | None,
    ) -> Result:
        chat = data.get("chat_id")
        if chat is None or self.min_interval <= 0:
            return await self._inner.process_request(
                callback, args, kwargs, endpoint, data, rate_limit_args
            )
        key = str(chat)
        async with self._locks.setdefault(key, asyncio.Lock()):
            wait = self._last.get(key, float("-inf")) + self.min_interval - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            try:
                return await self._inner.process_request(
                    callback, args, kwargs, endpoint, data, rate_limit_args
                )
            finally:
                self._last[key] = time.monotonic()
