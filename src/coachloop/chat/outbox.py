"""Sending the stores' outboxes through a chat channel, losing nothing, duplicating nothing.

`OutboxPump.drain()` goes through every source's pending entries, oldest first. For an
entry it opens a ledger job (the target chat and the rendered parts, fixed at the first
attempt), sends the parts not yet accepted, records each accepted part (with its message
id, for reply routing) in the ledger right after the channel returns, and finally marks
the entry sent in the store. All of that bookkeeping runs synchronously, in the event
loop's thread, with no await between the channel's acceptance and the local commit.

Guarantees:
- An entry is marked sent only after the channel accepted every part (for Telegram: an
  HTTP 200 with `ok: true`). An outage, a refusal or a crash leaves it pending; it is
  retried (from the first part not accepted) on the next drain or after a restart.
- A part is sent twice only if the process dies (or the request times out) after
  Telegram accepted it and before the ledger commit that follows: at most one duplicate
  message per such crash. After every part is recorded, a crash before `mark_sent` sends
  nothing again: the restart sees the job complete and only marks the entry.

`stopping()` is checked before every part: a graceful stop ends after the part in
flight, whose acceptance is still recorded.

Failures: `RetryLater(seconds)` holds that chat's entries until then (order within a chat
is kept); `Refused` holds that entry with an exponential backoff (1 min .. 30 min) and is
logged; any other error ends the drain (the caller waits and drains again).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Any, Protocol

from coachloop.chat.ledger import Job, Ledger
from coachloop.chat.render import render
from coachloop.chat.routing import Router, Source, label
from coachloop.redaction import redact
from coachloop.store import OutboxEntry

log = logging.getLogger("coachloop.chat.outbox")
BATCH = 50
MAX_HOLD = 1800.0


class RetryLater(Exception):  # noqa: N818 - reads as an instruction
    """The channel asks to wait `seconds` before sending to this chat again."""

    def __init__(self, seconds: float) -> None:
        super().__init__(f"retry after {seconds:g} s")
        self.seconds = seconds


class Refused(Exception):  # noqa: N818
    """The channel refused this message for good (bad chat, blocked bot, bad content)."""


class Channel(Protocol):
    """Where parts go. `send` returns the message id once the service accepted the part."""

    async def send(self, chat_id: int, part: dict[str, Any]) -> int: ...


class OutboxPump:
    """Drains outboxes into `channel` (see the module docstring)."""

    def __init__(
        self,
        router: Router,
        ledger: Ledger,
        channel: Channel,
        *,
        max_parts: int = 4,
        clock: Callable[[], float] = time.monotonic,
        stopping: Callable[[], bool] = lambda: False,
    ) -> None:
        self.router = router
        self.ledger = ledger
        self.channel = channel
        self.max_parts = max_parts
        self.clock = clock
        self.stopping = stopping
        self._chat_hold: dict[int, float] = {}
        self._entry_hold: dict[tuple[str, int], tuple[float, float]] = {}  # until, backoff
        self._homeless: set[tuple[str, int]] = set()

    async def drain(self) -> int:
        """Send what can be sent now; returns the number of entries completed.

        Chats are served concurrently (each at its own pace, see `ChatRateLimiter`), the
        entries of one chat in the order they were written. A failure in one chat does
        not stop the others; the first unexpected error is raised once all are done."""
        queues: dict[int, list[tuple[Source, OutboxEntry, Job]]] = {}
        for source in self.router.sources:
            held = sum(1 for k in self._entry_hold if k[0] == source.key)
            for entry in source.supervisor.reads.outbox_pending(BATCH + held):
                if self._held((source.key, entry.id)):
                    continue
                job = self._job(source, entry)
                if job is not None:
                    queues.setdefault(job.chat_id, []).append((source, entry, job))
        results = await asyncio.gather(
            *(
                self._chat(chat, sorted(items, key=lambda i: i[1].created_at))
                for chat, items in queues.items()
            ),
            return_exceptions=True,
        )
        for result in results:
            if isinstance(result, BaseException):
                raise result
        return sum(r for r in results if isinstance(r, int))

    async def _chat(self, chat_id: int, items: list[tuple[Source, OutboxEntry, Job]]) -> int:
        done = 0
        for source, entry, job in items:
            if self.stopping() or self._chat_hold.get(chat_id, 0.0) > self.clock():
                break
            if await self._entry(source, entry, job):
                done += 1
        return done

    def _held(self, key: tuple[str, int]) -> bool:
        hold = self._entry_hold.get(key)
        return hold is not None and hold[0] > self.clock()

    def _job(self, source: Source, entry: OutboxEntry) -> Job | None:
        job = self.ledger.job(source.key, entry.id)
        if job is not None:
            return job
        chat = self.router.chat_for(entry, source)
        if chat is None:
            if (source.key, entry.id) not in self._homeless:
                self._homeless.add((source.key, entry.id))
                log.warning(
                    "outbox entry %s of session %s has no chat to go to (set"
                    " [telegram] default_chat or map a chat to its project); it stays pending",
                    entry.id,
                    entry.session_id,
                )
            return None
        parts = render(entry, label(source.state(entry.session_id)), max_parts=self.max_parts)
        return self.ledger.open_job(source.key, entry.id, entry.session_id, chat, parts)

    async def _entry(self, source: Source, entry: OutboxEntry, job: Job) -> bool:
        key = (source.key, entry.id)
        for index in range(job.sent, len(job.parts)):
            if self.stopping():
                return False
            try:
                message_id = await self.channel.send(job.chat_id, job.parts[index])
            except RetryLater as exc:
                self._chat_hold[job.chat_id] = self.clock() + exc.seconds
                log.info("chat %s: rate limited, waiting %.1f s", job.chat_id, exc.seconds)
                return False
            except Refused as exc:
                self._refused(key, entry, job, exc)
                return False
            # Accepted: record it before anything else can happen.
            self.ledger.part_sent(job, index, message_id)
        source.supervisor.mark_sent(entry.id)
        self.ledger.finish(job)
        self._entry_hold.pop(key, None)
        return True

    def _refused(self, key: tuple[str, int], entry: OutboxEntry, job: Job, exc: Exception) -> None:
        backoff = min(MAX_HOLD, self._entry_hold.get(key, (0.0, 30.0))[1] * 2)
        self._entry_hold[key] = (self.clock() + backoff, backoff)
        log.warning(
            "chat %s refused outbox entry %s (session %s): %s; retrying in %.0f s",
            job.chat_id,
            entry.id,
            entry.session_id,
            redact(str(exc)),
            backoff,
        )
