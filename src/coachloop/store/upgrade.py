"""Upgrade step `0004_home_merge_project_stores`: a project's old store merged into the home.

coachloop up to 68975ce kept each project's sessions in `<project>/.coachloop/coachloop.db`
by default; now one store under `$COACHLOOP_HOME` holds every project. This step copies
an old project store into the store the project now uses (the home store, or the store
of its own it configured), every row of it:

- sessions (the project filled in where it was empty; a session already present keeps
  whichever state was updated last), events (renumbered in the new store, in their
  order), outbox rows with their `sent_at` (an undelivered one stays undelivered, so the
  bridge sends it; a sent one is not sent again), their `event_id` renumbered alike;
- in one write transaction of the new store, recorded in its `merged_stores` table under
  the old file's path (migration `0004_home_merged_stores`): running it again, or from
  two processes at once, copies nothing twice;
- then the old file is set aside, never deleted: `coachloop.db` (and its `-wal`/`-shm`)
  renamed to `coachloop.db.merged` (a complete SQLite file: its journal is checkpointed
  into it first), so that opening the project costs one `stat` again.

It runs by itself whenever a project's store is opened (`open_store(project=…)`: at the
first hook of the project, when the bridge opens a chat's project, or `sessions`/`show`
with `--project`); the bridge, at its start, also merges every project the agents know
(`coachloop.install.known.old_stores`: from Claude Code's, Codex's and Gemini's own
lists of directories) that still has an old store, so that its undelivered questions are
sent; and on demand with `coachloop upgrade [PROJECT…]` or `coachloop upgrade --scan`.
The new store must be SQLite; with a Redis store the old file is left where it is and
reported.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import time
from dataclasses import dataclass, replace
from pathlib import Path

from coachloop.store.base import Store, StoreError

__all__ = ["MERGED_SUFFIX", "STEP", "Merged", "merge_project"]

STEP = "0004_home_merge_project_stores"
MERGED_SUFFIX = ".merged"
log = logging.getLogger("coachloop.store.upgrade")


@dataclass(frozen=True, slots=True)
class Merged:
    """What one run of the step did for one old store (`already`: merged before)."""

    source: Path
    into: str
    sessions: int
    events: int
    outbox: int
    pending: int
    already: bool = False
    set_aside: Path | None = None


def merge_project(project: Path, store: Store) -> Merged | None:
    """Merge `project`'s old store into `store` (see the module docstring); None when
    there is nothing to merge. Raises `StoreError` when the old file cannot be read or
    `store` is not SQLite; the old file is then left untouched."""
    from coachloop.store import legacy_path
    from coachloop.store.sqlite import SQLiteStore

    source = legacy_path(project)
    if not source.exists():
        return None
    if not isinstance(store, SQLiteStore):
        raise StoreError(
            f"{source} was written by an older coachloop; it can be merged only into a "
            f"SQLite store, not {store.location}: left where it is"
        )
    if source.resolve() == store.path.resolve():
        return None
    # The file's identity is part of the key: a file made at the same path after a merge
    # (an older coachloop run again) is merged too, and never renamed over the first.
    try:
        key = f"{source.resolve()}@{source.stat().st_ino}"
    except FileNotFoundError:
        return None  # set aside by a concurrent run

    def copy(db: sqlite3.Connection) -> Merged:
        row = db.execute(
            "SELECT sessions, events, outbox FROM merged_stores WHERE source = ?", (key,)
        ).fetchone()
        if row is not None:
            sessions, events, outbox = (int(n) for n in row)
            return Merged(source, store.location, sessions, events, outbox, 0, already=True)
        try:
            old = sqlite3.connect(f"{source.resolve().as_uri()}?mode=rw", uri=True, timeout=30)
        except sqlite3.Error as exc:  # gone since the check: another process set it aside
            raise StoreError(f"{source} cannot be opened: {exc}") from exc
        try:
            old.execute("PRAGMA busy_timeout = 30000")
            old.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
            counts = _copy(old, db, str(project.expanduser().absolute()))
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{source} is not a readable coachloop store: {exc}") from exc
        finally:
            old.close()
        db.execute(
            "INSERT INTO merged_stores VALUES (?, ?, ?, ?, ?, ?)",
            (key, str(project), time.time(), *counts[:3]),
        )
        return Merged(source, store.location, *counts)

    merged = store.write(copy)
    if not merged.already:
        log.info(
            "%s: %s merged %d sessions, %d events, %d outbox rows (%d undelivered) into %s",
            STEP, source, merged.sessions, merged.events, merged.outbox, merged.pending,
            merged.into,
        )  # fmt: skip
    return replace(merged, set_aside=_set_aside(source))


def _copy(
    old: sqlite3.Connection, db: sqlite3.Connection, project: str
) -> tuple[int, int, int, int]:
    tables = {r[0] for r in old.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    missing = {"sessions", "events", "outbox"} - tables
    if missing:
        raise sqlite3.DatabaseError(f"no {', '.join(sorted(missing))} table")
    sessions = 0
    for row in old.execute(
        "SELECT session_id, project, agent, status, continues, last_verdict, created_at,"
        " updated_at, state FROM sessions"
    ):
        sessions += 1
        values = list(row)
        if not values[1]:  # no project recorded: the store's own project
            state = json.loads(values[8])
            state["project"] = values[1] = project
            values[8] = json.dumps(state)
        db.execute(
            "INSERT INTO sessions (session_id, project, agent, status, continues,"
            " last_verdict, created_at, updated_at, state) VALUES (?,?,?,?,?,?,?,?,?)"
            " ON CONFLICT(session_id) DO UPDATE SET project=excluded.project,"
            " agent=excluded.agent, status=excluded.status, continues=excluded.continues,"
            " last_verdict=excluded.last_verdict, updated_at=excluded.updated_at,"
            " state=excluded.state WHERE excluded.updated_at > sessions.updated_at",
            values,
        )
    ids: dict[int, int] = {}
    for row in old.execute(
        "SELECT id, session_id, kind, ts, recorded_at, job_id, decision, verdict_type, source,"
        " why, data FROM events ORDER BY id"
    ):
        cur = db.execute(
            "INSERT INTO events (session_id, kind, ts, recorded_at, job_id, decision,"
            " verdict_type, source, why, data) VALUES (?,?,?,?,?,?,?,?,?,?)",
            row[1:],
        )
        ids[row[0]] = int(cur.lastrowid or 0)
    outbox = pending = 0
    for session_id, event_id, kind, text, created_at, sent_at in old.execute(
        "SELECT session_id, event_id, kind, text, created_at, sent_at FROM outbox ORDER BY id"
    ):
        outbox += 1
        pending += sent_at is None
        db.execute(
            "INSERT INTO outbox (session_id, event_id, kind, text, created_at, sent_at)"
            " VALUES (?,?,?,?,?,?)",
            (session_id, ids.get(event_id, 0), kind, text, created_at, sent_at),
        )
    return sessions, len(ids), outbox, pending


def _set_aside(source: Path) -> Path | None:
    """Rename the merged file (journal files first, the database last) so that it is
    never merged or opened again; None when it could not be renamed (the
    `merged_stores` row still prevents a second copy)."""
    target = source.with_name(source.name + MERGED_SUFFIX)
    n = 1
    while target.exists():
        target = source.with_name(f"{source.name}{MERGED_SUFFIX}.{n}")
        n += 1
    try:
        for suffix in ("-wal", "-shm"):
            side = source.with_name(source.name + suffix)
            if side.exists():
                os.replace(side, target.with_name(target.name + suffix))
        os.replace(source, target)
    except FileNotFoundError:
        return None  # set aside by a concurrent run
    except OSError as exc:
        log.warning("%s: %s merged but not renamed: %s", STEP, source, exc)
        return None
    return target
