"""coachloop: supervise autonomous coding agents at every stop.

The public API is deliberately small; everything else is an implementation module.
"""

from __future__ import annotations

from coachloop.judge import (
    Evidence,
    Judge,
    JudgeInput,
    Problem,
    TestSummary,
    Verdict,
    judge_text,
    make_judge,
)

__all__ = [
    "Evidence",
    "Judge",
    "JudgeInput",
    "Problem",
    "TestSummary",
    "Verdict",
    "judge_text",
    "make_judge",
]
__version__ = "0.1.0"
