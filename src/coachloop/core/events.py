"""What the supervisor is told: an agent stopped (`StopEvent`) or a human spoke (`HumanMessage`).

One shape for every agent. Hook adapters (Claude Code, Codex, Gemini, the SDK runner)
normalise their payloads into these frozen standard-library dataclasses. They are not
pydantic models on purpose: the Stop hook builds one at every agent stop and must start
fast, so this module imports nothing beyond the standard library.

Invariants, checked in `__post_init__` whichever way an event is built:
- `session_id` is a non-empty string. State is keyed by it, and there is never a fallback
  to a shared key (peers broke when one session's loop hijacked another's).
- `kind` is a known stop kind; `source` a known human-message source.
- `timestamp` is seconds since the epoch (UTC), defaulting to the time of creation.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Literal, get_args

from coachloop.core.agents import AGENTS, LABELS

StopKind = Literal["Stop", "SubagentStop", "StopFailure"]
HumanSource = Literal["prompt", "chat"]

STOP_KINDS: tuple[StopKind, ...] = get_args(StopKind)
HUMAN_SOURCES: tuple[HumanSource, ...] = get_args(HumanSource)
KNOWN_AGENTS: tuple[str, ...] = tuple(a.name for a in AGENTS)
AGENT_LABELS = LABELS


def _require_session(session_id: object) -> None:
    if not isinstance(session_id, str) or not session_id.strip():
        raise ValueError("session_id must be a non-empty string (no shared fallback key)")


@dataclass(frozen=True, slots=True)
class StopEvent:
    """One stop of an agent, whatever the agent.

    `text` is the agent's final message of the turn. `job_id` names the unit of work the
    stop belongs to (Claude Code's `prompt_id`, a queue job id); a continuation keeps its
    job. `stop_hook_active` is True when this stop is the agent's reply to a continuation
    (a Stop-hook block or an auto-continue message): the supervisor's duplicate gate
    accepts exactly such a stop for a job it continued and drops any other. `kind`
    "StopFailure" means the model call failed; `error` then names the failure.
    `skill`, `phase` and `plan_file` are context the adapter found for this stop; absent
    ones are filled from the session's stored context. `can_block` is False when the
    agent cannot be sent back from this stop (Codex `notify`): the policy then delivers
    what it would have continued, with the coaching attached.
    """

    session_id: str
    text: str = ""
    agent: str = "claude-code"
    project: str = ""
    cwd: str = ""
    kind: StopKind = "Stop"
    job_id: str | None = None
    error: str | None = None
    transcript_path: str | None = None
    skill: str | None = None
    phase: str | None = None
    plan_file: str | None = None
    stop_hook_active: bool = False
    can_block: bool = True
    timestamp: float = field(default_factory=time.time)
    stop_id: str | None = None  # the hook call's identity: a retry of it has the same one

    def __post_init__(self) -> None:
        _require_session(self.session_id)
        if self.kind not in STOP_KINDS:
            raise ValueError(f"unknown stop kind {self.kind!r}")
        if not isinstance(self.text, str):
            raise ValueError("text must be a string")
        if self.job_id is not None and not self.job_id:
            raise ValueError("job_id must be None or a non-empty string")

    @property
    def failed(self) -> bool:
        """True when the stop is a failure signal (StopFailure or an error was reported)."""
        return self.kind == "StopFailure" or bool(self.error)

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready dict of every field."""
        return {name: getattr(self, name) for name in self.__dataclass_fields__}


@dataclass(frozen=True, slots=True)
class HumanMessage:
    """A message from the human to a session: a submitted prompt or a chat reply.

    It resets the session's auto-continue count and replaces the stored prompt. `skill`,
    `phase` and `plan_file` replace the stored ones when given and leave them alone when
    None, so a short chat reply ("yes, go on") keeps the workflow context of the run.
    `project` and `agent` are used only when the message opens a new session.
    """

    session_id: str
    text: str
    source: HumanSource = "prompt"
    skill: str | None = None
    phase: str | None = None
    plan_file: str | None = None
    project: str = ""
    agent: str = "claude-code"
    timestamp: float = field(default_factory=time.time)

    def __post_init__(self) -> None:
        _require_session(self.session_id)
        if self.source not in HUMAN_SOURCES:
            raise ValueError(f"unknown human message source {self.source!r}")
        if not isinstance(self.text, str):
            raise ValueError("text must be a string")

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready dict of every field."""
        return {name: getattr(self, name) for name in self.__dataclass_fields__}
