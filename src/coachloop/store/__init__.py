"""Persistence: one `Store` protocol, two backends.

- SQLite, the default: `<project>/.coachloop/coachloop.db` when a project directory is
  given, else `$COACHLOOP_HOME/coachloop.db`. Standard library only.
- Redis, for many agents on many machines: `open_store("redis://host:6379/0")`.

`open_store` picks the backend from, in order: its `target` argument, the
`COACHLOOP_STORE` environment variable, the `[store]` table's `url` in
`<project>/.coachloop/config.toml` or `$COACHLOOP_HOME/config.toml`, else the default
SQLite file. `COACHLOOP_REDIS_PREFIX` or `[store] prefix` sets the Redis key prefix.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from coachloop.config import config_documents, home
from coachloop.store.base import Store, StoreError, StoreReader, UnknownSession
from coachloop.store.records import EventRecord, JobSummary, OutboxEntry, Write

__all__ = [
    "ENV_STORE",
    "EventRecord",
    "JobSummary",
    "OutboxEntry",
    "Store",
    "StoreError",
    "StoreReader",
    "UnknownSession",
    "Write",
    "config_table",
    "default_path",
    "open_store",
    "store_config",
]

ENV_STORE = "COACHLOOP_STORE"
ENV_PREFIX = "COACHLOOP_REDIS_PREFIX"
REDIS_SCHEMES = ("redis://", "rediss://", "unix://")


def default_path(project: Path | str | None = None) -> Path:
    """The default SQLite file for `project` (or the user's data directory)."""
    if project:
        return Path(project).expanduser() / ".coachloop" / "coachloop.db"
    return home() / "coachloop.db"


def store_config(project: Path | str | None = None) -> dict[str, Any]:
    """The merged `[store]` table of the user and project config files (project wins)."""
    return config_table("store", project)


def config_table(name: str, project: Path | str | None = None) -> dict[str, Any]:
    """The merged `[name]` table of the user and project config files (project wins).
    An unreadable file raises `StoreError` naming it."""
    merged: dict[str, Any] = {}
    project_dir = Path(project).expanduser() if project else None
    for _, settings in config_documents(project_dir, StoreError):
        table = settings.get(name, {})
        if isinstance(table, dict):
            merged.update(table)
    return merged


def open_store(
    target: str | Path | None = None,
    *,
    project: Path | str | None = None,
    prefix: str | None = None,
) -> Store:
    """Open the configured store. `target` is a SQLite file path, `sqlite:///path`, or a
    Redis URL. Raises `StoreError` with a clear message when it cannot be used."""
    cfg: dict[str, Any] = {}
    if target is None:
        target = os.environ.get(ENV_STORE) or None
    if target is None:
        cfg = store_config(project)
        target = cfg.get("url") or cfg.get("path") or None
    text = str(target) if target is not None else ""
    if text.startswith(REDIS_SCHEMES):
        from coachloop.store.redis_store import RedisStore

        pfx = prefix or os.environ.get(ENV_PREFIX)
        if not pfx:
            pfx = str((cfg or store_config(project)).get("prefix", "coachloop"))
        return RedisStore(text, prefix=pfx)
    from coachloop.store.sqlite import SQLiteStore

    if text.startswith("sqlite:///"):
        text = text[len("sqlite://") :]
    return SQLiteStore(Path(text) if text else default_path(project))
