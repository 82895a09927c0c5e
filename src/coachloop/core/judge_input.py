"""What the judge is given: the agent's final text plus the context of its turn."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from coachloop.core.record import TurnRecord

EventKind = Literal["Stop", "SubagentStop", "StopFailure"]
EVENT_KINDS: tuple[EventKind, ...] = ("Stop", "SubagentStop", "StopFailure")


@dataclass(frozen=True, slots=True)
class JudgeInput:
    """One agent stop to judge.

    `prompt` is the human's message that started the turn (an answer to a question
    needs no test evidence). `skill` is an explicit workflow skill such as "/do-build";
    `phase` a workflow phase ("build"); `plan_file` the plan document of the work.
    `event` is the hook event; "StopFailure" means the model API call failed and
    `error` then names the failure when known. `record` is what the agent did in the
    turn (its tool calls, test runs, commits), read from its transcript or stream when
    available; the judge checks the message's claims against it.
    """

    text: str
    prompt: str | None = None
    skill: str | None = None
    phase: str | None = None
    plan_file: str | None = None
    event: EventKind = "Stop"
    error: str | None = None
    record: TurnRecord | None = None
