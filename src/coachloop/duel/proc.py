"""Running a program with a hard time limit, its whole process tree killed on timeout.

`run(argv, cwd=..., timeout=...)` never raises for the program's behaviour: a program
that cannot start gives `error` (and `exit_code` None), one that outlives `timeout`
is killed with its children (its own process group) and gives `timed_out=True`.
Output (stdout and stderr interleaved) is kept whole in memory up to `max_output`
characters, then only its tail, with a note of how much was dropped.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

__all__ = ["ProcResult", "run"]

DEFAULT_MAX_OUTPUT = 200_000


@dataclass(frozen=True, slots=True)
class ProcResult:
    """What a program did: exit code (None when it did not finish), output, time."""

    argv: tuple[str, ...]
    exit_code: int | None
    output: str
    duration_s: float
    timed_out: bool = False
    error: str | None = None  # could not start (not found, not executable, ...)

    @property
    def ok(self) -> bool:
        return self.exit_code == 0 and not self.timed_out and self.error is None

    @property
    def command(self) -> str:
        """The argv as one readable line."""
        return " ".join(self.argv)


def _tail(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    return f"[... {len(text) - limit} earlier characters dropped ...]\n" + text[-limit:]


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        proc.kill()


def run(
    argv: Sequence[str],
    *,
    cwd: str | os.PathLike[str],
    timeout: float,
    env: Mapping[str, str] | None = None,
    stdin: bytes | None = None,
    max_output: int = DEFAULT_MAX_OUTPUT,
    inherit_env: bool = True,
) -> ProcResult:
    """Run `argv` in `cwd` for at most `timeout` s. Its environment is ours updated with
    `env`, or exactly `env` when `inherit_env` is False."""
    # Builds a subprocess environment from ours (not a settings read).
    full_env = dict(os.environ) if inherit_env else {}
    if env:
        full_env.update(env)
    started = time.monotonic()
    try:
        proc = subprocess.Popen(
            list(argv),
            cwd=cwd,
            env=full_env,
            stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: a timeout kills the tree
        )
    except OSError as exc:
        return ProcResult(tuple(argv), None, "", time.monotonic() - started, error=str(exc))
    timed_out = False
    try:
        raw, _ = proc.communicate(input=stdin, timeout=timeout)
    except subprocess.TimeoutExpired:
        timed_out = True
        _kill_group(proc)
        try:
            raw, _ = proc.communicate(timeout=5)
        except subprocess.TimeoutExpired:  # a child kept the pipe open: give up on it
            raw = b""
    finally:
        if proc.poll() is None:
            _kill_group(proc)
            proc.wait()
    output = _tail(raw.decode("utf-8", errors="replace"), max_output)
    return ProcResult(
        tuple(argv),
        None if timed_out else proc.returncode,
        output,
        time.monotonic() - started,
        timed_out=timed_out,
    )
