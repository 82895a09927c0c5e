"""The embedded default channel: deliveries printed in the terminal.

With no Telegram token, `coachloop bridge` prints every pending outbox entry of the
sources and marks it sent right after printing, so it is printed once and stays in the
outbox history (`coachloop show SESSION` lists it). A crash between printing and marking
prints that one entry again at the next start.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TextIO

from coachloop.chat.render import short_id
from coachloop.chat.routing import Source, label
from coachloop.store import OutboxEntry

_TITLES = {"deliver": "delivery", "notice": "notice", "alert": "alert"}


def format_entry(entry: OutboxEntry, name: str = "") -> str:
    """An entry as terminal text: a header line, then the text as written."""
    when = time.strftime("%H:%M:%S", time.localtime(entry.created_at))
    where = f"{name} · " if name else ""
    title = _TITLES.get(entry.kind, entry.kind)
    body = entry.text if entry.text.strip() else "(empty message)"
    return f"── {title} · {where}{short_id(entry.session_id)} · {when} ──\n{body}\n"


def print_pending(sources: list[Source], out: TextIO, limit: int = 100) -> int:
    """Print and mark every pending entry of `sources`; returns how many were printed."""
    count = 0
    for source in sources:
        store = source.supervisor.store
        for entry in store.outbox_pending(limit):
            out.write(format_entry(entry, label(source.state(entry.session_id))))
            out.flush()
            store.mark_sent(entry.id)
            count += 1
    return count


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
