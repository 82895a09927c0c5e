"""coachloop: supervise autonomous coding agents at every stop.

The public API is deliberately small; everything else is an implementation module.
Names are resolved lazily so that `import coachloop` (done by every entry point,
including the Stop hook) costs nothing until a name is used.
"""

from __future__ import annotations

TYPE_CHECKING = False  # not typing.TYPE_CHECKING: importing typing costs ~10 ms per hook
if TYPE_CHECKING:
    from coachloop.core.judge_input import JudgeInput
    from coachloop.core.verdict import Evidence, Problem, TestSummary, Verdict
    from coachloop.judge import Judge, judge_text, make_judge

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


_HOMES = {
    "Evidence": "coachloop.core.verdict",
    "Problem": "coachloop.core.verdict",
    "TestSummary": "coachloop.core.verdict",
    "Verdict": "coachloop.core.verdict",
    "JudgeInput": "coachloop.core.judge_input",
    "Judge": "coachloop.judge",
    "judge_text": "coachloop.judge",
    "make_judge": "coachloop.judge",
}


def __getattr__(name: str) -> object:
    if name in _HOMES:
        import importlib

        return getattr(importlib.import_module(_HOMES[name]), name)
    raise AttributeError(f"module 'coachloop' has no attribute {name!r}")
