"""The judgement pipeline: signals, then content (rules or LLM), then coaching."""

from __future__ import annotations

from dataclasses import replace

from coachloop.coach import Coach
from coachloop.core.judge_input import JudgeInput
from coachloop.core.verdict import Verdict
from coachloop.judge import signals
from coachloop.judge.base import Judge


class Pipeline:
    """A `Judge` that applies the signal checks first and the coach last.

    `content` reads the text (the offline rules or the LLM judge). For a "continue"
    verdict the coach writes the final coaching message, preferring the content
    judge's own coaching when it wrote one; delivered verdicts carry none.
    """

    def __init__(self, content: Judge, coach: Coach | None = None) -> None:
        self.content = content
        self.coach = coach or Coach()

    def judge(self, item: JudgeInput) -> Verdict:
        verdict = signals.decide(item) or self.content.judge(item)
        if verdict.route == "continue":
            return replace(verdict, coaching_message=self.coach.build(verdict, item))
        return verdict
