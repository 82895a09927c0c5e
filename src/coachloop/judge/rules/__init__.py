"""The offline rules judge (placeholder while the rules are written)."""

from __future__ import annotations

from coachloop.judge.input import JudgeInput
from coachloop.judge.verdict import Verdict, route_for


class RulesJudge:
    """Offline judge: no network, no key."""

    def __init__(self, skills: object = ()) -> None:
        self.skills = skills

    def judge(self, item: JudgeInput) -> Verdict:
        kind = "question" if item.text.rstrip().endswith("?") else "status"
        return Verdict(
            type=kind, route=route_for(kind), confidence=0.5, reason="placeholder", source="rules"
        )
