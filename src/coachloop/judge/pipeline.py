"""The judgement pipeline: signals, then content (rules or LLM), grounding, coaching."""

from __future__ import annotations

from dataclasses import replace

from coachloop.coach import Coach
from coachloop.core.judge_input import JudgeInput
from coachloop.core.verdict import Verdict
from coachloop.judge import grounding, signals
from coachloop.judge.base import Judge


class Pipeline:
    """A `Judge` that applies the signal checks first and the coach last.

    `content` reads the text (the offline rules or the LLM judge); it gets the turn's
    prompt from the record when the stop carries none. `grounding` then checks its
    verdict against the turn's record (`coachloop.judge.grounding`), when the input
    carries one. For a "continue" verdict the coach writes the final coaching message,
    preferring the judge's own coaching when it wrote one; delivered verdicts carry none.
    """

    def __init__(self, content: Judge, coach: Coach | None = None) -> None:
        self.content = content
        self.coach = coach or Coach()

    def judge(self, item: JudgeInput) -> Verdict:
        verdict = signals.decide(item)
        if verdict is None:
            item = grounding.prepare(item)
            verdict = grounding.ground(self.content.judge(item), item)
        if verdict.route == "continue":
            return replace(verdict, coaching_message=self.coach.build(verdict, item))
        return verdict
