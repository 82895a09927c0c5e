"""The home's registry of stores: the projects that keep a store of their own.

By default every project's sessions live in one store under `$COACHLOOP_HOME`. A project
may opt into a store of its own (`[store] url` in `<project>/.coachloop/config.toml`);
the first time a hook (or any opener) opens such a store, the project is recorded here,
so that readers started anywhere (the bridge, `sessions`, `show`, the dashboard) find
it without being told.

Layout: one small JSON file per project, `$COACHLOOP_HOME/stores/<digest>.json`
(`{"project": "/abs/dir", "registered_at": 1.7e9}`), written once (atomically, owner
only). One file per project means no lock and no read-modify-write between concurrent
hooks; registering an already registered project costs one `stat`. The entry names the
project, not the store's URL: readers resolve the store from the project's config as the
hooks do (no credential is copied, and a changed URL is followed).

`open_stores` opens every store a reader must see: the home store and each registered
project's store, each distinct location once.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from dataclasses import dataclass
from pathlib import Path

from coachloop.config import home
from coachloop.store.base import Store, StoreError

__all__ = ["Opened", "open_stores", "register", "registered", "registry_dir"]


def registry_dir() -> Path:
    """`$COACHLOOP_HOME/stores`."""
    return home() / "stores"


def _entry(project: Path) -> Path:
    digest = hashlib.sha256(str(project).encode("utf-8", "surrogatepass")).hexdigest()[:24]
    return registry_dir() / f"{digest}.json"


def register(project: Path) -> bool:
    """Record that `project` keeps a store of its own; True when newly recorded.
    Fails open (False) when the home cannot be written: the hook's stop still counts."""
    project = project.expanduser().absolute()
    entry = _entry(project)
    if entry.exists():
        return False
    try:
        from coachloop.config.private import private_dir

        private_dir(entry.parent)  # 0700, like the rest of the data directory
        tmp = entry.with_name(f".{entry.name}.{os.getpid()}.tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump({"project": str(project), "registered_at": time.time()}, fh)
        os.replace(tmp, entry)
    except OSError:
        return False
    return True


def registered() -> list[Path]:
    """The registered projects, sorted; unreadable or malformed entries are skipped."""
    out: set[Path] = set()
    try:
        names = sorted(p for p in registry_dir().iterdir() if p.suffix == ".json")
    except OSError:
        return []
    for path in names:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        project = data.get("project") if isinstance(data, dict) else None
        if isinstance(project, str) and project:
            out.add(Path(project))
    return sorted(out)


@dataclass(frozen=True, slots=True)
class Opened:
    """A reader's view: the stores opened, and the problems met (one line each)."""

    stores: list[Store]
    problems: list[str]

    def close(self) -> None:
        for store in self.stores:
            store.close()


def open_stores(target: str | None = None, project: Path | None = None) -> Opened:
    """Every store a reader must see, never creating one (a SQLite file that does not
    exist yet is skipped).

    With `target` (`--store`) or `COACHLOOP_STORE`: that store alone. Otherwise the home
    store (`[store] url` of the user's config, else `$COACHLOOP_HOME/coachloop.db`) and
    the store of every registered project, or, with `project`, the home store and that
    project's store. A bad config file raises `StoreError`; a registered store that
    cannot be opened is reported in `problems` and skipped.
    """
    from coachloop.config.env import environment
    from coachloop.store import open_store, resolve

    if target is not None or environment().store:
        where = resolve(target)
        path = where.path
        if path is not None and not path.exists():
            return Opened([], [])
        return Opened([open_store(where.text, prefix=where.prefix)], [])
    projects: list[Path | None] = [None, *([project] if project else registered())]
    seen: set[str] = set()
    stores: list[Store] = []
    problems: list[str] = []
    for proj in projects:
        where = resolve(project=proj)
        path = where.path
        key = f"{where.text}#{where.prefix}" if path is None else str(path.resolve())
        # A project's store from a previous version still to be merged (on open).
        waiting = proj is not None and path is not None and _waiting(proj, path)
        if not waiting and (key in seen or (path is not None and not path.exists())):
            continue
        try:
            if proj is None:
                store = open_store(where.text, prefix=where.prefix)
            else:
                store = open_store(project=proj)
        except StoreError as exc:
            if proj is None:
                raise
            problems.append(f"the store of {proj} cannot be read: {exc}")
            continue
        if key in seen:
            store.close()  # opened only to merge the project's old store in
            continue
        seen.add(key)
        stores.append(store)
    return Opened(stores, problems)


def _waiting(project: Path, path: Path) -> bool:
    from coachloop.store import legacy_path

    old = legacy_path(project)
    return old.exists() and old != path
