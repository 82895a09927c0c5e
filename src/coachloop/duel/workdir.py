"""The workspace the orchestrator owns: where the player works, apart from the project.

`create(project, path, exclude)` copies the project's files (git's list in a git work
tree, tracked and untracked but not ignored; a walk elsewhere) to `path`, links the
project's dependency folders (node_modules, .venv, venv) instead of copying them, and
makes the copy a git repository of its own whose first commit is the start: the diff
tools work the same for any project, and the player's git commands touch only the copy.

`apply(ws, start, now)` brings an approved workspace's changes (files added, modified
or deleted since `start`) back to the project, only when none of those paths changed
in the project meanwhile; otherwise nothing is applied and the conflicts are returned.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from coachloop.duel import workspace
from coachloop.duel.workspace import Snapshot

__all__ = ["DEPENDENCY_DIRS", "Workspace", "apply", "create"]

DEPENDENCY_DIRS = ("node_modules", ".venv", "venv")
_GIT_ID = ("-c", "user.name=coachloop", "-c", "user.email=coachloop@localhost")


@dataclass(frozen=True, slots=True)
class Workspace:
    """The player's workspace: a copy of `project` at `path`, started at commit `base`."""

    path: Path
    project: Path
    base: str
    links: dict[str, str] = field(default_factory=dict)  # name → the project's real folder


def _files(project: Path, exclude: tuple[str, ...]) -> list[str]:
    snapshot = workspace.take_snapshot(project, exclude, content=False)
    return sorted(snapshot.files)


def _copy(source: Path, target: Path) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    if source.is_symlink():
        target.unlink(missing_ok=True)
        os.symlink(os.readlink(source), target)
    else:
        shutil.copy2(source, target)


def create(project: Path, path: Path, exclude: Iterable[str] = ()) -> Workspace:
    """Make the workspace (see the module docstring); raises OSError or RuntimeError."""
    prefixes = tuple(exclude)
    path.mkdir(parents=True)
    for rel in _files(project, prefixes):
        if rel.split("/", 1)[0] in DEPENDENCY_DIRS:
            continue
        _copy(project / rel, path / rel)
    links: dict[str, str] = {}
    for name in DEPENDENCY_DIRS:
        source = project / name
        if source.is_dir():
            real = str(source.resolve())
            os.symlink(real, path / name)
            links[name] = real
    for args in (
        ("init", "-q"),
        ("add", "-A"),
        (*_GIT_ID, "commit", "-q", "--allow-empty", "--no-verify", "-m", "duel start"),
    ):
        done = workspace.git(path, *args, timeout=120)
        if done.returncode != 0:
            raise RuntimeError(f"cannot set up the workspace's git: {done.stderr.strip()}")
    exclude_file = path / ".git" / "info" / "exclude"
    exclude_file.parent.mkdir(parents=True, exist_ok=True)
    with exclude_file.open("a", encoding="utf-8") as handle:
        handle.write("".join(f"/{n}\n" for n in links) + "__pycache__/\n")
    return Workspace(path, project, workspace.git_head(path), links)


def apply(ws: Workspace, start: Snapshot, now: Snapshot) -> tuple[list[str], list[str]]:
    """(paths applied to the project, conflicting paths); nothing is applied on conflict."""
    paths = workspace.changed(start, now)
    conflicts = [
        p for p in paths if workspace.digest(ws.project / p) != start.files.get(p, "missing")
    ]
    if conflicts:
        return [], conflicts
    for rel in paths:
        target = ws.project / rel
        if rel in now.files:
            _copy(ws.path / rel, target)
        else:
            target.unlink(missing_ok=True)
    return list(paths), []
