"""Reading sessions a page at a time: `coachloop sessions` never loads a whole store."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from coachloop.core.session import SessionState
    from coachloop.store import Store

PAGE = 500  # sessions read per round trip when every session is wanted


def within(value: str, project: Path) -> bool:
    """`value` (a session's project or cwd) is `project` or a directory below it."""
    if not value:
        return False
    path = Path(value)
    return path == project or project in path.parents


def newest(store: Store, project: Path | None, limit: int) -> list[SessionState]:
    """The store's `limit` most recently active sessions (all when 0) whose project or
    cwd lies within `project` (any, when None), read page by page on the store's index."""
    found: list[SessionState] = []
    cursor = None
    size = limit or PAGE
    while True:
        got = store.session_page(size, cursor)
        found += [
            s
            for s in got
            if project is None or within(s.project, project) or within(s.cwd, project)
        ]
        if len(got) < size or (limit and len(found) >= limit):
            return found[:limit] if limit else found
        cursor = (got[-1].updated_at, got[-1].session_id)
