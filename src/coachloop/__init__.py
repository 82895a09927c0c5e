"""coachloop: supervise autonomous coding agents at every stop.

The public API is deliberately small; everything else is an implementation module.
Names are resolved lazily so that `import coachloop` (done by every entry point,
including the Stop hook) costs nothing until a name is used.
"""

from __future__ import annotations

TYPE_CHECKING = False  # not typing.TYPE_CHECKING: importing typing costs ~10 ms per hook
if TYPE_CHECKING:
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


def __getattr__(name: str) -> object:
    if name in __all__:
        from coachloop import judge

        return getattr(judge, name)
    raise AttributeError(f"module 'coachloop' has no attribute {name!r}")
