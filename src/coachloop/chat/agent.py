"""The seam between the bridge and the agent it resumes: one headless turn.

`Agent.run_turn(project_dir, prompt, resume)` runs one turn of the agent in
`project_dir` (resuming session `resume`, or starting a new session when None) and
returns when the turn is over, with at least the session id. The turn's stops are judged
by the agent's hooks like any other; the bridge only starts turns.

`RunnerAgent` adapts `coachloop.agents.runner.run_turn` (the headless runner); tests pass
any object with the same method.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol


class TurnOutcome(Protocol):
    """What the bridge reads from a finished turn."""

    @property
    def session_id(self) -> str: ...

    @property
    def is_error(self) -> bool: ...


class Agent(Protocol):
    """Runs one agent turn; blocking (the bridge calls it in a worker thread)."""

    def run_turn(self, project_dir: Path, prompt: str, resume: str | None) -> TurnOutcome: ...


@dataclass(frozen=True, slots=True)
class Outcome:
    """A plain `TurnOutcome`."""

    session_id: str
    is_error: bool = False
    result: str = ""


@dataclass(frozen=True, slots=True)
class RunnerAgent:
    """The headless runner (`coachloop.agents.runner.run_turn`), with extra keyword
    arguments passed through (e.g. the agent binary or a timeout)."""

    options: tuple[tuple[str, Any], ...] = ()

    def run_turn(self, project_dir: Path, prompt: str, resume: str | None) -> TurnOutcome:
        import importlib

        runner: Any = importlib.import_module("coachloop.agents.runner")
        result: TurnOutcome = runner.run_turn(
            project_dir, prompt, resume=resume, **dict(self.options)
        )
        return result
