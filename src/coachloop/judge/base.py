"""The judge seam."""

from __future__ import annotations

from typing import Protocol

from coachloop.core.judge_input import JudgeInput
from coachloop.core.verdict import Verdict


class Judge(Protocol):
    """Decides what a stop is. Implementations never raise on any input text."""

    def judge(self, item: JudgeInput) -> Verdict: ...
