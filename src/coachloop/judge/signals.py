"""Structured signals that decide before any reading of content.

A failed model call (StopFailure) or an empty final message is an error: delivered to
the human, never continued. These checks are exact, so their confidence is 1.0.
"""

from __future__ import annotations

from coachloop.core.judge_input import JudgeInput
from coachloop.core.verdict import Verdict

# Placeholders some agents print instead of a message when they produced none.
_EMPTY_PLACEHOLDERS = frozenset({"(no content)", "no content", "(empty)", "null", "none"})


def decide(item: JudgeInput) -> Verdict | None:
    """Return a signal verdict, or None when the content must be read."""
    if item.event == "StopFailure":
        what = f" ({item.error})" if item.error else ""
        return Verdict(
            type="error",
            confidence=1.0,
            reason=f"the model API call failed{what}; an error is never continued",
            source="signal",
        )
    stripped = item.text.strip()
    if not stripped or (len(stripped) <= 16 and stripped.lower() in _EMPTY_PLACEHOLDERS):
        return Verdict(
            type="error",
            confidence=1.0,
            reason="the agent stopped with an empty message",
            source="signal",
        )
    return None
