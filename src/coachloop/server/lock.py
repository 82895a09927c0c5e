"""One daemon per socket: `<socket>.lock`, held with flock for the daemon's life.

The lock file holds the daemon's pid. `daemon_pid(path)` finds the live holder (a held
lock, not a pid that may have been reused); `stop_daemon(path)` stops it, which tests use
to clean up daemons that hooks spawned.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import signal
import time


def acquire_lock(lock_path: str, wait: float = 0.0) -> int | None:
    """Take `lock_path` (flock, exclusive) and write our pid in it; the open fd, or None
    when another process holds it for longer than `wait` seconds."""
    deadline = time.monotonic() + wait
    while True:
        fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            if time.monotonic() >= deadline:
                return None
            time.sleep(0.05)
            continue
        try:  # the previous holder may have unlinked the file we opened
            current = os.stat(lock_path).st_ino == os.fstat(fd).st_ino
        except FileNotFoundError:
            current = False
        if current:
            os.ftruncate(fd, 0)
            os.write(fd, f"{os.getpid()}\n".encode())
            return fd
        os.close(fd)


def release_lock(lock_path: str, fd: int) -> None:
    """Remove and release a lock taken by `acquire_lock` (removal first: no race)."""
    with contextlib.suppress(OSError):
        os.unlink(lock_path)
    os.close(fd)


def daemon_pid(socket_path: str) -> int | None:
    """The pid of the live daemon serving `socket_path`, or None."""
    lock_path = socket_path + ".lock"
    try:
        fd = os.open(lock_path, os.O_RDONLY)
    except OSError:
        return None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:  # held: a daemon is alive
            text = os.read(fd, 32).decode(errors="replace").strip()
            return int(text) if text.isdigit() else None
        fcntl.flock(fd, fcntl.LOCK_UN)
        return None
    finally:
        os.close(fd)


def stop_daemon(socket_path: str, timeout: float = 10.0) -> bool:
    """SIGTERM the daemon serving `socket_path` and wait for it to exit (SIGKILL after
    `timeout`). True if one was running."""
    pid = daemon_pid(socket_path)
    if pid is None:
        return False
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + timeout
    while daemon_pid(socket_path) == pid:
        if time.monotonic() > deadline:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
            break
        time.sleep(0.02)
    return True
