"""The offline judge: no network, no key, sub-millisecond.

Rules read the message (`classify`), sure deliveries are kept, and a small learned
score over named signals decides the rest, delivering whenever it is unsure
(`route`). The score's weights ship as data (`weights.json`).
"""

from __future__ import annotations

from collections.abc import Iterable

from coachloop.coach.skills import all_skills, detect_skill
from coachloop.config import SkillSpec
from coachloop.core.judge_input import JudgeInput
from coachloop.core.verdict import Verdict, route_for
from coachloop.judge.rules.classify import classify
from coachloop.judge.rules.features import Features
from coachloop.judge.rules.route import route
from coachloop.judge.rules.scorer import Scorer, default_scorer
from coachloop.judge.rules.text import Message

__all__ = ["RulesJudge"]


class RulesJudge:
    """Judges a stop from its text and context alone; never raises on any text."""

    def __init__(self, skills: Iterable[SkillSpec] = (), scorer: Scorer | None = None) -> None:
        self.skills = all_skills(skills)
        self.scorer = scorer or default_scorer()

    def judge(self, item: JudgeInput) -> Verdict:
        features = Features(Message(item.text))
        skill = detect_skill(
            explicit=item.skill,
            texts=(item.text, item.prompt),
            phase=item.phase,
            skills=self.skills,
        )
        outcome = route(features, item, classify(features, item.prompt, skill), self.scorer)
        return Verdict(
            type=outcome.type,
            route=route_for(outcome.type),
            confidence=outcome.confidence,
            reason=outcome.reason,
            source="rules",
            rejected_completion=outcome.rejected,
            evidence=features.msg_evidence,
            problems=tuple(outcome.problems),
        )
