"""Players: whatever changes the project in a turn. A fresh one every turn.

A player gets the turn number, the task id, the requirements file, the last decision
(absent on turn 1) and where to write its report. `CommandPlayer` runs any program in
the project with these in its environment:

    COACHLOOP_TURN          the turn number (1, 2, ...)
    COACHLOOP_TASK_ID       the duel's task id (goes in the report)
    COACHLOOP_REQUIREMENTS  path of the requirements document
    COACHLOOP_FEEDBACK      path of the last decision.json (unset on turn 1)
    COACHLOOP_REPORT        where to write report.json
    COACHLOOP_REPORT_SCHEMA path of report.schema.json

`ClaudeCodePlayer` gives the same inputs to a new Claude Code session (headless
runner) in its prompt. `play` never raises for the player's behaviour; a player that
cannot be started at all raises `PlayerUnavailable`.
"""

from __future__ import annotations

import json
import os
import shlex
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Protocol

from coachloop.duel import proc

__all__ = [
    "ClaudeCodePlayer",
    "CommandPlayer",
    "Player",
    "PlayerRun",
    "PlayerUnavailable",
    "TurnInput",
    "feedback_text",
]

_PLAYER_VARS = (
    "COACHLOOP_TURN",
    "COACHLOOP_TASK_ID",
    "COACHLOOP_REQUIREMENTS",
    "COACHLOOP_FEEDBACK",
    "COACHLOOP_REPORT",
    "COACHLOOP_REPORT_SCHEMA",
)


class PlayerUnavailable(RuntimeError):  # noqa: N818 - reads as a sentence
    """The player cannot be started (program not found, runner missing)."""


@dataclass(frozen=True, slots=True)
class TurnInput:
    """What a player gets for one turn."""

    turn: int
    task_id: str
    project: Path
    requirements: Path
    report_path: Path
    feedback_path: Path | None = None


@dataclass(frozen=True, slots=True)
class PlayerRun:
    """How a player's turn went (not what it achieved: that is the evidence)."""

    exit_code: int | None
    duration_s: float
    timed_out: bool = False
    error: str | None = None
    output_tail: str = ""
    tokens: int | None = None
    cost_usd: float | None = None
    session_id: str | None = None


class Player(Protocol):
    """Changes the project for one turn."""

    @property
    def name(self) -> str: ...

    def play(self, turn: TurnInput) -> PlayerRun: ...


def report_schema_path() -> str:
    """The shipped report schema's path (a real file in any normal installation)."""
    return str(resources.files("coachloop.duel.schemas").joinpath("report.schema.json"))


def feedback_text(decision_path: Path | None) -> str | None:
    """The last decision as plain text for a prompt (None when there is none)."""
    if decision_path is None:
        return None
    try:
        data: dict[str, Any] = json.loads(decision_path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    lines = [
        f"Decision: {data.get('decision')} ({data.get('severity')})",
        f"Rationale: {data.get('rationale')}",
    ]
    for number, item in enumerate(data.get("items") or [], start=1):
        where = f" [{item.get('location')}]" if item.get("location") else ""
        lines.append(
            f"{number}. ({item.get('severity')}) {item.get('issue')}{where}\n"
            f"   Fix: {item.get('action')}"
        )
    return "\n".join(lines)


class CommandPlayer:
    """Any program as the player (see the module docstring for its environment)."""

    def __init__(self, command: str | Sequence[str], *, timeout: float = 1800.0) -> None:
        self.argv = tuple(shlex.split(command) if isinstance(command, str) else command)
        if not self.argv:
            raise PlayerUnavailable("the player command is empty")
        self.timeout = timeout

    @property
    def name(self) -> str:
        return "command: " + " ".join(self.argv)

    def environment(self, turn: TurnInput) -> dict[str, str]:
        """This process's environment with the player's variables for `turn`."""
        # Builds the player's subprocess environment from ours (not a settings read).
        env = {k: v for k, v in os.environ.items() if k not in _PLAYER_VARS}
        env.update(
            COACHLOOP_TURN=str(turn.turn),
            COACHLOOP_TASK_ID=turn.task_id,
            COACHLOOP_REQUIREMENTS=str(turn.requirements),
            COACHLOOP_REPORT=str(turn.report_path),
            COACHLOOP_REPORT_SCHEMA=report_schema_path(),
        )
        if turn.feedback_path is not None:
            env["COACHLOOP_FEEDBACK"] = str(turn.feedback_path)
        return env

    def play(self, turn: TurnInput) -> PlayerRun:
        done = proc.run(
            self.argv,
            cwd=turn.project,
            timeout=self.timeout,
            env=self.environment(turn),
            inherit_env=False,
        )
        if done.error is not None:
            raise PlayerUnavailable(f"cannot start the player {self.argv[0]!r}: {done.error}")
        return PlayerRun(
            exit_code=done.exit_code,
            duration_s=done.duration_s,
            timed_out=done.timed_out,
            output_tail=done.output[-4000:],
        )


class ClaudeCodePlayer:
    """Claude Code as the player: a new headless session each turn.

    `env` is the agent's environment (e.g. `offline_env(...)` for a local model);
    `allowed_tools` what it may use without asking.
    """

    def __init__(
        self,
        *,
        timeout: float = 1800.0,
        env: Mapping[str, str] | None = None,
        allowed_tools: Sequence[str] = ("Bash", "Edit", "Write", "Read"),
    ) -> None:
        self.timeout = timeout
        self.env = dict(env) if env is not None else None
        self.allowed_tools = tuple(allowed_tools)

    @property
    def name(self) -> str:
        return "claude-code"

    def play(self, turn: TurnInput) -> PlayerRun:
        from coachloop.duel.claude import run_claude
        from coachloop.duel.instructions import player_prompt

        requirements = turn.requirements.read_text(encoding="utf-8", errors="replace")
        prompt = player_prompt(
            requirements,
            feedback_text(turn.feedback_path),
            turn=turn.turn,
            task_id=turn.task_id,
            report_path=str(turn.report_path),
        )
        started = time.monotonic()
        result = run_claude(
            turn.project, prompt, self.allowed_tools, env=self.env, timeout=self.timeout
        )
        failed = result.is_error and not result.timed_out
        return PlayerRun(
            exit_code=1 if result.is_error else 0,
            duration_s=time.monotonic() - started,
            timed_out=result.timed_out,
            error=f"Claude Code turn failed: {result.text[:300]}" if failed else None,
            output_tail=(result.text or "")[-4000:],
            tokens=result.tokens,
            cost_usd=result.cost_usd,
            session_id=result.session_id,
        )
