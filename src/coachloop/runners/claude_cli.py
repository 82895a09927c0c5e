"""The headless runner: one Claude Code turn in a project directory, as a subprocess.

    turn = run_turn("/path/to/project", "Fix the failing test", timeout=300)
    turn.session_id, turn.result, turn.cost_usd
    run_turn("/path/to/project", "Now add a changelog entry", resume=turn.session_id)

`ClaudeCode` runs `claude -p --input-format stream-json --output-format stream-json
--verbose [--resume ID]` and writes the prompt as one stream-json user message. Stdin
stays open until the `result` message has been read and `after_result` has returned: in
`-p` mode Claude Code runs some hooks (StopFailure) without waiting for them, and exits
when its input ends, which can cut them short. The hooks come from the project's
`.claude/settings.json` and from `settings` (a file or a mapping, passed as
`--settings`). `ClaudeAgentSDK` (`coachloop.runners.sdk`) is the same seam
through the Claude Agent SDK.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import signal
import subprocess
import threading
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import IO, Any, TypedDict, Unpack

from coachloop.runners.claude_env import ALLOWED_TOOLS, find_claude
from coachloop.runners.turn import (
    AfterResult,
    TurnCancelled,
    TurnError,
    TurnResult,
    TurnTimeoutError,
    read_line,
    session_of,
    user_message,
)

__all__ = [
    "DEFAULT_TIMEOUT",
    "ClaudeCode",
    "ClaudeOptions",
    "ClaudeRunnerBase",
    "default_tools",
    "run_turn",
]

DEFAULT_TIMEOUT = 600.0
EXIT_GRACE = 10.0  # how long the agent may take to exit once its input has ended
_STDERR_TAIL = 4000


def _pump(stream: IO[bytes], sink: queue.Queue[bytes | None]) -> None:
    try:
        for line in stream:
            sink.put(line)
    except (OSError, ValueError):
        pass
    finally:
        sink.put(None)


def _drain(stream: IO[bytes], chunks: list[bytes]) -> None:
    with contextlib.suppress(OSError, ValueError):
        for chunk in iter(lambda: stream.read(8192), b""):
            chunks.append(chunk)
            del chunks[:-8]  # keep only the tail


def _kill(proc: subprocess.Popen[bytes]) -> None:
    """End the agent and the hooks it started (it leads its own process group)."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)
    with contextlib.suppress(subprocess.TimeoutExpired):
        proc.wait(timeout=5)


def default_tools(settings: object) -> tuple[str, ...]:
    """The tools allowed by default: none beyond a settings mapping's own
    `permissions.allow` list when it has one, else `ALLOWED_TOOLS`."""
    if isinstance(settings, Mapping):
        permissions = settings.get("permissions")
        if isinstance(permissions, Mapping) and isinstance(permissions.get("allow"), list):
            return ()
    return ALLOWED_TOOLS


class ClaudeOptions(TypedDict, total=False):
    """The keyword arguments every Claude Code runner takes (see `ClaudeCode`)."""

    claude: Path | str | None
    settings: Path | str | Mapping[str, Any] | None
    env: Mapping[str, str] | None
    allowed_tools: Sequence[str] | None
    timeout: float


class ClaudeRunnerBase:
    """What the Claude Code runners (`ClaudeCode`, `ClaudeAgentSDK`) hold, from
    `ClaudeOptions`: `project` and `claude` as paths (`claude` None: `find_claude()` at
    each turn), `settings` as given, `env` copied (None: not given), `allowed_tools` as
    a tuple (`default_tools(settings)` when None), `timeout` (default `DEFAULT_TIMEOUT`).

    Contract: an argument outside `ClaudeOptions` raises `TypeError`, as for any function.
    """

    def __init__(self, project: Path | str, **options: Unpack[ClaudeOptions]) -> None:
        unknown = sorted(options.keys() - ClaudeOptions.__optional_keys__)
        if unknown:
            raise TypeError(
                f"{type(self).__name__}.__init__() got an unexpected keyword argument"
                f" {unknown[0]!r}"
            )
        claude = options.get("claude")
        settings = options.get("settings")
        env = options.get("env")
        allowed_tools = options.get("allowed_tools")
        self.project = Path(project)
        self.claude = Path(claude) if claude else None
        self.settings = settings
        self.env = dict(env) if env is not None else None
        self.allowed_tools = default_tools(settings) if allowed_tools is None else (*allowed_tools,)
        self.timeout = options.get("timeout", DEFAULT_TIMEOUT)


class ClaudeCode(ClaudeRunnerBase):
    """The Claude Code CLI run headless in `project` (an `Agent`).

    `claude` defaults to `find_claude()`; `env` to this process's environment;
    `settings` is a settings file or mapping handed over as `--settings` (None: only the
    project's and user's own settings files apply). `allowed_tools` run without a
    permission prompt (`--allowedTools`); None means `ALLOWED_TOOLS` (Bash, Edit, Write,
    Read) unless `settings` is a mapping with its own `permissions.allow` list, which
    then decides alone. `timeout` bounds a whole turn in seconds (`TurnTimeoutError`, also a
    `TimeoutError`, when exceeded); `extra_args` are added to the command line as they are.
    """

    def __init__(
        self,
        project: Path | str,
        *,
        extra_args: Sequence[str] = (),
        **options: Unpack[ClaudeOptions],
    ) -> None:
        super().__init__(project, **options)
        self.extra_args = tuple(extra_args)
        self._proc: subprocess.Popen[bytes] | None = None
        self._events: list[dict[str, Any]] = []
        self._cancelled = threading.Event()

    @property
    def session_id(self) -> str | None:
        """The session of the turn running now (once the agent announced it)."""
        return session_of(self._events) or None

    def cancel(self) -> bool:
        """End the running turn now (the agent and its hooks are killed); its `run_turn`
        raises `TurnCancelled`. False when no turn runs. Safe from any thread."""
        proc = self._proc
        if proc is None or proc.poll() is not None:
            return False
        self._cancelled.set()
        _kill(proc)
        return True

    def command(self, resume: str | None = None) -> list[str]:
        """The command line of one turn (the prompt goes to stdin)."""
        cmd = [str(self.claude or find_claude()), "-p"]
        cmd += ["--input-format", "stream-json", "--output-format", "stream-json", "--verbose"]
        if self.allowed_tools:
            cmd += ["--allowedTools", " ".join(self.allowed_tools)]
        if self.settings is not None:
            value = self.settings
            cmd += [
                "--settings",
                str(value) if isinstance(value, str | Path) else json.dumps(value),
            ]
        if resume:
            cmd += ["--resume", resume]
        return [*map(str, cmd), *self.extra_args]

    def run_turn(
        self, prompt: str, *, resume: str | None = None, after_result: AfterResult | None = None
    ) -> TurnResult:
        """Run one turn; see `Agent.run_turn`."""
        deadline = time.monotonic() + self.timeout
        cmd = self.command(resume)
        try:
            proc = subprocess.Popen(
                cmd,
                cwd=self.project,
                env=self.env,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                start_new_session=True,
            )
        except OSError as exc:  # no such binary or directory, not executable, ...
            raise TurnError(f"cannot start {cmd[0]} in {self.project}: {exc}") from exc
        assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
        self._proc, self._events = proc, []
        self._cancelled.clear()
        lines: queue.Queue[bytes | None] = queue.Queue()
        err: list[bytes] = []
        readers = [
            threading.Thread(target=_pump, args=(proc.stdout, lines), daemon=True),
            threading.Thread(target=_drain, args=(proc.stderr, err), daemon=True),
        ]
        for reader in readers:
            reader.start()
        events = self._events
        try:
            proc.stdin.write(json.dumps(user_message(prompt)).encode() + b"\n")
            proc.stdin.flush()
            turn = self._read(lines, events, deadline)
            if turn is not None and after_result is not None:
                after_result(turn)
        except (BrokenPipeError, TurnTimeoutError) as exc:
            _kill(proc)
            stderr = b"".join(err).decode(errors="replace")[-_STDERR_TAIL:]
            if isinstance(exc, TurnTimeoutError):
                raise TurnTimeoutError(
                    f"the turn took longer than {self.timeout:g} s",
                    session_id=session_of(events),
                    events=tuple(events),
                    stderr=stderr,
                ) from None
            turn = None
        finally:
            with contextlib.suppress(OSError):
                proc.stdin.close()
        try:
            proc.wait(timeout=max(0.1, min(EXIT_GRACE, deadline - time.monotonic())))
        except subprocess.TimeoutExpired:
            _kill(proc)
        for reader in readers:
            reader.join(timeout=1)
        if turn is None:
            stderr = b"".join(err).decode(errors="replace")[-_STDERR_TAIL:]
            if self._cancelled.is_set():
                raise TurnCancelled(
                    "the turn was cancelled", session_id=session_of(events), events=tuple(events)
                )
            raise TurnError(
                f"Claude Code exited with status {proc.returncode} without a result"
                + (f": {stderr.strip()}" if stderr.strip() else ""),
                session_id=session_of(events),
                events=tuple(events),
                stderr=stderr,
            )
        return turn

    @staticmethod
    def _read(
        lines: queue.Queue[bytes | None], events: list[dict[str, Any]], deadline: float
    ) -> TurnResult | None:
        """Read events up to the `result` message; None when the output ended first."""
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TurnTimeoutError("timeout")
            try:
                line = lines.get(timeout=remaining)
            except queue.Empty:
                raise TurnTimeoutError("timeout") from None
            if line is None:
                return None
            turn = read_line(line, events)
            if turn is not None:
                return turn


def run_turn(
    project_dir: Path | str,
    prompt: str,
    *,
    resume: str | None = None,
    settings: Path | str | Mapping[str, Any] | None = None,
    env: Mapping[str, str] | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    allowed_tools: Sequence[str] | None = None,
    claude: Path | str | None = None,
    after_result: AfterResult | None = None,
) -> TurnResult:
    """Run one Claude Code turn in `project_dir` (see `ClaudeCode`)."""
    agent = ClaudeCode(
        project_dir,
        claude=claude,
        settings=settings,
        env=env,
        timeout=timeout,
        allowed_tools=allowed_tools,
    )
    return agent.run_turn(prompt, resume=resume, after_result=after_result)
