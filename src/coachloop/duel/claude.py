"""One Claude Code turn for the duel, through the headless runner (`coachloop.agents.runner`).

`run_claude(project, prompt, allowed_tools, ...)` starts a new session (or resumes
`resume`) in `project`, allowing exactly `allowed_tools` without a permission prompt,
and returns its final text, session id, cost and tokens. A runner failure becomes
`is_error`; a missing runner or binary raises `PlayerUnavailable`.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from coachloop.duel.players import PlayerUnavailable

__all__ = ["ClaudeRun", "run_claude"]


@dataclass(frozen=True, slots=True)
class ClaudeRun:
    """The outcome of one headless Claude Code turn."""

    text: str
    session_id: str | None
    is_error: bool
    cost_usd: float | None = None
    tokens: int | None = None
    timed_out: bool = False


def _runner() -> Any:
    try:
        return importlib.import_module("coachloop.agents.runner")
    except ImportError as exc:
        raise PlayerUnavailable(f"the headless Claude Code runner is unavailable: {exc}") from exc


def run_claude(
    project: Path,
    prompt: str,
    allowed_tools: Sequence[str],
    *,
    env: Mapping[str, str] | None = None,
    timeout: float = 1800.0,
    resume: str | None = None,
) -> ClaudeRun:
    """Run one turn (see the module docstring)."""
    runner = _runner()
    settings = {"permissions": {"allow": list(allowed_tools)}}
    try:
        result = runner.run_turn(
            project,
            prompt,
            resume=resume,
            settings=settings,
            env=dict(env) if env is not None else None,
            timeout=timeout,
        )
    except TimeoutError as exc:
        return ClaudeRun(str(exc), resume, True, timed_out=True)
    return ClaudeRun(
        text=str(getattr(result, "result", "") or ""),
        session_id=getattr(result, "session_id", None),
        is_error=bool(getattr(result, "is_error", False)),
        cost_usd=getattr(result, "cost_usd", None),
        tokens=getattr(result, "tokens", None),
    )
