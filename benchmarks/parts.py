"""Bounded benchmark parts: a part that fails or hangs is reported as skipped, with why.

    from parts import part
    rate = part("Redis, 4 workers", lambda: run_parallel(...), timeout=120)
    # None (and a "skipped" line on stdout) when it raised or ran out of time

Each part runs in a forked child process in its own process group, so a part that hangs
(a server that never answers, a child waiting on a queue) is killed with everything it
started once its timeout passes; an exception in it becomes its reason. The result
travels back pickled. `SKIPPED` collects (name, reason) for a summary.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import signal
import sys
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")
SKIPPED: list[tuple[str, str]] = []


def _child(fn: Callable[[], Any], conn: Any) -> None:
    os.setpgrp()  # the part and whatever it starts die together on a timeout
    try:
        conn.send(("ok", fn()))
    except BaseException as exc:
        text = " ".join(str(exc).split())[:300]
        conn.send(("error", f"{type(exc).__name__}: {text}" if text else type(exc).__name__))
    finally:
        conn.close()


def skip(name: str, reason: str) -> None:
    """Report `name` as skipped (stdout, and `SKIPPED`)."""
    SKIPPED.append((name, reason))
    print(f"  skipped  {name}: {reason}", flush=True)


def part(name: str, fn: Callable[[], T], timeout: float) -> T | None:
    """`fn()` run in a child within `timeout` seconds; None (reported) when it raised or
    did not finish in time."""
    ctx = mp.get_context("fork")
    receive, send = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_child, args=(fn, send), daemon=False)
    sys.stdout.flush()
    sys.stderr.flush()
    proc.start()
    send.close()
    try:
        if not receive.poll(timeout):
            skip(name, f"did not finish within {timeout:g} s (stopped)")
            os.killpg(proc.pid, signal.SIGKILL)
            return None
        try:
            status, value = receive.recv()
        except EOFError:
            skip(name, f"its process died (exit status {proc.exitcode})")
            return None
        if status != "ok":
            skip(name, str(value))
            return None
        return value  # type: ignore[no-any-return]
    finally:
        proc.join(10)  # a finished part exits by itself; a hung one is stopped below
        if proc.is_alive():
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except OSError:
                proc.kill()
        proc.join(5)
        receive.close()
