"""Which project a directory belongs to: the one rule hooks, runners, the bridge,
`doctor` and `upgrade` share, so that they all open the same store for it.

The project is the nearest enclosing git work tree of `cwd`, else the nearest directory
with a `.coachloop/` folder (other than the data directory), else `cwd` itself, unless
`cwd` is the filesystem root or the home directory, or is not a directory: then no
project (the user's store in `$COACHLOOP_HOME`). Standard library only (the hook path).
"""

from __future__ import annotations

from pathlib import Path

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
        for folder in (start, *start.parents):
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
