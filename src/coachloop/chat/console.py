"""The embedded default channel: deliveries printed in the terminal.

With no Telegram token, `coachloop bridge` shows every store's new outbox entries with
the project's console channel (`coachloop.chat.delivery.deliver_to_console`): each
entry is printed once (a cursor per store remembers the last one shown) and the outbox
itself is left alone, so the entries stay in the outbox history, pending for a chat
bridge started later.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TextIO

from coachloop.chat.routing import Source


def print_pending(sources: list[Source], out: TextIO) -> int:
    """Print the entries of `sources` not shown yet; returns how many were printed."""
    from coachloop.chat.delivery import deliver_to_console

    return sum(deliver_to_console(s.supervisor.reads, out) for s in sources)


def follow(
    sources: list[Source],
    out: TextIO,
    *,
    interval: float = 1.0,
    should_stop: Callable[[], bool] = lambda: False,
) -> int:
    """Print deliveries as they arrive until `should_stop()`; returns the count printed."""
    total = 0
    while True:
        total += print_pending(sources, out)
        if should_stop():
            return total
        time.sleep(interval)
