"""One Claude Code turn for the duel, through the headless runner (`coachloop.runners.claude_cli`).

`run_claude(project, prompt, allowed_tools, ...)` starts a new session (or resumes
`resume`) in `project`, allowing exactly `allowed_tools` without a permission prompt,
and returns its final text, session id, cost and tokens. A runner failure becomes
`is_error` (a timeout also sets `timed_out`); a missing Claude Code binary raises
`PlayerUnavailable`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from coachloop.duel.players import PlayerUnavailable

__all__ = ["ClaudeRun", "run_claude"]


@dataclass(frozen=True, slots=True)
class ClaudeRun:
    """The outcome of one headless Claude Code turn (`text`: its final message, or why
    there is none)."""

    text: str
    session_id: str | None
    is_error: bool
    cost_usd: float | None = None
    tokens: int | None = None
    timed_out: bool = False


def run_claude(
    project: Path,
    prompt: str,
    allowed_tools: Sequence[str],
    *,
    env: Mapping[str, str] | None = None,
    timeout: float = 1800.0,
    resume: str | None = None,
    settings: Mapping[str, Any] | None = None,
) -> ClaudeRun:
    """Run one turn (see the module docstring)."""
    from coachloop.runners.claude_cli import run_turn
    from coachloop.runners.claude_env import ClaudeNotFound
    from coachloop.runners.turn import TurnError, TurnTimeoutError

    try:
        result = run_turn(
            project,
            prompt,
            resume=resume,
            settings=settings,
            env=env,
            timeout=timeout,
            allowed_tools=tuple(allowed_tools),
        )
    except ClaudeNotFound as exc:
        raise PlayerUnavailable(str(exc)) from exc
    except TurnTimeoutError as exc:
        return ClaudeRun(str(exc), exc.session_id or resume, True, timed_out=True)
    except TurnError as exc:
        return ClaudeRun(str(exc), exc.session_id or resume, True)
    return ClaudeRun(
        text=result.result,
        session_id=result.session_id or None,
        is_error=result.is_error,
        cost_usd=result.cost_usd,
        tokens=result.tokens,
    )
