"""Opened supervisors and judges, reused across hook calls in one process.

A command hook handles one call per process, but the warm daemon and the HTTP endpoint
call `handle()` thousands of times: opening the store, reading the settings and
building the judge at every call would cost more than deciding. `opened(root)` returns
the `OpenProject` (supervisor, settings, judge) for a project directory, reusing one built
earlier when nothing it depends on changed:

- the project directory, and every `COACHLOOP_*`, `ANTHROPIC_*` and `OPENAI_*`
  environment variable (settings, store and judge read them);
- the size and modification time of `$COACHLOOP_HOME/config.toml` and
  `<project>/.coachloop/config.toml`;
- for a SQLite store, the identity (device, inode) of its database file: a file that was
  deleted or replaced is reopened rather than written through a stale handle.

At most `MAX_CACHED` entries are kept (least recently used first out); an evicted store
is closed when the last call using it lets go of it. Thread-safe: stores serialise their
own access, and the cache is guarded by a lock.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from coachloop.config import Settings
    from coachloop.judge import Judge
    from coachloop.supervisor import Supervisor

HOOK_JUDGE_BUDGET = 20.0  # seconds of judging a hook may spend: under the client's 25 s
MAX_CACHED = 8
ENV_PREFIXES = ("COACHLOOP_", "ANTHROPIC_", "OPENAI_")

Key = tuple[object, ...]


@dataclass(frozen=True, slots=True)
class OpenProject:
    """What a hook call needs for one project; `file_id` identifies a SQLite file."""

    supervisor: Supervisor
    settings: Settings
    judge: Judge
    file_id: tuple[int, int] | None = None


_cache: OrderedDict[Key, OpenProject] = OrderedDict()
_lock = threading.Lock()


def opened(root: Path | None) -> OpenProject:
    """The supervisor, settings and judge of the project at `root` (None: no project)."""
    key = _key(root)
    with _lock:
        found = _cache.get(key)
        if found is not None and _file_id(found) == found.file_id:
            _cache.move_to_end(key)
            return found
    fresh = _open(root)
    with _lock:
        _cache[key] = fresh
        _cache.move_to_end(key)
        while len(_cache) > MAX_CACHED:
            _cache.popitem(last=False)
    return fresh


def entries() -> list[OpenProject]:
    """The entries open now, most recently used last (for background maintenance)."""
    with _lock:
        return list(_cache.values())


def clear() -> None:
    """Forget every cached entry (their stores close once no call uses them)."""
    with _lock:
        _cache.clear()


def _open(root: Path | None) -> OpenProject:
    from coachloop.config import load_settings
    from coachloop.judge import make_judge
    from coachloop.supervisor import Supervisor

    settings = load_settings(root)
    sup = Supervisor.open(root, settings=settings)
    # A hook's judge must finish inside the hook's budget (the client waits 25 s, an
    # installed http hook 30 s): past it the agent stops while the store would record
    # the judge's later decision. Its LLM deadline, retries included, is clamped.
    budget = min(settings.llm_timeout, HOOK_JUDGE_BUDGET)
    entry = OpenProject(sup, settings, make_judge(replace(settings, llm_timeout=budget)))
    return OpenProject(sup, settings, entry.judge, _file_id(entry))


def _file_id(entry: OpenProject) -> tuple[int, int] | None:
    path = getattr(entry.supervisor.reads, "path", None)
    if not isinstance(path, Path):
        return None
    try:
        info = os.stat(path)
    except OSError:
        return (-1, -1)  # gone: never equal to the identity recorded at open
    return (info.st_dev, info.st_ino)


def _key(root: Path | None) -> Key:
    from coachloop.config import home

    # The raw variables, not coachloop.config.env: a fingerprint of every variable that
    # can change a project's settings, store or judge (provider keys too), not a read.
    env = tuple(sorted((k, v) for k, v in os.environ.items() if k.startswith(ENV_PREFIXES)))
    files = [home() / "config.toml", home() / "trusted.json"]  # `coachloop trust` counts
    if root is not None:
        files.append(root / ".coachloop" / "config.toml")
    stamps: list[object] = []
    for path in files:
        try:
            info = os.stat(path)
            stamps.append((info.st_size, info.st_mtime_ns))
        except OSError:
            stamps.append(None)
    return (str(root) if root else None, env, tuple(stamps))
