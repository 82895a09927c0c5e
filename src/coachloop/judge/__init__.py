"""Judging an agent's stop: signals, evidence, then rules or one LLM call.

Public entry points: `make_judge(settings)` builds the configured judge pipeline;
`judge_text(text, ...)` judges one message with the offline rules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from coachloop.core.judge_input import JudgeInput
from coachloop.core.verdict import Verdict
from coachloop.judge.base import Judge

if TYPE_CHECKING:
    from coachloop.config import Settings

__all__ = ["Judge", "judge_text", "make_judge"]


def make_judge(settings: Settings | None = None) -> Judge:
    """The judge pipeline for `settings`: the offline rules unless an LLM is configured.

    An LLM judge always keeps the rules judge as its fallback (no key, timeout, API
    error, invalid output twice).
    """
    from coachloop.coach import Coach
    from coachloop.config import Settings
    from coachloop.judge.pipeline import Pipeline
    from coachloop.judge.rules import RulesJudge

    settings = settings or Settings()
    rules = RulesJudge(skills=settings.skills)
    content: Judge = rules
    if settings.judge != "rules":
        from coachloop.judge.llm import build_llm_judge

        content = build_llm_judge(settings, fallback=rules)
    return Pipeline(content, Coach(settings.skills))


def judge_text(text: str, **context: object) -> Verdict:
    """Judge one message offline; `context` takes the `JudgeInput` fields."""
    return make_judge().judge(JudgeInput(text=text, **context))  # type: ignore[arg-type]
