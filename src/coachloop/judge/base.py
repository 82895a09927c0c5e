"""The judge seam."""

from __future__ import annotations

from typing import Protocol

from coachloop.judge.input import JudgeInput
from coachloop.judge.verdict import Verdict


class Judge(Protocol):
    """Decides what a stop is. Implementations never raise on any input text."""

    def judge(self, item: JudgeInput) -> Verdict: ...
