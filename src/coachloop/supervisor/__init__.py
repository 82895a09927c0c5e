"""The supervisor: continue, deliver or drop every stop, within caps that make loops impossible.

`decide` (pure) holds the rules; `Supervisor`, the one door to session state, runs it
inside one store transaction per event (`writes`) and writes snapshots; `watchdog`
flags quiet, long or looping sessions through it. Nothing here imports pydantic, click
or rich: it runs on the Stop hook's path.
"""

from __future__ import annotations

from coachloop.supervisor.policy import (
    CLAUDE_CODE_BLOCK_CAP,
    Policy,
    context_for,
    decide,
    on_human,
)
from coachloop.supervisor.service import Supervisor, lifecycle
from coachloop.supervisor.writes import StopResult

__all__ = [
    "CLAUDE_CODE_BLOCK_CAP",
    "Policy",
    "StopResult",
    "Supervisor",
    "context_for",
    "decide",
    "lifecycle",
    "on_human",
]
