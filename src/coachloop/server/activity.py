"""The daemon's single call into the hook pipeline, with request accounting.

`Activity.handle(agent, raw)` returns what `coachloop.agents.hook.handle` returns, and
never raises (a failure is logged and answered with the empty reply: the agent stops).
It counts requests in flight and remembers when the last one ended, for the idle timeout
and a graceful shutdown.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from coachloop.agents.hook import HookReply, handle

log = logging.getLogger("coachloop.server")


class Activity:
    """Thread-safe request accounting around `handle()`."""

    def __init__(
        self,
        handler: Callable[[str, bytes], HookReply] = handle,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._handler = handler
        self._clock = clock
        self._cond = threading.Condition()
        self._in_flight = 0
        self._last = clock()
        self.served = 0

    def handle(self, agent: str, raw: bytes) -> HookReply:
        """Handle one hook payload; never raises."""
        with self._cond:
            self._in_flight += 1
        try:
            return self._handler(agent, raw)
        except Exception:  # handle() fails open itself; this is the last guard
            log.exception("hook handler failed for agent %r", agent)
            return HookReply()
        finally:
            with self._cond:
                self._in_flight -= 1
                self._last = self._clock()
                self.served += 1
                self._cond.notify_all()

    def touch(self) -> None:
        """Count a request that did not reach the handler (e.g. a health check)."""
        with self._cond:
            self._last = self._clock()

    @property
    def in_flight(self) -> int:
        with self._cond:
            return self._in_flight

    def idle_for(self) -> float:
        """Seconds since the last request ended; 0 while one is in flight."""
        with self._cond:
            return 0.0 if self._in_flight else self._clock() - self._last

    def wait_drained(self, timeout: float) -> bool:
        """Wait until no request is in flight (at most `timeout` s); True if drained."""
        with self._cond:
            return self._cond.wait_for(lambda: self._in_flight == 0, timeout)
