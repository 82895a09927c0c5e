"""The player's reach: what it must not touch, checked before and after each turn.

The player works in the workspace the orchestrator owns. `Guard.state()` records, and
`Guard.check(before)` compares after the turn (after the tests ran too, so a test that
writes outside is caught):

- the requirements file (and its copy in the workspace): restored when changed;
- the coordination files (everything under the duel's root but the workspace and the
  player's own report.json for the turn): restored when changed, added or deleted;
- the original project (file sizes and modification times) and the folders holding
  the project and the root (their direct entries): reported;
- the workspace's links to the project's dependency folders: reported when changed.

Each difference is a blocking `Finding`. Writes elsewhere (the home folder, /tmp) are
not seen: that needs an operating-system sandbox.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from coachloop.duel import workspace
from coachloop.duel.findings import Finding

__all__ = ["Guard", "GuardState"]

MAX_KEPT_BYTES = 5_000_000
MAX_LISTED = 8


@dataclass(frozen=True, slots=True)
class GuardState:
    """What the guard saw at one moment."""

    project: workspace.Snapshot
    neighbours: dict[str, str]
    coordination: dict[str, bytes]
    links: dict[str, str]


def _stat(path: Path) -> str:
    try:
        info = path.lstat()
    except OSError:
        return "missing"
    return "dir" if path.is_dir() else f"{info.st_size}:{info.st_mtime_ns}"


def _listing(paths: Iterable[str]) -> str:
    items = sorted(paths)
    shown = ", ".join(f"`{p}`" for p in items[:MAX_LISTED])
    return shown + (f" and {len(items) - MAX_LISTED} more" if len(items) > MAX_LISTED else "")


class Guard:
    """Watches what lies outside the player's workspace (see the module docstring)."""

    def __init__(
        self,
        *,
        project: Path,
        workspace_dir: Path,
        root: Path,
        requirements: Path,
        links: Mapping[str, str],
        exclude: tuple[str, ...],
    ) -> None:
        self.project = project
        self.workspace_dir = workspace_dir
        self.root = root
        self.requirements = requirements
        self.requirements_bytes = requirements.read_bytes()
        self.copies = [requirements]
        with contextlib.suppress(ValueError):
            self.copies.append(workspace_dir / requirements.relative_to(project))
        self.links = dict(links)
        self.exclude = exclude

    def _coordination(self) -> dict[str, bytes]:
        out: dict[str, bytes] = {}
        for folder, dirs, files in os.walk(self.root):
            here = Path(folder)
            dirs[:] = [d for d in dirs if here / d != self.workspace_dir]
            for name in files:
                path = here / name
                with contextlib.suppress(OSError):
                    if path.stat().st_size <= MAX_KEPT_BYTES:
                        out[path.relative_to(self.root).as_posix()] = path.read_bytes()
        return out

    def _neighbours(self) -> dict[str, str]:
        out: dict[str, str] = {}
        for folder in {self.project.parent, self.root.parent}:
            with contextlib.suppress(OSError):
                for entry in folder.iterdir():
                    out[str(entry)] = _stat(entry)
        return out

    def _links(self) -> dict[str, str]:
        out: dict[str, str] = {}
        for name in self.links:
            path = self.workspace_dir / name
            out[name] = os.readlink(path) if path.is_symlink() else _stat(path)
        return out

    def state(self) -> GuardState:
        """What is outside the workspace now."""
        project = workspace.take_snapshot(self.project, self.exclude, walk=True, content=False)
        return GuardState(project, self._neighbours(), self._coordination(), self._links())

    def check(self, before: GuardState, allowed: Iterable[Path] = ()) -> list[Finding]:
        """Findings for what changed outside the workspace since `before`; the requirements
        and the coordination files are restored."""
        out: list[Finding] = []
        for copy in self.copies:
            try:
                same = copy.read_bytes() == self.requirements_bytes
            except OSError:
                same = False
            if not same:
                copy.parent.mkdir(parents=True, exist_ok=True)
                copy.write_bytes(self.requirements_bytes)
                out.append(
                    Finding(
                        "requirements",
                        f"The requirements file `{copy}` was changed; it has been restored",
                        "Never edit the requirements; if they are wrong, say so in your "
                        "report's concerns.",
                        str(copy),
                    )
                )
        skip = {p.resolve().relative_to(self.root).as_posix() for p in allowed}
        now = self._coordination()
        touched = {
            p
            for p in set(before.coordination) | set(now)
            if p not in skip and before.coordination.get(p) != now.get(p)
        }
        for rel in touched:
            path = self.root / rel
            if rel in before.coordination:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(before.coordination[rel])
            else:
                path.unlink(missing_ok=True)
        ours = {
            p
            for p in touched
            if p.startswith("coordination/") or ("/" not in p and p.endswith(".json"))
        }
        if ours:
            out.append(
                Finding(
                    "coordination",
                    f"Coordination files under `{self.root}` were changed: {_listing(ours)}; "
                    "they have been restored",
                    "Write only your own report.json; the coach's files are not yours.",
                    str(self.root / sorted(ours)[0]),
                )
            )
        after = self.state()
        outside = set(workspace.changed(before.project, after.project))
        outside = {str(self.project / p) for p in outside}
        outside |= {f"{self.root / p} (deleted)" for p in touched - ours}
        outside -= {str(c) for c in self.copies}  # reported above
        outside |= {
            p
            for p in set(before.neighbours) | set(after.neighbours)
            if before.neighbours.get(p) != after.neighbours.get(p)
        }
        if outside:
            out.append(
                Finding(
                    "outside",
                    f"The player wrote outside its workspace: {_listing(outside)}",
                    f"Work only inside the workspace ({self.workspace_dir}); undo those changes.",
                    sorted(outside)[0],
                )
            )
        moved = [n for n in self.links if after.links.get(n) != self.links[n]]
        if moved:
            out.append(
                Finding(
                    "outside",
                    f"The workspace's dependency link(s) {_listing(moved)} were replaced",
                    "Leave the dependency folders as the duel set them up.",
                    moved[0],
                )
            )
        return out
