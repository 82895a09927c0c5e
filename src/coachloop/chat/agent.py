"""The seam between the bridge and the agent it resumes: one headless turn.

`ChatAgent.run_turn(project_dir, prompt, resume, supervisor)` runs one turn of the agent in
`project_dir` (resuming session `resume`, or starting a new session when None) and
returns when the turn is over, with at least the session id. The turn's stops are judged
by the agent's hooks like any other; the bridge only starts turns. `supervisor` is the
bridge's own supervisor of the store the session lives in: an agent that records or
reads anything uses it rather than opening that store a second time in this process:
opening a SQLite store checks the file's header through a file handle of its own, and
closing that handle drops the POSIX locks of every other connection to the file in the
process, so another process may then checkpoint and delete the WAL under them.

`RunnerAgent` is the real one: Claude Code through the headless runner, judged through
the supervisor; tests may pass any object with the same method.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from coachloop.runners.claude_cli import ClaudeCode
    from coachloop.supervisor import Supervisor


class TurnOutcome(Protocol):
    """What the bridge reads from a finished turn."""

    @property
    def session_id(self) -> str: ...

    @property
    def is_error(self) -> bool: ...


class ChatAgent(Protocol):
    """Runs one agent turn; blocking (the bridge calls it in a worker thread). An agent
    may also offer `cancel(session_id) -> bool` (ends that session's running turn)."""

    def run_turn(
        self, project_dir: Path, prompt: str, resume: str | None, supervisor: Supervisor
    ) -> TurnOutcome: ...


MAX_RUNNER_CONTINUES = 8


@dataclass(frozen=True, slots=True)
class Outcome:
    """A plain `TurnOutcome`."""

    session_id: str
    is_error: bool = False
    result: str = ""


@dataclass(frozen=True, slots=True)
class RunnerAgent:
    """Claude Code run headless in the session's directory (`coachloop.runners.claude_cli`),
    its final result judged through the supervisor (`SupervisedRunner`): when our Stop
    hook ran inside the agent (installed in the project, or passed as `settings`) its
    decision is adopted, otherwise the runner judges and decides the result itself, so
    every turn's final stop is judged exactly once.

    `settings` are extra Claude Code settings (e.g. `hook_settings()` when the project has
    no hooks installed), `env` its environment (default: the bridge's), `timeout` the
    limit of one turn in seconds. The human's message is recorded by the bridge before a
    resume; for a new session the runner records the prompt unless our hook did. When no
    hook ran and the runner decides "continue", the session is resumed with the coaching
    (the policy's cap ends that; `MAX_RUNNER_CONTINUES` bounds it regardless). Messages
    the human queued during the turn that no hook handed to the agent (see
    `coachloop.supervisor.steering`) resume the session once the turn ends.
    """

    settings: Path | str | Mapping[str, Any] | None = None
    env: Mapping[str, str] | None = None
    timeout: float = 600.0
    _live: dict[int, tuple[ClaudeCode, str | None]] = field(
        default_factory=dict, compare=False, repr=False
    )
    _lock: threading.Lock = field(default_factory=threading.Lock, compare=False, repr=False)

    def cancel(self, session_id: str) -> bool:
        """End the running turn of `session_id` (its Claude Code process is killed);
        False when none of this agent's turns runs for it."""
        with self._lock:
            live = list(self._live.values())
        hits = [a for a, resumed in live if session_id in (resumed, a.session_id)]
        return any([a.cancel() for a in hits])

    def run_turn(
        self, project_dir: Path, prompt: str, resume: str | None, supervisor: Supervisor
    ) -> TurnOutcome:
        from coachloop.runners.claude_cli import ClaudeCode

        agent = ClaudeCode(project_dir, settings=self.settings, env=self.env, timeout=self.timeout)
        with self._lock:
            self._live[id(agent)] = (agent, resume)
        try:
            return self._turns(agent, project_dir, prompt, resume, supervisor)
        finally:
            with self._lock:
                self._live.pop(id(agent), None)

    def _turns(
        self,
        agent: ClaudeCode,
        project_dir: Path,
        prompt: str,
        resume: str | None,
        supervisor: Supervisor,
    ) -> TurnOutcome:
        from coachloop.runners.supervised import SupervisedRunner

        runner = SupervisedRunner(agent, project_dir, supervisor=supervisor)
        judged = runner.run(prompt, resume=resume, human=resume is None)
        for _ in range(MAX_RUNNER_CONTINUES):
            session = judged.turn.session_id
            # Messages the human queued while the turn ran, that no hook handed over
            # (no hook inside the agent, or they came after its last stop): next turn.
            taken = supervisor.steer_mid_turn(session, "after the turn ended") if session else None
            if taken is not None and taken.text:
                judged = runner.run(taken.text, resume=session, human=False)
                continue
            if judged.by != "runner" or judged.decision.kind != "continue":
                break
            # No hook inside the agent: the runner's "continue" is ours to carry out.
            judged = runner.run(judged.decision.text, resume=session, human=False)
        return judged.turn
