"""Persistence: one `Store` protocol, two backends.

- SQLite, the default: one file for every project, `$COACHLOOP_HOME/coachloop.db`; the
  project is a field of each session. Standard library only.
- Redis, for many agents on many machines: `open_store("redis://host:6379/0")`.

`open_store` picks the backend from, in order: its `target` argument, the
`COACHLOOP_STORE` environment variable, the `[store]` table's `url` in
`<project>/.coachloop/config.toml` or `$COACHLOOP_HOME/config.toml`, else the default
SQLite file. `COACHLOOP_REDIS_PREFIX` or `[store] prefix` sets the Redis key prefix.
A project whose own config names a store is listed in the home's registry of stores
(`registry.py`); `open_stores` opens every store a reader must see.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from coachloop.config import config_documents, home
from coachloop.config import config_table as read_table
from coachloop.config.env import STORE as ENV_STORE
from coachloop.config.env import environment
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
    "Target",
    "UnknownSession",
    "Write",
    "config_table",
    "default_path",
    "legacy_path",
    "open_store",
    "resolve",
    "store_config",
]

REDIS_SCHEMES = ("redis://", "rediss://", "unix://")


def default_path() -> Path:
    """The default SQLite file, one for every project: `$COACHLOOP_HOME/coachloop.db`."""
    return home() / "coachloop.db"


def legacy_path(project: Path | str) -> Path:
    """Where coachloop up to 68975ce kept a project's own store by default (merged into
    the home store by `coachloop.store.upgrade`)."""
    return Path(project).expanduser() / ".coachloop" / "coachloop.db"


@dataclass(frozen=True, slots=True)
class Target:
    """Where a store lives, resolved without opening it.

    `text`: a Redis URL or a SQLite path ("" never: the default is spelled out);
    `chosen`: "argument", "env", "config" or "default"; `own`: the project's own config
    file names it (the project opted into a store of its own, kept in the registry)."""

    text: str
    chosen: str
    own: bool = False
    prefix: str = "coachloop"

    @property
    def is_redis(self) -> bool:
        return self.text.startswith(REDIS_SCHEMES)

    @property
    def path(self) -> Path | None:
        """The SQLite file, or None for Redis."""
        return None if self.is_redis else Path(self.text).expanduser()


def resolve(
    target: str | Path | None = None,
    *,
    project: Path | str | None = None,
    prefix: str | None = None,
) -> Target:
    """The store `open_store` would open, in order: `target`, `COACHLOOP_STORE`, the
    `[store]` table (`url` or `path`; the project's file wins over the user's; a relative
    SQLite path is relative to the file's project, or to the home), else the home's
    `coachloop.db`. Raises `StoreError` for an unreadable config file."""
    chosen = "argument"
    own = False
    cfg: dict[str, Any] = {}
    project_dir = Path(project).expanduser() if project else None
    if target is None:
        target, chosen = environment().store, "env"
    if target is None:
        chosen = "default"
        for path, table in config_documents(project_dir, StoreError):
            section = table.get("store", {})
            if not isinstance(section, dict):
                continue
            cfg.update(section)
            url = section.get("url") or section.get("path")
            if url:
                is_project = project_dir is not None and path == legacy_path(project_dir).with_name(
                    "config.toml"
                )
                base = project_dir if is_project and project_dir is not None else home()
                target, chosen, own = _anchored(str(url), base), "config", is_project
    text = str(target) if target is not None else str(default_path())
    if text.startswith("sqlite:///"):
        text = text[len("sqlite://") :]
    pfx = prefix or environment().redis_prefix or str(cfg.get("prefix") or "")
    if not pfx and text.startswith(REDIS_SCHEMES) and chosen != "config":
        pfx = str(store_config(project_dir).get("prefix") or "")
    return Target(text, chosen, own, pfx or "coachloop")


def _anchored(url: str, base: Path) -> str:
    if url.startswith(REDIS_SCHEMES) or url.startswith("sqlite:///"):
        return url
    path = Path(url).expanduser()
    return str(path if path.is_absolute() else base / path)


def store_config(project: Path | str | None = None) -> dict[str, Any]:
    """The merged `[store]` table of the user and project config files (project wins)."""
    return config_table("store", project)


def config_table(name: str, project: Path | str | None = None) -> dict[str, Any]:
    """The merged `[name]` table of the user and project config files (project wins).
    An unreadable file raises `StoreError` naming it."""
    return read_table(name, project, StoreError)


def open_store(
    target: str | Path | None = None,
    *,
    project: Path | str | None = None,
    prefix: str | None = None,
) -> Store:
    """Open the store `resolve` names. `target` is a SQLite file path, `sqlite:///path`,
    or a Redis URL. With `project` (and no `target`), the project's store from a previous
    version is merged in first (`coachloop.store.upgrade`), and a store of the project's
    own is recorded in the home's registry (`coachloop.store.registry`) so that the
    bridge, `sessions`, `show` and the dashboard find it. Raises `StoreError` with a
    clear message when it cannot be used."""
    where = resolve(target, project=project, prefix=prefix)
    store = _open(where)
    if project and where.chosen != "argument":
        try:
            _adopt(Path(project).expanduser(), where, store)
        except BaseException:
            store.close()
            raise
    return store


def _open(where: Target) -> Store:
    if where.is_redis:
        from coachloop.store.redis_store import RedisStore

        return RedisStore(where.text, prefix=where.prefix)
    from coachloop.store.sqlite import SQLiteStore

    return SQLiteStore(Path(where.text))


def _adopt(project: Path, where: Target, store: Store) -> None:
    """The project's old store merged in, its own store registered (both idempotent)."""
    old = legacy_path(project)
    if where.path is not None and os.path.exists(old) and where.path != old:
        from coachloop.store.upgrade import merge_project

        try:
            merge_project(project, store)
        except StoreError as exc:  # the old file stays; `coachloop upgrade` reports it
            import logging

            logging.getLogger("coachloop.store.upgrade").warning("%s", exc)
    if where.own:
        from coachloop.store.registry import register

        register(project)
