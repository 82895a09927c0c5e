"""The bridge's own small SQLite database: what it sent, and which session it belongs to.

Tables:
- `jobs`: one row per outbox entry being sent: the chat it goes to, its rendered parts
  (fixed at the first attempt, so a restart resends exactly the same parts) and how many
  parts Telegram has accepted. Keyed by (store key, outbox id); the store key is a hash
  of the store's location, so a Redis URL with a password never lands here.
- `messages`: every message the bridge sent, (chat id, message id) -> session, so a
  reply to any of them is routed to its session.
- `sessions`: session -> the chat it belongs to (the chat that started it, replied to
  it, or first received it) and the store key where it lives.

Each method is one transaction. `part_sent` records the accepted part and the message id
together, so the window in which a crash re-sends a part is the time between Telegram's
answer and this one local commit.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

_SCHEMA = """
CREATE TABLE IF NOT EXISTS jobs (
    store TEXT NOT NULL, outbox_id INTEGER NOT NULL, session_id TEXT NOT NULL,
    chat_id INTEGER NOT NULL, parts TEXT NOT NULL, sent INTEGER NOT NULL DEFAULT 0,
    created_at REAL NOT NULL, done_at REAL, PRIMARY KEY (store, outbox_id));
CREATE TABLE IF NOT EXISTS messages (
    chat_id INTEGER NOT NULL, message_id INTEGER NOT NULL, session_id TEXT NOT NULL,
    store TEXT NOT NULL, outbox_id INTEGER, at REAL NOT NULL,
    PRIMARY KEY (chat_id, message_id));
CREATE TABLE IF NOT EXISTS sessions (
    session_id TEXT PRIMARY KEY, chat_id INTEGER NOT NULL, store TEXT NOT NULL,
    project_dir TEXT NOT NULL DEFAULT '', at REAL NOT NULL);
"""


def store_key(location: str) -> str:
    """A stable, credential-free key for a store location."""
    return hashlib.sha256(location.encode("utf-8")).hexdigest()[:16]


@dataclass(frozen=True, slots=True)
class Job:
    """An outbox entry on its way: `parts` are JSON-ready dicts, `sent` of them accepted."""

    store: str
    outbox_id: int
    session_id: str
    chat_id: int
    parts: tuple[dict[str, Any], ...]
    sent: int
    done: bool

    @property
    def complete(self) -> bool:
        return self.sent >= len(self.parts)


@dataclass(frozen=True, slots=True)
class Binding:
    """A session's chat and store (and the project it runs in, when the bridge knows)."""

    session_id: str
    chat_id: int
    store: str
    project_dir: str


class Ledger:
    """Thread-safe access to the bridge database at `path` (created on first use)."""

    def __init__(self, path: Path) -> None:
        from coachloop.config.private import in_private, private_file

        private_file(in_private(path))
        self._lock = threading.Lock()
        self._db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode = WAL")
        self._db.execute("PRAGMA synchronous = NORMAL")
        self._db.executescript(_SCHEMA)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def _one(self, sql: str, args: tuple[Any, ...]) -> tuple[Any, ...] | None:
        with self._lock:
            row: tuple[Any, ...] | None = self._db.execute(sql, args).fetchone()
            return row

    def _write(self, *statements: tuple[str, tuple[Any, ...]]) -> int:
        """Run `statements` in one transaction; returns the last one's row count."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                count = 0
                for sql, args in statements:
                    count = self._db.execute(sql, args).rowcount
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")
            return count

    # -- jobs ------------------------------------------------------------------
    def job(self, store: str, outbox_id: int) -> Job | None:
        row = self._one(
            "SELECT session_id, chat_id, parts, sent, done_at FROM jobs"
            " WHERE store = ? AND outbox_id = ?",
            (store, outbox_id),
        )
        if row is None:
            return None
        parts = tuple(json.loads(row[2]))
        return Job(store, outbox_id, row[0], int(row[1]), parts, int(row[3]), row[4] is not None)

    def open_job(
        self, store: str, outbox_id: int, session_id: str, chat_id: int, parts: list[dict[str, Any]]
    ) -> Job:
        """The job for this entry: the existing one if any (its parts and chat win),
        else a new one with `parts` going to `chat_id`."""
        self._write(
            (
                "INSERT OR IGNORE INTO jobs (store, outbox_id, session_id, chat_id, parts,"
                " created_at) VALUES (?,?,?,?,?,?)",
                (store, outbox_id, session_id, chat_id, json.dumps(parts), time.time()),
            )
        )
        job = self.job(store, outbox_id)
        assert job is not None
        return job

    def part_sent(self, job: Job, index: int, message_id: int) -> None:
        """Telegram accepted part `index` of `job` as `message_id`: advance and map it."""
        self._write(
            (
                "UPDATE jobs SET sent = ? WHERE store = ? AND outbox_id = ? AND sent = ?",
                (index + 1, job.store, job.outbox_id, index),
            ),
            (
                "INSERT OR REPLACE INTO messages VALUES (?,?,?,?,?,?)",
                (job.chat_id, message_id, job.session_id, job.store, job.outbox_id, time.time()),
            ),
        )

    def finish(self, job: Job) -> None:
        """The store has marked the entry sent."""
        self._write(
            (
                "UPDATE jobs SET done_at = ? WHERE store = ? AND outbox_id = ?",
                (time.time(), job.store, job.outbox_id),
            )
        )

    def prune(self, keep_days: float = 90.0, now: float | None = None) -> None:
        """Forget finished jobs and message mappings older than `keep_days` (a reply to
        a message that old starts a new session instead of resuming)."""
        cutoff = (time.time() if now is None else now) - keep_days * 86400
        self._write(
            ("DELETE FROM jobs WHERE done_at IS NOT NULL AND done_at < ?", (cutoff,)),
            ("DELETE FROM messages WHERE at < ?", (cutoff,)),
            ("DELETE FROM sessions WHERE at < ?", (cutoff,)),
        )

    # -- routing ---------------------------------------------------------------
    def note_message(self, chat_id: int, message_id: int, session_id: str, store: str) -> None:
        """Map a message the bridge sent outside the outbox (an acknowledgement)."""
        self._write(
            (
                "INSERT OR REPLACE INTO messages VALUES (?,?,?,?,NULL,?)",
                (chat_id, message_id, session_id, store, time.time()),
            )
        )

    def session_of(self, chat_id: int, message_id: int) -> tuple[str, str] | None:
        """(session id, store key) of a message the bridge sent in `chat_id`, if any."""
        row = self._one(
            "SELECT session_id, store FROM messages WHERE chat_id = ? AND message_id = ?",
            (chat_id, message_id),
        )
        return None if row is None else (str(row[0]), str(row[1]))

    def delivered(self, chat_id: int, message_id: int) -> Job | None:
        """The outbox job a message the bridge sent in `chat_id` delivered (None: an
        acknowledgement, or a message it did not send)."""
        row = self._one(
            "SELECT store, outbox_id FROM messages WHERE chat_id = ? AND message_id = ?",
            (chat_id, message_id),
        )
        if row is None or row[1] is None:
            return None
        return self.job(str(row[0]), int(row[1]))

    def bind(self, session_id: str, chat_id: int, store: str, project_dir: str = "") -> None:
        """Attach `session_id` to `chat_id` (replacing an earlier chat)."""
        self._write(
            (
                "INSERT INTO sessions VALUES (?,?,?,?,?) ON CONFLICT(session_id) DO UPDATE"
                " SET chat_id = excluded.chat_id, store = excluded.store,"
                " project_dir = CASE WHEN excluded.project_dir = '' THEN project_dir"
                " ELSE excluded.project_dir END, at = excluded.at",
                (session_id, chat_id, store, project_dir, time.time()),
            )
        )

    def binding(self, session_id: str) -> Binding | None:
        row = self._one(
            "SELECT chat_id, store, project_dir FROM sessions WHERE session_id = ?", (session_id,)
        )
        return None if row is None else Binding(session_id, int(row[0]), row[1], row[2])

    def chat_sessions(self, chat_id: int) -> list[Binding]:
        """Sessions bound to `chat_id`, most recent first."""
        with self._lock:
            rows = list(
                self._db.execute(
                    "SELECT session_id, store, project_dir FROM sessions WHERE chat_id = ?"
                    " ORDER BY at DESC",
                    (chat_id,),
                )
            )
        return [Binding(r[0], chat_id, r[1], r[2]) for r in rows]
