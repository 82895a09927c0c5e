"""A project's count, the list of projects and the newest-first pages read an index, never
every session nor a sort of them: at 100k sessions a scan of the activity index
(`sessions_recent`) took 8 ms for a project's count and 19 ms for the list of projects,
on every view of the dashboard's sessions page (35 -> 59-85 ms in all). The plans are
checked on the statements the store and the dashboard run (traced), on a store without
statistics, as real stores are (none runs ANALYZE)."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from coachloop.core.session import SessionState
from coachloop.dashboard.data import open_data
from coachloop.dashboard.views import Filters
from coachloop.store.base import Write
from coachloop.store.records import COMPACT
from coachloop.store.sqlite import SQLiteStore

SESSIONS = 3000
PROJECTS = 30
RARE = "/work/rare"  # one session, the oldest: a page of it walks every newer entry


def _fill(path: Path) -> None:
    SQLiteStore(path).close()  # the schema, through the store's migrations
    rows = []
    for n in range(SESSIONS):
        project = RARE if n == 0 else f"/work/p{n % PROJECTS:02d}"
        state = SessionState.new(f"s-{n:05d}", 1000.0 + n, agent="codex", project=project)
        json = COMPACT.encode(state.sparse_dict())
        at = 1000.0 + n
        rows.append((state.session_id, project, "codex", "running", at, at, json))
    db = sqlite3.connect(path)
    db.executemany(
        "INSERT INTO sessions (session_id, project, agent, status, created_at, updated_at,"
        " state) VALUES (?,?,?,?,?,?,?)",
        rows,
    )
    db.commit()
    db.close()


@contextmanager
def _traced(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The statements every connection opened meanwhile runs, values bound in."""
    statements: list[str] = []
    connect: Callable[..., sqlite3.Connection] = sqlite3.connect

    def traced(*args: Any, **kwargs: Any) -> sqlite3.Connection:
        db = connect(*args, **kwargs)
        db.set_trace_callback(statements.append)
        return db

    with monkeypatch.context() as m:
        m.setattr(sqlite3, "connect", traced)
        yield statements


def _plans(path: Path, statements: list[str]) -> dict[str, str]:
    db = sqlite3.connect(path)
    try:
        return {
            sql: " | ".join(str(r[3]) for r in db.execute(f"EXPLAIN QUERY PLAN {sql}"))
            for sql in statements
            if sql.lstrip().upper().startswith("SELECT") and "FROM sessions" in sql
        }
    finally:
        db.close()


def test_the_dashboard_finds_a_project_by_index(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "store.db"
    _fill(path)
    with _traced(monkeypatch) as statements:
        data = open_data(SQLiteStore(path))
        try:
            page = data.sessions(Filters(project=RARE), offset=0, limit=50)
            big = data.sessions(Filters(project="/work/p07"), offset=0, limit=50)
        finally:
            data.close()
    assert (page.total, len(page.rows), big.total, len(big.rows)) == (1, 1, 100, 50)
    assert len(page.projects) == PROJECTS + 1
    plans = _plans(path, statements)
    counts = [p for s, p in plans.items() if "count(*)" in s and "project =" in s]
    projects = [p for s, p in plans.items() if "DISTINCT project" in s]
    pages = [p for s, p in plans.items() if "ORDER BY" in s and "project =" in s]
    assert counts and projects and len(pages) == 2, plans
    for plan in counts:  # the project's entries only
        assert plan.startswith("SEARCH s USING COVERING INDEX"), plan
    for plan in projects:  # an index in project order: no set of every session's project
        assert "COVERING INDEX" in plan and "TEMP B-TREE" not in plan, plan
    for plan in pages:  # in activity order, stopping at the page's last row: never sorted
        assert "sessions_recent" in plan and "TEMP B-TREE" not in plan, plan


def test_the_store_pages_a_project_in_activity_order(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "store.db"
    _fill(path)
    with _traced(monkeypatch) as statements:
        store = SQLiteStore(path)
        try:
            got = store.session_page(20, project="/work/p07")
            rare = store.session_page(20, project=RARE)
        finally:
            store.close()
    assert [s.session_id for s in rare] == ["s-00000"]
    assert [s.updated_at for s in got] == sorted((s.updated_at for s in got), reverse=True)
    assert len(got) == 20 and {s.project for s in got} == {"/work/p07"}
    plans = [p for s, p in _plans(path, statements).items() if "ORDER BY" in s]
    assert len(plans) == 2, plans
    for plan in plans:
        assert "sessions_recent" in plan and "TEMP B-TREE" not in plan, plan


def test_a_session_moved_to_another_project_is_found_there(tmp_path: Path) -> None:
    # The stop's UPDATE names the project only when it changes: a change must still move
    # the session's entry in the project's index (counted, paged and listed there).
    store = SQLiteStore(tmp_path / "store.db")
    try:
        first = SessionState.new("s", 1.0, project="/a")
        store.transact("s", lambda _: (Write(first), None))
        again = replace(first, updated_at=2.0)  # the same project: not named
        store.transact("s", lambda _: (Write(again), None))
        moved = replace(first, project="/b", updated_at=3.0)
        store.transact("s", lambda _: (Write(moved), None))
        assert [s.project for s in store.session_page(5, project="/b")] == ["/b"]
        assert store.session_page(5, project="/a") == []
        data = open_data(store)
        page = data.sessions(Filters(project="/b"), offset=0, limit=5)
        assert (page.total, page.projects) == (1, ["/b"])
        assert data.sessions(Filters(project="/a"), offset=0, limit=5).total == 0
    finally:
        store.close()
