"""What every dashboard data source shares: the `DashboardData` seam and its helpers.

`DashboardData` is the protocol the pages read through (`data.SQLiteData` for the default
store, `generic.StoreData` for any other); `matches` is the live stream's filter,
`Caps` each project's auto-continue cap, `found_snapshot` and `header` build a session's
page parts the same way for every source.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

from coachloop.dashboard.build import Redactor
from coachloop.dashboard.views import (
    Counts,
    Filters,
    SessionHeader,
    SessionRow,
    SessionsPage,
    TimelineItem,
    TimelinePage,
)
from coachloop.snapshot_pack import name as record_name
from coachloop.snapshot_pack import whole
from coachloop.store import EventRecord
from coachloop.store.records import Life

SNAPSHOTS_SHOWN = 50  # lifecycle records linked from a session's page (the newest)
CAP_TTL = 30.0  # seconds a project's auto-continue cap is cached


class DashboardData(Protocol):
    """The queries behind the dashboard's pages. Session-specific reads raise
    `UnknownSession`; a store that fails raises `StoreError`. `redact` is what every
    text passed through (pages that show other texts use it too)."""

    redact: Redactor

    def sessions(self, filters: Filters, *, offset: int, limit: int) -> SessionsPage: ...
    def rows(self, session_ids: Sequence[str]) -> list[SessionRow]: ...
    def timeline(self, session_id: str, *, before: int | None, limit: int) -> TimelinePage: ...
    def items_after(self, session_id: str, after: int, limit: int) -> list[TimelineItem]: ...
    def item(self, session_id: str, event_id: int) -> TimelineItem: ...
    def mark(self) -> int: ...
    def changed(self, since: int, limit: int) -> tuple[int, list[str]]: ...
    def counts(self, days: int) -> Counts: ...
    def snapshot(self, session_id: str, name: str) -> dict[str, Any] | None: ...
    def close(self) -> None: ...


def matches(row: SessionRow, filters: Filters) -> bool:
    """True when `row` passes `filters` (the live stream's check of a changed session)."""
    return (
        (not filters.project or row.project == filters.project)
        and (not filters.agent or row.agent == filters.agent)
        and (not filters.status or row.status == filters.status)
    )


class Caps:
    """Each project's auto-continue cap (its settings), cached for `CAP_TTL` seconds."""

    def __init__(self) -> None:
        self._cache: dict[str, tuple[float, int]] = {}
        self._lock = threading.Lock()

    def __call__(self, project: str) -> int:
        now = time.monotonic()
        with self._lock:
            hit = self._cache.get(project)
            if hit is not None and now - hit[0] < CAP_TTL:
                return hit[1]
        from coachloop.config import ConfigError, Settings, load_settings

        try:
            cap = load_settings(Path(project) if project else None).max_auto_continues
        except (ConfigError, OSError, ValueError):
            cap = Settings().max_auto_continues
        with self._lock:
            if len(self._cache) > 1000:
                self._cache.clear()
            self._cache[project] = (now, cap)
        return cap


def found_snapshot(
    lives: Sequence[Life], name: str, event: EventRecord | None = None
) -> dict[str, Any] | None:
    """The record among `lives` called `name`, whole (with its timeline record `event`),
    or None."""
    for life in lives:
        if record_name(life) == name:
            try:
                return whole(life, event)
            except ValueError:
                return None
    return None


def header(
    row: SessionRow, state: dict[str, Any], redact: Redactor, snaps: Sequence[str] = ()
) -> SessionHeader:
    """The top of a session's page from its row, stored state and lifecycle record names."""
    ctx = state.get("context") or {}
    return SessionHeader(
        row=row,
        cwd=redact(str(state.get("cwd") or "")),
        prompt=redact(str(ctx.get("prompt") or "")),
        skill=redact(str(ctx.get("skill") or "")),
        plan_file=redact(str(ctx.get("plan_file") or "")),
        last_error=redact(str(state.get("last_error") or "")),
        snapshots=list(snaps)[-SNAPSHOTS_SHOWN:],
    )
