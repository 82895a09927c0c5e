"""Files only their owner can read: the data directory 0700, every file coachloop writes 0600.

Agent messages, prompts, coaching and tokens live in `$COACHLOOP_HOME` and in a project's
`.coachloop/`; another local user must not read them. `private_dir` creates a directory
0700 (and tightens one of ours that is wider); `private_file` creates an empty file 0600
before a library opens it (SQLite then creates its `-wal`/`-shm` files with the same
mode) and tightens an existing one; `append_private` appends to a log that is created
0600, refusing anything but a regular file (a FIFO planted at a log's path would block
the hook forever). Only files and folders the current user owns are ever chmod'ed.
Standard library only (the hook path uses it).
"""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path

DIR_MODE = 0o700
FILE_MODE = 0o600


def _tighten(path: Path | int, mode: int) -> None:
    """chmod `path` (a path or an open descriptor) to `mode` when we own it and it is
    wider; never raises (a read-only or foreign file keeps its mode)."""
    with contextlib.suppress(OSError):
        info = os.fstat(path) if isinstance(path, int) else os.stat(path)
        if info.st_uid != os.getuid() or stat.S_IMODE(info.st_mode) & ~mode == 0:
            return
        if isinstance(path, int):
            os.fchmod(path, mode)
        else:
            os.chmod(path, mode)


def _makedirs(path: Path) -> None:
    """`path` and its missing parents created 0700 each (`mkdir(parents=True)` would
    create the parents with the default mode)."""
    missing = [p for p in (path, *path.parents) if not p.exists()]
    for folder in reversed(missing):
        folder.mkdir(mode=DIR_MODE, exist_ok=True)


def private_dir(path: Path) -> Path:
    """`path` as a directory (created with its missing parents, each 0700), 0700 when
    we own it. Raises OSError when it cannot be created."""
    _makedirs(path)
    _tighten(path, DIR_MODE)
    return path


def home_dir() -> Path:
    """The data directory (`coachloop.config.home`), created 0700 or tightened to it."""
    from coachloop.config import home

    return private_dir(home())


def in_private(path: Path) -> Path:
    """`path`'s folder created 0700 (with the data directory itself when `path` is in
    it), and tightened when it is ours and is the data directory, one of its folders or
    a project's `.coachloop/`; a folder the user chose elsewhere keeps its mode."""
    from coachloop.config import home

    data = home()
    folder = path.parent
    if folder == data or data in folder.parents:
        home_dir()
    _makedirs(folder)
    if folder == data or data in folder.parents or folder.name == ".coachloop":
        _tighten(folder, DIR_MODE)
    return path


def private_file(path: Path) -> Path:
    """`path` created empty with mode 0600 when missing, or its mode tightened to 0600
    when it exists and is ours (its folder is the caller's business: `in_private`)."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, FILE_MODE)
    except FileExistsError:
        _tighten(path, FILE_MODE)
    else:
        os.close(fd)
    return path


def tighten_all(folder: Path) -> None:
    """Every entry of `folder` we own made private (files 0600, folders 0700), one level
    deep: an older install left them world-readable. Never raises."""
    with contextlib.suppress(OSError):
        _tighten(folder, DIR_MODE)
        for entry in os.scandir(folder):
            if entry.is_symlink():
                continue
            _tighten(Path(entry.path), DIR_MODE if entry.is_dir() else FILE_MODE)


def append_private(path: Path, text: str) -> None:
    """Append `text` to the log at `path`, created 0600 (its folder: `in_private`). Raises
    OSError when `path` is not a regular file (a FIFO, a device, a symlink), without
    ever blocking on it."""
    in_private(path)
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NONBLOCK | os.O_NOFOLLOW
    fd = os.open(path, flags, FILE_MODE)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(f"{path} is not a regular file; not writing to it")
        _tighten(fd, FILE_MODE)
        os.write(fd, text.encode("utf-8", "replace"))
    finally:
        os.close(fd)
