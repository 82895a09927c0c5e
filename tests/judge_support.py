"""How the rule tests read a stop: the offline judge's (type, route) for a text and prompt."""

from __future__ import annotations

from coachloop.core.judge_input import JudgeInput
from coachloop.judge import make_judge

JUDGE = make_judge()


def reads(text: str, prompt: str = "handle the migration") -> tuple[str, str]:
    """(type, route) the offline judge gives `text` after `prompt`."""
    verdict = JUDGE.judge(JudgeInput(text=text, prompt=prompt))
    return verdict.type, verdict.route
