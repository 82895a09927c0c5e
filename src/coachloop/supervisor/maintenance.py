"""The periodic jobs of a `Supervisor`, in steps of bounded work, never inside a stop.

`Maintained` is the part of the `Supervisor` that runs them (see `maintain`): the daemon
and `serve` call `maintain` about once a second from the background
(`coachloop.server.upkeep`), `coachloop maintain` calls `maintain_all`. Each job is
claimed in the store, so one process among many runs it. Standard library only.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, cast

from coachloop import snapshots
from coachloop.supervisor import watchdog

if TYPE_CHECKING:
    from coachloop.store.base import Cursor, Store
    from coachloop.supervisor.service import Supervisor

log = logging.getLogger("coachloop.supervisor")
CLEANUP_CLAIM = "cleanup"
WATCHDOG_CLAIM = "watchdog"
PAGE = 200  # sessions (or outbox rows) per maintenance step: a few ms of work
TRIM_BATCH = 50  # rows per retention delete: the store's write lock is held a few ms
STEP_SECONDS = 0.02  # a step of the watchdog walk ends after the session past this
PURGE_SECONDS = 0.005  # a step purges forgotten sessions' rows for about this long
PURGE_WRITE = 0.004  # seconds one purge write may hold the store: its batch is sized to it
PURGE_MIN = 5  # rows per purge write, at least (a slow disk still makes progress)
OUTBOX_KEEP = 7 * 86_400.0  # delivered outbox rows are kept this long (seconds)


@dataclass(slots=True)
class Maintenance:
    """What one `Supervisor.maintain` call ran (None / empty: not due here)."""

    alerts: list[watchdog.Alert] = field(default_factory=list)
    cleanup: snapshots.CleanupReport | None = None
    stale: watchdog.Report | None = None
    trimmed: int = 0  # delivered outbox rows deleted
    records: int = 0  # lifecycle records past the retention deleted
    purged: int = 0  # rows of forgotten sessions deleted


class Maintained:
    """The maintenance state and steps of a supervisor (its attributes are set there)."""

    _store: Store
    limits: watchdog.Limits
    clock: Callable[[], float]
    retention_days: float
    snapshot_root: Path | None
    cleanup_interval: float
    watchdog_interval: float
    _next_walk: float
    _next_cleanup: float
    _walking: bool
    _cursor: Cursor | None
    _trimming: bool
    _purging: bool
    _purge_batch: int

    def maintain(
        self, now: float | None = None, *, budget: int = PAGE, force: bool = False
    ) -> Maintenance:
        """One step of bounded work of the periodic jobs. Never called inside a stop: the
        daemon and `serve` call it about once a second from the background
        (`coachloop.server.upkeep`), `coachloop maintain` on demand (`force`: due now,
        whatever the intervals and claims say). Never raises.

        - The watchdog walk: once per `watchdog_interval` (claimed in the store, so one
          process among many runs it) a walk over every session starts, newest first;
          each step reads one page of `budget` sessions by index (`Store.session_page`)
          and checks and cleans those (`watchdog.sweep`: alerts, abandoned, forgotten).
        - The rows of the sessions it forgot (a session's row goes at once, in one short
          write; its events, records and delivered outbox rows after it): `TRIM_BATCH`
          rows per write transaction, for about `PURGE_SECONDS` per step, so forgetting
          a session of 10,000 events never holds the store for long.
        - Retention, once per `cleanup_interval` (claimed): old snapshots, then delivered
          outbox rows older than `OUTBOX_KEEP` and lifecycle records past the retention,
          `TRIM_BATCH` rows (at most `budget`) per step until none is left.
        """
        ts = self.clock() if now is None else now
        done = Maintenance()
        try:
            if not self._walking and (force or ts >= self._next_walk):
                self._next_walk = ts + self.watchdog_interval
                if force or self._store.claim(WATCHDOG_CLAIM, self.watchdog_interval, ts):
                    self._walking, self._cursor = True, None
                    self._purging = True  # what an earlier walk left (a failure, an exit)
            if self._walking:
                page = self._store.session_page(budget, self._cursor)
                sup = cast("Supervisor", self)
                done.stale = watchdog.sweep(sup, page, ts, STEP_SECONDS)
                done.alerts = done.stale.alerts
                read = page[: done.stale.done]
                self._walking = len(page) >= budget or len(read) < len(page)
                self._cursor = (read[-1].updated_at, read[-1].session_id) if read else None
            if self._purging:
                done.purged = self._purge(min(budget, TRIM_BATCH))
            if not self._trimming and (force or ts >= self._next_cleanup):
                self._next_cleanup = ts + self.cleanup_interval
                if force or self._store.claim(CLEANUP_CLAIM, self.cleanup_interval, ts):
                    done.cleanup = snapshots.cleanup(
                        self.retention_days, root=self.snapshot_root, now=ts
                    )
                    self._trimming = True
            if self._trimming:
                batch = min(budget, TRIM_BATCH)  # one short write transaction each
                done.trimmed = self._store.trim_outbox(ts - OUTBOX_KEEP, batch)
                keep = self.retention_days * 86_400
                done.records = self._store.trim_lifecycle(ts - keep, batch)
                self._trimming = max(done.trimmed, done.records) >= batch
        except Exception:  # maintenance must never break anything else
            log.exception("supervisor maintenance failed")
            self._walking, self._trimming, self._purging = False, False, False
            return done
        for err in done.cleanup.errors if done.cleanup else ():
            log.warning("snapshot cleanup: %s", err)
        return done

    def _purge(self, batch: int) -> int:
        """Rows forgotten sessions left, at most `batch` per write transaction, until none
        is left or `PURGE_SECONDS` went by; how many went.

        A write holds the store's lock, so a stop may wait for it: each batch is sized so
        that the write takes about `PURGE_WRITE` (rows of big records, a busy disk or
        secure_delete make one row cost 0.1 to 1 ms: 50 rows held a stop 50 ms at 1M
        events), from the time the previous one took per row."""
        until = time.perf_counter() + PURGE_SECONDS
        total = 0
        while True:
            size = max(min(batch, self._purge_batch), 1)
            start = time.perf_counter()
            gone = self._store.purge_forgotten(size)
            took = time.perf_counter() - start
            if gone:
                fits = int(PURGE_WRITE * gone / max(took, 1e-6))
                self._purge_batch = max(min(fits, TRIM_BATCH), PURGE_MIN)
            total += gone
            self._purging = gone >= size > 0
            if not self._purging or time.perf_counter() >= until:
                return total
            time.sleep(0)  # a stop waiting on the store's lock takes it now

    def purge_all(self) -> int:
        """Every row forgotten sessions left, now, a `TRIM_BATCH` per write transaction (a
        command's cleanup, which no later maintenance step follows); how many went."""
        total = 0
        while (gone := self._store.purge_forgotten(TRIM_BATCH)) >= TRIM_BATCH:
            total += gone
        self._purging = False
        return total + gone

    @property
    def maintaining(self) -> bool:
        """A walk, a purge or a trim is under way: the next `maintain` step has work."""
        return self._walking or self._purging or self._trimming

    def maintain_all(self, now: float | None = None, *, budget: int = PAGE) -> Maintenance:
        """Every periodic job now, to the end (`coachloop maintain`): forced steps until
        the walk and the trim are done; returns their sum."""
        total = Maintenance(stale=watchdog.Report())
        step = self.maintain(now, budget=budget, force=True)
        while True:
            total.alerts += step.alerts
            if step.stale is not None and total.stale is not None:
                total.stale.abandoned += step.stale.abandoned
                total.stale.forgotten += step.stale.forgotten
            total.cleanup = total.cleanup or step.cleanup
            total.trimmed += step.trimmed
            total.records += step.records
            total.purged += step.purged
            if not self.maintaining:
                return total
            step = self.maintain(now, budget=budget)
