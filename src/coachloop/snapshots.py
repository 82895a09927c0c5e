"""Snapshot files: the format older versions wrote per event, and its retention.

Lifecycle records now live in the store (`coachloop.snapshot_pack`: packed and redacted
once, exported as files on demand); this module keeps the file format, whose old files
`cleanup` still ages out:

Layout: `$COACHLOOP_HOME/sessions/<session>/<UTC time with microseconds>_<event>.json`,
events "resume", "auto_continue", "deliver", "error", "complete". A file is written to a
temporary name and then hard-linked to its final name, which fails if that name exists:
two snapshots in the same microsecond get a counter suffix ("-1", "-2", ...) and never
overwrite each other, and a reader never sees a half-written file. Secrets are redacted
before anything is written (`coachloop.redaction.redact_value`). `cleanup(retention_days)`
removes files older than the retention and empty session folders; the supervisor calls
it at most once an hour (claimed in the store) and `coachloop sessions --cleanup` runs it
on demand.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from coachloop.config import home
from coachloop.config.private import in_private
from coachloop.redaction import redact_value

LIFECYCLE = (
    *("resume", "auto_continue", "deliver", "error", "complete", "drop"),
    *("notice", "start", "end", "alert", "status"),
)
DEFAULT_RETENTION_DAYS = 7.0


class SnapshotError(ValueError):
    """A snapshot file that cannot be read as a snapshot; the message names the file."""


def _safe_id(session_id: str) -> str:
    if not session_id or not session_id.strip():
        raise ValueError("session_id must be a non-empty string")
    safe = re.sub(r"[^A-Za-z0-9._\-]", "_", session_id)[:120]
    if safe != session_id or safe in {".", ".."}:
        tag = hashlib.sha1(session_id.encode("utf-8", "replace")).hexdigest()[:8]
        safe = f"{safe.strip('.') or 'session'}-{tag}"
    return safe


def root_dir(root: Path | None = None) -> Path:
    """Where snapshots live: `root`, else `$COACHLOOP_HOME/sessions`."""
    return root if root is not None else home() / "sessions"


def session_dir(session_id: str, root: Path | None = None) -> Path:
    """The folder of one session's snapshots (the id made safe as a file name)."""
    return root_dir(root) / _safe_id(session_id)


def save(
    session_id: str,
    event: str,
    data: Mapping[str, Any],
    *,
    root: Path | None = None,
    now: float | None = None,
) -> Path:
    """Write one redacted snapshot; returns its path. Never overwrites an existing file."""
    if event not in LIFECYCLE:
        raise ValueError(f"unknown snapshot event {event!r}; expected one of {LIFECYCLE}")
    ts = time.time() if now is None else now
    stamp = datetime.fromtimestamp(ts, UTC).strftime("%Y%m%dT%H%M%S.%fZ")
    folder = session_dir(session_id, root)
    in_private(folder / "x")
    body = {"session_id": session_id, "event": event, "saved_at": ts, **data}
    payload = json.dumps(redact_value(body), indent=2, ensure_ascii=False, default=str)
    tmp = folder / f".tmp-{os.getpid()}-{time.monotonic_ns()}.json"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(payload)
        for n in range(10_000):
            final = folder / f"{stamp}_{event}{f'-{n}' if n else ''}.json"
            try:
                os.link(tmp, final)
                return final
            except FileExistsError:
                continue
        raise OSError(f"no free snapshot name in {folder} for {stamp}_{event}")
    finally:
        tmp.unlink(missing_ok=True)


def load(path: Path) -> dict[str, Any]:
    """Read a snapshot; a missing, unreadable or corrupt file raises `SnapshotError`."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise SnapshotError(f"snapshot {path} cannot be read: {exc}") from exc
    if not isinstance(data, dict) or "event" not in data:
        raise SnapshotError(f"snapshot {path} is not a coachloop snapshot")
    return data


def list_snapshots(session_id: str, root: Path | None = None) -> list[Path]:
    """The session's snapshot files, oldest first (names sort by time)."""
    folder = session_dir(session_id, root)
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.glob("*.json") if not p.name.startswith(".tmp-"))


@dataclass(slots=True)
class CleanupReport:
    """What `cleanup` did: files removed, session folders removed, failures (path: error)."""

    removed: int = 0
    folders: int = 0
    errors: list[str] = field(default_factory=list)


def cleanup(
    retention_days: float = DEFAULT_RETENTION_DAYS,
    *,
    root: Path | None = None,
    now: float | None = None,
) -> CleanupReport:
    """Remove snapshot files older than `retention_days` (by modification time, so a
    corrupt file is aged like any other and never stops the sweep), stale temporary
    files, and session folders left empty. Errors are collected, never raised."""
    if retention_days < 0:
        raise ValueError("retention_days must not be negative")
    report = CleanupReport()
    base = root_dir(root)
    if not base.is_dir():
        return report
    cutoff = (time.time() if now is None else now) - retention_days * 86_400
    for folder in sorted(p for p in base.iterdir() if p.is_dir()):
        for path in folder.glob("*.json"):
            try:
                if path.stat().st_mtime < cutoff:
                    path.unlink()
                    report.removed += 1
            except OSError as exc:
                report.errors.append(f"{path}: {exc}")
        try:
            if not any(folder.iterdir()):
                folder.rmdir()
                report.folders += 1
        except OSError as exc:
            report.errors.append(f"{folder}: {exc}")
    return report
