"""The project's files as the duel sees them: snapshots, what changed, and git's view.

A `Snapshot` maps every project file (relative POSIX path) to a content digest. In a
git work tree the files are git's own list (tracked and untracked, ignored ones left
out); elsewhere, or when asked (`walk=True`, for the duel's own workspace), a walk
that skips dependency and cache folders (and, unless asked, hidden ones). Either way paths
under an excluded prefix (the duel's own `.coachloop/` and coordination root) and
cache folders never count. `changed(a, b)` is the set of paths added, removed or
modified between two snapshots: it does not depend on git, so claims are checked the
same way in any project.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

__all__ = [
    "EMPTY_TREE",
    "Snapshot",
    "changed",
    "digest",
    "git",
    "git_head",
    "is_git",
    "take_snapshot",
]

EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"  # git's empty tree (sha1)
CACHE_PARTS = frozenset(
    {".git", "__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache", ".coachloop"}
)
WALK_SKIP = CACHE_PARTS | {"node_modules", ".venv", "venv", "target", "dist", "build"}
MAX_FILES = 50_000
MAX_HASHED_BYTES = 20 * 1024 * 1024  # larger files are compared by size and mtime


@dataclass(frozen=True, slots=True)
class Snapshot:
    """Relative path → digest; `truncated` when the project had more than MAX_FILES."""

    files: dict[str, str] = field(default_factory=dict)
    truncated: bool = False


def git(project: Path, *args: str, timeout: float = 30.0) -> subprocess.CompletedProcess[str]:
    """`git -C project ARGS` with captured text output; never raises for git's errors."""
    try:
        return subprocess.run(
            ["git", "-C", str(project), *args],
            capture_output=True,
            text=True,
            errors="replace",
            timeout=timeout,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return subprocess.CompletedProcess(["git", *args], 128, "", str(exc))


def is_git(project: Path) -> bool:
    """True when `project` is inside a git work tree."""
    done = git(project, "rev-parse", "--is-inside-work-tree")
    return done.returncode == 0 and done.stdout.strip() == "true"


def git_head(project: Path) -> str:
    """The current commit, or the empty tree when the repository has no commit yet."""
    done = git(project, "rev-parse", "--verify", "-q", "HEAD")
    return done.stdout.strip() if done.returncode == 0 and done.stdout.strip() else EMPTY_TREE


def _excluded(path: str, prefixes: Iterable[str]) -> bool:
    parts = path.split("/")
    if any(p in CACHE_PARTS for p in parts):
        return True
    return any(path == p or path.startswith(p.rstrip("/") + "/") for p in prefixes)


def _git_files(project: Path) -> list[str] | None:
    done = git(project, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
    if done.returncode != 0:
        return None
    return sorted({p for p in done.stdout.split("\0") if p})


def _walk_files(project: Path, *, hidden: bool = False) -> list[str]:
    out: list[str] = []
    for folder, dirs, files in os.walk(project):
        dirs[:] = [d for d in dirs if d not in WALK_SKIP and (hidden or not d.startswith("."))]
        rel = Path(folder).relative_to(project)
        out.extend((rel / f).as_posix() for f in files)
        if len(out) > MAX_FILES:
            break
    return sorted(out)


def digest(path: Path) -> str:
    """The content digest of one file ("missing" when it cannot be read)."""
    try:
        info = path.stat()
        if info.st_size > MAX_HASHED_BYTES:
            return f"size:{info.st_size}:mtime:{info.st_mtime_ns}"
        return hashlib.sha1(path.read_bytes(), usedforsecurity=False).hexdigest()
    except OSError:
        return "missing"


def _stat(path: Path) -> str:
    try:
        info = path.lstat()
    except OSError:
        return "missing"
    return f"size:{info.st_size}:mtime:{info.st_mtime_ns}"


def take_snapshot(
    project: Path, exclude: Iterable[str] = (), *, walk: bool = False, content: bool = True
) -> Snapshot:
    """The digest of every project file outside `exclude` (relative path prefixes).

    `walk`: list files by walking the tree (hidden folders included, dependency and
    cache folders not) instead of asking git, whose ignore rules the player controls;
    `content` False: compare sizes and modification times only (cheaper).
    """
    prefixes = tuple(exclude)
    listed = _git_files(project) if not walk and is_git(project) else None
    paths = listed if listed is not None else _walk_files(project, hidden=walk)
    paths = [p for p in paths if not _excluded(p, prefixes)]
    truncated = len(paths) > MAX_FILES
    files: dict[str, str] = {}
    for rel in paths[:MAX_FILES]:
        found = digest(project / rel) if content else _stat(project / rel)
        if found != "missing" or (project / rel).is_symlink():
            files[rel] = found
    return Snapshot(files, truncated)


def changed(before: Snapshot, after: Snapshot) -> tuple[str, ...]:
    """Paths added, removed or modified from `before` to `after`, sorted."""
    paths = set(before.files) | set(after.files)
    return tuple(sorted(p for p in paths if before.files.get(p) != after.files.get(p)))
