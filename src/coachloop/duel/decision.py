"""Coach decisions: validation of a coach's answer, and the fail-closed enforcement.

- `CoachAnswer` is what any coach must answer: `decision` (approve | feedback), a
  `rationale`, specific actionable `items` (each: severity, issue, action, location)
  and an overall `severity`. It is self-consistent or invalid: an approval cannot
  carry a critical item or critical severity; feedback lists at least one item; the
  severity is at least the worst item's. `parse_answer` validates untrusted output (a
  JSON text, fenced or inside prose, or a decoded object) and raises `DecisionError`
  with a message fit to show the coach on a retry.
- `enforce` is where approval is decided in code: an approval meets the evidence's
  blocking findings (failed, absent or timed-out tests; a report that contradicts the
  repository) and becomes feedback naming them. The result is a `CoachDecision`, the only
  thing ever written to decision.json (by the orchestrator).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    ValidationError,
    model_validator,
)

from coachloop.duel import schemas

__all__ = [
    "CoachAnswer",
    "CoachDecision",
    "DecisionError",
    "FeedbackItem",
    "answer_schema",
    "enforce",
    "invalid_answer",
    "parse_answer",
    "worst",
]

Severity = Literal["minor", "major", "critical"]
Text = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1)]
RANK: dict[str, int] = {"minor": 0, "major": 1, "critical": 2}


def worst(severities: Sequence[str]) -> Severity:
    """The highest of `severities` (minor when empty)."""
    best: Severity = "minor"
    for severity in severities:
        if RANK.get(severity, 0) > RANK[best]:
            best = "critical" if severity == "critical" else "major"
    return best


class FeedbackItem(BaseModel):
    """One specific, actionable piece of feedback."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    severity: Severity
    issue: Text = Field(description="What is wrong, naming the file, test or requirement.")
    action: Text = Field(description="How to fix it.")
    location: str | None = Field(default=None, description="file[:line] or test id.")


class CoachAnswer(BaseModel):
    """A coach's answer for one turn (see the module docstring for its invariants)."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    decision: Literal["approve", "feedback"]
    rationale: Text
    items: tuple[FeedbackItem, ...] = ()
    severity: Severity | None = None  # None: the worst item's

    @model_validator(mode="after")
    def _consistent(self) -> CoachAnswer:
        worst_item = worst([i.severity for i in self.items])
        if self.severity is None:
            object.__setattr__(self, "severity", worst_item)
        elif RANK[self.severity] < RANK[worst_item]:
            raise ValueError(
                f"severity {self.severity!r} is below the worst item's ({worst_item!r})"
            )
        if self.decision == "approve" and self.severity == "critical":
            raise ValueError("an approval cannot have a critical issue: answer feedback instead")
        if self.decision == "feedback" and not self.items:
            raise ValueError("feedback must list at least one specific, actionable item")
        return self

    @property
    def level(self) -> Severity:
        return self.severity or "minor"


class CoachDecision(CoachAnswer):
    """The validated, enforced decision written to coordination/coach/turn_N/decision.json."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    task_id: Text
    turn: int = Field(ge=1)
    coach: str
    coach_decision: Literal["approve", "feedback"] | None
    overrides: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The decision.json document (fits `schemas.load("decision")`)."""
        data = self.model_dump(mode="json")
        data["severity"] = self.level
        return data


class DecisionError(ValueError):
    """A coach answer that is not a valid decision; `str()` explains it for a retry."""


def _decode(raw: str) -> Any:
    from coachloop.judge.providers.structured import find_object

    if not raw.strip():
        raise DecisionError("the answer is empty: no decision")
    found = find_object(raw, "decision")
    if found is None:
        raise DecisionError("the answer holds no JSON object with a decision")
    return found


def parse_answer(raw: str | Mapping[str, Any]) -> CoachAnswer:
    """The validated answer in `raw`; raises `DecisionError` saying what is wrong."""
    value = dict(raw) if isinstance(raw, Mapping) else _decode(raw)
    if "decision" not in value:
        raise DecisionError("the answer has no 'decision' field (approve or feedback)")
    try:
        return CoachAnswer.model_validate(value)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc']) or 'answer'}: {e['msg']}" for e in exc.errors()
        )
        raise DecisionError(f"invalid decision: {problems}") from exc


def answer_schema() -> dict[str, Any]:
    """The JSON Schema a coach's answer must fit (from the shipped decision schema)."""
    full = schemas.load("decision")
    names = ("decision", "rationale", "items", "severity")
    return {
        "type": "object",
        "description": "The coach's decision on the player's turn.",
        "properties": {n: full["properties"][n] for n in names},
        "required": list(names),
        "additionalProperties": False,
    }


def _merge(first: Sequence[FeedbackItem], then: Sequence[FeedbackItem]) -> tuple[FeedbackItem, ...]:
    seen: set[str] = set()
    out: list[FeedbackItem] = []
    for item in (*first, *then):
        if item.issue not in seen:
            seen.add(item.issue)
            out.append(item)
    return tuple(out)


def enforce(
    answer: CoachAnswer,
    blockers: Sequence[FeedbackItem],
    *,
    task_id: str,
    turn: int,
    coach: str,
) -> CoachDecision:
    """The decision to record: `answer`, unless it approves despite `blockers`.

    `blockers` are the evidence's blocking findings (see `TurnEvidence.blockers`). An
    approval with any of them becomes feedback listing them first, severity critical,
    each recorded in `overrides`. Feedback is kept as the coach gave it.
    """
    if answer.decision == "approve" and blockers:
        reasons = tuple(b.issue for b in blockers)
        return CoachDecision(
            decision="feedback",
            rationale=(
                "The coach approved, but the evidence blocks approval: "
                + "; ".join(reasons)
                + f". (Coach's rationale: {answer.rationale})"
            ),
            items=_merge(blockers, answer.items),
            severity="critical",
            task_id=task_id,
            turn=turn,
            coach=coach,
            coach_decision="approve",
            overrides=reasons,
        )
    return CoachDecision(
        decision=answer.decision,
        rationale=answer.rationale,
        items=answer.items,
        severity=answer.level,
        task_id=task_id,
        turn=turn,
        coach=coach,
        coach_decision=answer.decision,
    )


def invalid_answer(error: str, *, task_id: str, turn: int, coach: str) -> CoachDecision:
    """The decision recorded when the coach gave no valid answer: feedback, never approval."""
    return CoachDecision(
        decision="feedback",
        rationale=f"The coach gave no valid decision ({error}); nothing is approved.",
        items=(
            FeedbackItem(
                severity="critical",
                issue=f"The coach's answer was not a valid decision: {error}",
                action="Rerun the duel; if it repeats, check the coach's model and settings.",
            ),
        ),
        severity="critical",
        task_id=task_id,
        turn=turn,
        coach=coach,
        coach_decision=None,
        overrides=(f"invalid coach answer: {error}",),
    )
