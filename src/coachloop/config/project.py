"""Which project a directory belongs to: the one rule hooks, runners, the bridge,
`doctor` and `upgrade` share, so that they all open the same store for it.

The project is the nearest enclosing git work tree of `cwd`, else the nearest directory
with a `.coachloop/` folder (other than the data directory), else `cwd` itself, unless
`cwd` is the filesystem root or the home directory, or is not a directory: then no
project (the user's store in `$COACHLOOP_HOME`). The search never enters a directory
another user owns or everyone may write (`/tmp`, `/var/tmp`, `/dev/shm`, another
user's home): a `.git` or `.coachloop/` planted there is not the user's project, and a
`cwd` that is such a directory has no project at all. Standard library only (the hook
path).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path


def _owned(folder: Path, *, mine: bool = False) -> bool:
    """True when `folder` belongs to the user (or, unless `mine`, to root: `/home`, `/`)
    and is not writable by everyone."""
    info = os.stat(folder)
    owners = (os.getuid(),) if mine else (os.getuid(), 0)
    return info.st_uid in owners and not info.st_mode & stat.S_IWOTH


MAX_PATH = 4_096  # characters of a path (PATH_MAX)


def project_root(cwd: str) -> Path | None:
    """The project directory of `cwd` (see the module docstring), or None; never raises."""
    if not cwd or len(cwd) > MAX_PATH or "\x00" in cwd:
        return None
    try:
        from coachloop.config import home

        start = Path(cwd).expanduser()
        if not start.is_absolute() or not start.is_dir():
            return None
        data_dir = home()
        if not _owned(start, mine=True):
            return None  # `/etc`, `/usr/share`, another user's folder: not the user's project
        for folder in (start, *start.parents):
            if not _owned(folder):
                break  # nothing above a shared or foreign directory is ours
            if (folder / ".git").exists():
                return folder
            marker = folder / ".coachloop"
            if marker != data_dir and marker.is_dir():
                return folder
        if start == Path(start.anchor) or start == Path.home():
            return None
        return start
    except (OSError, ValueError, RuntimeError):
        return None
