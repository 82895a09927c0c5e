"""Coaches: given the requirements and the gathered evidence, answer a decision.

A coach's `decide(context)` returns a `CoachReply` whose `raw` answer the orchestrator
validates (`decision.parse_answer`) and enforces; a coach never writes decision files.
It raises `CoachError` when it has no answer at all (model unreachable, runner error).

- `RulesCoach`: offline, from the evidence alone: feedback naming every blocking
  finding (and "nothing changed"), else approval. It cannot judge requirements that
  the tests do not cover; an LLM or Claude Code coach can.
- `LLMCoach`: one structured call through the LLM judge's providers (`Model`), one
  retry carrying the validation error when the answer is invalid.
- `ClaudeCodeCoach`: Claude Code, read-only (reads files, git diff/status/log, the coach
  tools through `python -m coachloop.duel.tools`), answering JSON in its final message;
  one retry in the same session when invalid.
"""

from __future__ import annotations

import shlex
import sys
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from coachloop.duel.decision import DecisionError, answer_schema, parse_answer
from coachloop.duel.instructions import COACH_INSTRUCTIONS, coach_prompt, retry_prompt

if TYPE_CHECKING:
    from coachloop.duel.evidence import TurnEvidence
    from coachloop.judge.providers import Model

__all__ = [
    "ClaudeCodeCoach",
    "CoachContext",
    "CoachError",
    "CoachReply",
    "DuelCoach",
    "LLMCoach",
    "RulesCoach",
    "make_coach",
]


# Claude Code as coach may read and inspect, never write.
READ_ONLY = {"permissions": {"deny": ["Write", "Edit", "NotebookEdit", "MultiEdit"]}}


class CoachError(RuntimeError):
    """The coach gave no answer at all."""


@dataclass(frozen=True, slots=True)
class CoachContext:
    """What a coach decides on."""

    turn: int
    max_turns: int
    task_id: str
    project: Path
    requirements: str
    evidence: TurnEvidence
    tool_args: tuple[str, ...] = ()  # extra args for `python -m coachloop.duel.tools`


@dataclass(frozen=True, slots=True)
class CoachReply:
    """A coach's raw answer (validated by the orchestrator) and what it cost."""

    raw: str | dict[str, Any]
    tokens: int | None = None
    cost_usd: float | None = None
    attempts: int = 1
    tokens_estimated: bool = False


class DuelCoach(Protocol):
    @property
    def name(self) -> str: ...

    def decide(self, context: CoachContext) -> CoachReply: ...


class RulesCoach:
    """Decides from the evidence alone (offline, deterministic)."""

    name = "rules"

    def decide(self, context: CoachContext) -> CoachReply:
        evidence = context.evidence
        items = [b.model_dump(mode="json") for b in evidence.blockers()]
        if not evidence.changed_since_start:
            items.append(
                {
                    "severity": "critical",
                    "issue": "Nothing in the project has changed since the duel began",
                    "action": "Implement the requirements: change the code and add tests.",
                    "location": None,
                }
            )
        if items:
            rationale = f"{len(items)} blocking finding(s): " + "; ".join(
                str(i["issue"]) for i in items[:3]
            )
            raw = {
                "decision": "feedback",
                "rationale": rationale,
                "items": items,
                "severity": "critical",
            }
            return CoachReply(raw, tokens=0)
        t = evidence.tests
        counts = f"{t.passed} passed" if t.passed is not None else "passed"
        rationale = (
            f"The test suite passes ({counts}, `{t.command}`), "
            f"{len(evidence.changed_since_start)} file(s) changed, and the report matches "
            "the repository. (The rules coach checks evidence, not the requirements' meaning.)"
        )
        return CoachReply(
            {"decision": "approve", "rationale": rationale, "items": [], "severity": "minor"},
            tokens=0,
        )


def _estimate(*texts: str) -> int:
    return sum(max(1, len(t) // 4) for t in texts)


class LLMCoach:
    """A coach on one structured model call (see the module docstring)."""

    def __init__(self, model: Model, *, timeout: float = 120.0) -> None:
        self.model = model
        self.timeout = timeout

    @property
    def name(self) -> str:
        return self.model.name

    def decide(self, context: CoachContext) -> CoachReply:
        from coachloop.judge.providers import ModelError
        from coachloop.judge.providers.structured import ask

        prompt = coach_prompt(
            context.requirements, context.evidence, context.turn, context.max_turns
        )
        try:
            asked = ask(
                self.model,
                COACH_INSTRUCTIONS,
                prompt,
                answer_schema(),
                parse_answer,
                retry=retry_prompt,
                invalid=DecisionError,
                timeout=self.timeout,
            )
        except ModelError as exc:
            raise CoachError(f"{self.model.name}: {exc}") from exc
        spent = _estimate(COACH_INSTRUCTIONS, *(t.text for t in asked.turns), asked.raw)
        return CoachReply(asked.raw, tokens=spent, attempts=asked.attempts, tokens_estimated=True)


class ClaudeCodeCoach:
    """Claude Code as a read-only coach (see the module docstring)."""

    name = "claude-code"

    def __init__(self, *, timeout: float = 900.0, env: dict[str, str] | None = None) -> None:
        self.timeout = timeout
        self.env = env

    def allowed_tools(self, context: CoachContext) -> tuple[str, ...]:
        tools_cmd = f"{shlex.quote(sys.executable)} -m coachloop.duel.tools"
        return (
            "Read",
            "Grep",
            "Glob",
            "Bash(git diff:*)",
            "Bash(git status:*)",
            "Bash(git log:*)",
            "Bash(git show:*)",
            f"Bash({tools_cmd}:*)",
        )

    def decide(self, context: CoachContext) -> CoachReply:
        from coachloop.duel.claude import run_claude

        args = " ".join(shlex.quote(a) for a in context.tool_args)
        tools_cmd = f"{shlex.quote(sys.executable)} -m coachloop.duel.tools"
        prompt = (
            COACH_INSTRUCTIONS + "\nYou may only read. Run the coach tools as shell commands: "
            f"`{tools_cmd} run_all_tests {args}`, `... run_specific_tests TEST...`, "
            "`... check_coverage [SOURCE]`, `... diff_changes`, "
            "`... validate_json_schema FILE [report|decision]`.\n\n"
            + coach_prompt(context.requirements, context.evidence, context.turn, context.max_turns)
        )
        tools = self.allowed_tools(context)
        first = run_claude(
            context.project, prompt, tools, env=self.env, timeout=self.timeout, settings=READ_ONLY
        )
        if first.is_error or first.timed_out:
            raise CoachError(f"Claude Code coach failed: {first.text[:300]}")
        raw, attempts, last = first.text, 1, first
        try:
            parse_answer(raw)
        except DecisionError as exc:
            last = run_claude(
                context.project,
                retry_prompt(str(exc)),
                tools,
                env=self.env,
                timeout=self.timeout,
                resume=first.session_id,
                settings=READ_ONLY,
            )
            raw, attempts = last.text, 2
        cost = sum(r.cost_usd or 0.0 for r in {id(first): first, id(last): last}.values())
        tokens = sum(r.tokens or 0 for r in {id(first): first, id(last): last}.values())
        return CoachReply(raw, tokens=tokens or None, cost_usd=cost or None, attempts=attempts)


def make_coach(spec: str, project: Path | None = None, *, timeout: float = 120.0) -> DuelCoach:
    """The coach for `spec`: rules | claude-code | anthropic[:MODEL] | openai[:MODEL].

    Raises `CoachError` when the model cannot be used (no key, SDK missing).
    """
    spec = spec.strip()
    if spec == "rules":
        return RulesCoach()
    if spec == "claude-code":
        return ClaudeCodeCoach()
    from coachloop.config import load_settings
    from coachloop.judge.providers import ModelUnavailableError, make_model, parse_judge_spec

    provider, model = parse_judge_spec(spec)
    if provider not in ("anthropic", "openai"):
        raise CoachError(
            f"unknown coach {spec!r} (rules, claude-code, anthropic:MODEL, openai:MODEL)"
        )
    base = load_settings(project)
    settings = replace(base, judge=provider, model=model or base.model)
    try:
        return LLMCoach(make_model(settings), timeout=timeout)
    except ModelUnavailableError as exc:
        raise CoachError(str(exc)) from exc
