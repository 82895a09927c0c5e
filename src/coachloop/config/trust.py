"""What a repository's own config may set, and the user's explicit trust for the rest.

A project's `.coachloop/config.toml` comes with the code the user cloned. It may set the
keys in `HARMLESS` (skills, the caps and thresholds, checked against their ranges where
they are read, snapshot retention): they change how strictly the agent is supervised,
never where data or credentials go. Every other key (the judge provider, its model, URL
and key variable, the store, anything unknown) is honoured only from the user's home
config, or after `coachloop trust PROJECT` recorded the file's SHA-256 in
`$COACHLOOP_HOME/trusted.json` (0600): an edited file is untrusted again until the user
trusts it again. Keys set and not honoured are logged once per file content in
`$COACHLOOP_HOME/logs/hook.log` with the command that trusts them.

A project file is read at all only when the file and its folders up to the project
are owned by the user (or root) and not writable by everyone (`safe_path`): another
local user must not be able to plant one. Standard library only (the hook path).
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import time
from pathlib import Path
from typing import Any

TRUST_FILE = "trusted.json"
HARMLESS = frozenset(
    {
        "skills",
        "confidence_threshold",
        "llm_timeout",
        "max_text_chars",
        "max_auto_continues",
        "snapshots",
        "plan",
        "plans",
        "plan_file",
    }
)
_CACHE: dict[Path, tuple[float, dict[str, str]]] = {}
_LOGGED: set[tuple[Path, str]] = set()


def digest(text: str) -> str:
    """The SHA-256 of a config file's text, as trust records it."""
    return hashlib.sha256(text.encode("utf-8", "replace")).hexdigest()


def trust_path() -> Path:
    from coachloop.config import home

    return home() / TRUST_FILE


def records() -> dict[str, str]:
    """config file path -> trusted digest (empty when nothing is trusted); cached by mtime."""
    path = trust_path()
    try:
        mtime = path.stat().st_mtime
    except OSError:
        return {}
    cached = _CACHE.get(path)
    if cached is not None and cached[0] == mtime:
        return cached[1]
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        data = {}
    found = {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}
    _CACHE[path] = (mtime, found)
    return found


def is_trusted(path: Path, text: str) -> bool:
    """True when the user trusted this file with exactly this content."""
    return records().get(str(path)) == digest(text)


def record(path: Path, text: str) -> None:
    """Trust `path` with content `text` (replacing an earlier record of it)."""
    from coachloop.config.private import in_private

    target = in_private(trust_path())
    found = dict(records())
    found[str(path)] = digest(text)
    tmp = target.with_name(f".{TRUST_FILE}.{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        json.dump(found, fh, indent=2, sort_keys=True)
    os.replace(tmp, target)
    _CACHE.pop(target, None)


def untrusted_keys(table: dict[str, Any]) -> list[str]:
    """The keys of a project table that need the user's trust."""
    return sorted(k for k in table if k not in HARMLESS)


def honoured(path: Path, text: str, table: dict[str, Any]) -> dict[str, Any]:
    """The part of a project file's table coachloop acts on: all of it when trusted,
    else only the `HARMLESS` keys (the others are logged once)."""
    dropped = untrusted_keys(table)
    if not dropped or is_trusted(path, text):
        return table
    _log_once(path, text, dropped)
    return {k: v for k, v in table.items() if k in HARMLESS}


def safe_path(path: Path, top: Path) -> bool:
    """True when `path` and every folder from it up to `top` (included) are owned by the
    user (or root) and not writable by everyone. Never raises."""
    me = os.getuid()
    try:
        for node in (path, *path.parents):
            info = os.stat(node)
            if info.st_uid not in (me, 0) or info.st_mode & stat.S_IWOTH:
                return False
            if node == top:
                return True
    except OSError:
        return False
    return False


def _log_once(path: Path, text: str, keys: list[str]) -> None:
    key = (path, digest(text))
    if key in _LOGGED:
        return
    _LOGGED.add(key)
    try:
        from coachloop.config import home
        from coachloop.config.private import append_private

        project = path.parent.parent
        stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        line = (
            f"{stamp} ignored {', '.join(keys)[:300]} in {path}: a repository's config may "
            f"not choose where data or credentials go; `coachloop trust {project}` honours them\n"
        )
        append_private(home() / "logs" / "hook.log", line)
    except Exception:  # a log line must never break reading the settings
        return
