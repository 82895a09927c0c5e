"""Reading the end of a log file, line by line backwards, within a byte bound.

`open_log(path)` opens a regular file without ever blocking (a FIFO, a device, a
directory or a socket is refused with `Unreadable`, as is a missing or unreadable
file). `lines_backwards(fd, size, limit)` yields its lines from the last to the first,
reading at most `limit` bytes from the end in chunks, so the cost depends on how far
back the caller reads, never on the file's size. Standard library only (hook path).
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from dataclasses import dataclass

__all__ = ["CHUNK", "Backwards", "Unreadable", "open_log"]

CHUNK = 64 * 1024


class Unreadable(Exception):  # noqa: N818 - reads as a sentence
    """The log cannot be read; `str()` says why in a few words."""


def open_log(path: str) -> tuple[int, int]:
    """An open descriptor on the regular file at `path` and its size.

    Raises `Unreadable` for a missing, unreadable or special file; never blocks (the
    file is opened non-blocking and checked again once open).
    """
    try:
        target = os.path.expanduser(path)
        if not stat.S_ISREG(os.stat(target).st_mode):
            raise Unreadable("not a regular file")
        flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
        fd = os.open(target, flags)
    except FileNotFoundError:
        raise Unreadable("no such file") from None
    except PermissionError:
        raise Unreadable("permission denied") from None
    except (OSError, ValueError) as exc:
        raise Unreadable(f"cannot open it ({type(exc).__name__})") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise Unreadable("not a regular file")
    except BaseException:
        os.close(fd)
        raise
    return fd, info.st_size


@dataclass
class Backwards:
    """The lines of an open file from the last to the first (see the module docstring).

    After iteration, `reached_start` says whether the file's first line was reached
    within `limit` bytes; a partial first line at the bound is never yielded.
    """

    fd: int
    size: int
    limit: int
    reached_start: bool = False

    def __iter__(self) -> Iterator[bytes]:
        pos, budget = self.size, self.limit
        carry: list[bytes] = []  # pieces of the line being assembled, the latest first
        while pos > 0 and budget > 0:
            step = min(CHUNK, pos, budget)
            pos -= step
            budget -= step
            try:
                chunk = os.pread(self.fd, step, pos)
            except OSError:
                return
            if len(chunk) < step:  # the file shrank under us
                return
            parts = chunk.split(b"\n")
            if len(parts) == 1:
                carry.append(chunk)
                continue
            yield parts[-1] + b"".join(reversed(carry))
            yield from reversed(parts[1:-1])
            carry = [parts[0]]
        if pos == 0:
            self.reached_start = True
            yield b"".join(reversed(carry))
