"""Opening a SQLite store's file: refuse what is not a SQLite database (never written
to), keep it private and out of git, WAL journal, `synchronous=NORMAL`, a busy timeout,
and the schema brought up to date by the named migrations (`store.migrations`)."""

from __future__ import annotations

import contextlib
import os
import sqlite3
import threading
import time
from pathlib import Path

from coachloop.config.private import in_private, private_file
from coachloop.store.base import StoreError
from coachloop.store.migrations import MIGRATIONS

SQLITE_HEADER = b"SQLite format 3\x00"


def _check_file(path: Path) -> None:
    """Refuse a path that exists but is not a SQLite database, before writing to it.

    The header is read through a read-only SQLite connection, never with `open()`:
    closing a plain file handle drops every POSIX lock this process holds on the file,
    including those of SQLite connections already open to it (SQLite's own VFS shares
    locks between its connections, so a second connection is safe).
    """
    if path.is_dir():
        raise StoreError(f"store path {path} is a directory, not a SQLite database file")
    try:
        if path.stat().st_size == 0:
            return
    except FileNotFoundError:
        return
    except OSError as exc:
        raise StoreError(f"store path {path} cannot be read: {exc}") from exc
    try:
        probe = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=5)
    except sqlite3.Error as exc:
        raise StoreError(f"store path {path} cannot be read: {exc}") from exc
    try:
        probe.execute("PRAGMA schema_version").fetchone()
    except sqlite3.DatabaseError as exc:
        if "not a database" in str(exc) or "malformed" in str(exc):
            raise StoreError(
                f"store path {path} is not a SQLite database; refusing to touch it"
            ) from exc
        raise StoreError(f"store path {path} cannot be read: {exc}") from exc
    finally:
        probe.close()


def _statements(sql: str) -> list[str]:
    return [s.strip() for s in sql.split(";") if s.strip()]


def _ignore_in_git(folder: Path) -> None:
    """Keep a project's `.coachloop/` (agent messages, sessions) out of its commits."""
    if folder.name != ".coachloop":
        return
    marker = folder / ".gitignore"
    try:
        if not marker.exists():
            marker.write_text("# written by coachloop: local state, never committed\n*\n")
    except OSError:
        pass  # a read-only folder still works as a store


def open_database(path: Path, timeout: float) -> sqlite3.Connection:
    """A connection (autocommit, usable from any thread) to the store file at `path`,
    created private when missing and migrated; `StoreError` names what is wrong."""
    _check_file(path)
    try:
        private_file(in_private(path))  # SQLite's -wal/-shm files take its mode
        for extra in ("-wal", "-shm"):
            if (side := Path(f"{path}{extra}")).exists():
                private_file(side)
    except OSError as exc:
        raise StoreError(f"cannot create the store directory for {path}: {exc}") from exc
    _ignore_in_git(path.parent)
    try:
        db = sqlite3.connect(
            str(path), timeout=timeout, isolation_level=None, check_same_thread=False
        )
    except sqlite3.Error as exc:
        raise StoreError(f"cannot open store {path}: {exc}") from exc
    try:
        db.execute(f"PRAGMA busy_timeout = {int(timeout * 1000)}")
        _wal(db)
        db.execute("PRAGMA synchronous = NORMAL")
        _migrate(db, path)
    except sqlite3.DatabaseError as exc:
        db.close()
        raise StoreError(f"store {path} is not a usable coachloop database: {exc}") from exc
    except StoreError:
        db.close()
        raise
    return db


def _wal(db: sqlite3.Connection) -> None:
    for attempt in range(50):
        try:
            db.execute("PRAGMA journal_mode = WAL").fetchone()
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or attempt == 49:
                raise
            time.sleep(0.05)


def _migrate(db: sqlite3.Connection, path: Path) -> None:
    """Apply the migrations `db` lacks, in one `BEGIN IMMEDIATE` transaction (other
    processes opening the same file wait); refuse a database a newer coachloop wrote."""
    known = [name for name, _ in MIGRATIONS]
    try:
        applied = {r[0] for r in db.execute("SELECT name FROM migrations")}
        if applied == set(known):
            return
    except sqlite3.OperationalError:
        pass  # no migrations table yet
    db.execute("BEGIN IMMEDIATE")
    try:
        db.execute(
            "CREATE TABLE IF NOT EXISTS migrations"
            " (name TEXT PRIMARY KEY, applied_at REAL NOT NULL)"
        )
        applied = {r[0] for r in db.execute("SELECT name FROM migrations")}
        newer = sorted(applied - set(known))
        if newer:
            raise StoreError(
                f"store {path} has migrations this coachloop does not know "
                f"({', '.join(newer)}): it was written by a newer version"
            )
        for name, sql in MIGRATIONS:
            if name in applied:
                continue
            for stmt in _statements(sql):
                db.execute(stmt)
            db.execute("INSERT INTO migrations VALUES (?, ?)", (name, time.time()))
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


CHECKPOINT_START = 8  # commits of one store before its checkpoint thread starts
CHECKPOINT_EVERY = 0.05  # seconds between two checkpoints of that thread, at most
SAFETY_PAGES = 10_000  # the committing connection's own checkpoint, once the thread runs
RESTART_PAGES = 4_000  # WAL frames past which the thread restarts the WAL (`Checkpointer`)
RESTART_ANYWAY = 6_000  # ... even when the disk answers slowly, well before SAFETY_PAGES
RESTART_QUIET = 0.01  # seconds a catch-up copy may take for a restart to follow at once
CATCH_UP_QUIET = 0.004  # a catch-up copy this short ends the catch-up (`_catch_up`)
CATCH_UP_ROUNDS = 6  # copies of one catch-up, at most
RESTART_WAIT = 0.02  # seconds that restart waits for the write lock, then for readers


def _sync(path: Path) -> None:
    """Flush the database file's written pages to disk (what checkpoints copied) through
    a descriptor SQLite holds open on it (Linux: /proc/self/fd): opening and closing one
    of our own would drop every POSIX lock this process's connections hold on the file.
    Nothing where there is no /proc, or none is open; a descriptor closed (or reused for
    another file: an fsync never harms it) meanwhile is harmless."""
    folder, target = Path("/proc/self/fd"), str(path.resolve())
    with contextlib.suppress(OSError):
        for fd in folder.iterdir():
            with contextlib.suppress(OSError):
                if os.readlink(fd) == target:
                    os.fsync(int(fd.name))  # fdatasync is Linux's too: both sync the data
                    return


class Checkpointer:
    """Copies a store's WAL into its database file from a thread of its own, so that no
    commit (a stop's) waits on the copy and its two fsyncs: they were a stop's worst
    latency, and a large share of its time on a busy disk.

    `committed()` after each commit wakes the thread, which runs a PASSIVE checkpoint
    (it never blocks a writer or a reader; what a reader still needs is copied later) at
    most once per `CHECKPOINT_EVERY`. The thread starts at the `CHECKPOINT_START`th
    commit: a short-lived process (one hook, one command) starts none and keeps SQLite's
    own automatic checkpoint as before. Durability is unchanged: a commit is in the WAL
    when it returns, and a checkpoint interrupted by a crash is redone from the WAL.

    Under a steady stream of commits a PASSIVE checkpoint never catches up with the last
    one, so the WAL never started over: it grew to `SAFETY_PAGES`, and the commit that
    crossed it copied the backlog and synced the database itself (stops of 120 ms at
    100k events to 600 ms at 1M in scale.py's maintenance window). Now, once a PASSIVE
    checkpoint finds `RESTART_PAGES` frames or more in the WAL (past half of them it
    checks at each commit, without the pause), the thread runs a RESTART one, holding
    `lock` (the store's: this process's stops wait on it and go the moment it ends,
    rather than polling SQLite's busy handler): it copies the frames committed since the
    last PASSIVE and syncs the WAL and the database file, and the next commit writes the
    WAL from its start. What the stops wait for is those two syncs and that copy, so the
    restart follows a catch-up of its own: another PASSIVE checkpoint and sync right
    before it (`_copy`), which leaves it only the frames committed meanwhile; and when
    that catch-up took over `RESTART_QUIET` (the disk is busy: a sync under the lock
    could take 50-100 ms), the restart waits for a later round, up to `RESTART_ANYWAY`
    frames. SQLite syncs the database file only at a checkpoint that reached the WAL's
    end, under such a stream the RESTART alone, so the thread syncs the file after each
    PASSIVE checkpoint (`_sync`). The RESTART waits at most `RESTART_WAIT` for other
    processes' write lock and as long for their readers (busy: tried again later); it
    never changes what a commit guarantees.
    """

    def __init__(self, path: Path, timeout: float, lock: threading.RLock) -> None:
        self._path, self._timeout, self._lock = path, timeout, lock
        self._wake, self._closing = threading.Event(), threading.Event()
        self._thread: threading.Thread | None = None
        self._commits = 0

    def committed(self) -> bool:
        """Count a commit and wake the thread; True when this call started it (the caller
        then raises its connection's automatic checkpoint to `SAFETY_PAGES`)."""
        if self._thread is not None:
            if not self._wake.is_set():  # set() takes a lock and notifies: not at every commit
                self._wake.set()
            return False
        self._commits += 1
        if self._commits < CHECKPOINT_START or self._closing.is_set():
            return False
        thread = threading.Thread(target=self._run, name="coachloop-wal", daemon=True)
        try:
            thread.start()
        except RuntimeError:  # no thread to be had (a process limit): the commit stands,
            self._closing.set()  # and SQLite's own automatic checkpoints go on
            return False
        self._thread = thread
        self._wake.set()
        return True

    def _run(self) -> None:
        try:
            db = sqlite3.connect(
                str(self._path),
                timeout=RESTART_WAIT,  # PASSIVE never waits; RESTART waits this long
                isolation_level=None,
                check_same_thread=False,
            )
            db.execute("PRAGMA synchronous = NORMAL")
        except sqlite3.Error:
            return  # the writers' own automatic checkpoints go on
        try:
            while not self._closing.is_set():
                self._wake.wait()
                self._wake.clear()
                if self._closing.is_set():
                    break
                # busy, or the file went away: the next commit wakes us again
                frames = 0  # in the WAL
                with contextlib.suppress(sqlite3.Error):
                    frames, _ = self._copy(db)
                    if frames >= RESTART_PAGES:
                        frames, took = self._catch_up(db)
                        if took <= RESTART_QUIET or frames >= RESTART_ANYWAY:
                            self._restart(db)
                            frames = 0
                # past half way to a restart, checked again at the next commit: the
                # restart comes soon after RESTART_PAGES, never near SAFETY_PAGES
                self._closing.wait(CHECKPOINT_EVERY if frames < RESTART_PAGES // 2 else 0)
        finally:
            db.close()

    def _copy(self, db: sqlite3.Connection) -> tuple[int, float]:
        """A PASSIVE checkpoint, then the database file synced: (frames in the WAL, the
        seconds both took). Never blocks a writer."""
        start = time.perf_counter()
        (row,) = db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
        _sync(self._path)
        return int(row[1]), time.perf_counter() - start

    def _catch_up(self, db: sqlite3.Connection) -> tuple[int, float]:
        """Copies and syncs (`_copy`) until one takes at most `CATCH_UP_QUIET`, or
        `CATCH_UP_ROUNDS` did; (frames in the WAL, the seconds the last took).

        The restart copies and syncs, under the lock, what came in during the last copy:
        after a copy of 10 ms that held the stops 30-45 ms at 1M events (scale.py's
        maintenance window), after one under 4 ms at most 12."""
        frames, took = 0, 0.0
        for _ in range(CATCH_UP_ROUNDS):
            frames, took = self._copy(db)
            if took <= CATCH_UP_QUIET:
                break
        return frames, took

    def _restart(self, db: sqlite3.Connection) -> None:
        """The WAL restarted, under the store's lock (this process's stops wait)."""
        with self._lock:
            db.execute("PRAGMA wal_checkpoint(RESTART)").fetchall()

    def stop(self) -> None:
        """Tell the thread to end (it closes its connection), without waiting for it."""
        self._closing.set()
        self._wake.set()

    def close(self) -> None:
        """Stop the thread (after the checkpoint under way, if any)."""
        self.stop()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=self._timeout)
