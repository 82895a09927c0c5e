"""The supervisor: continue, deliver or drop every stop, within caps that make loops impossible.

`decide` (pure) holds the rules; `Supervisor` runs it inside one store transaction per
event and writes snapshots. Nothing here imports pydantic, click or rich: it runs on the
Stop hook's path.
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
from coachloop.supervisor.state import (
    Context,
    Decision,
    JobMark,
    SessionState,
    continue_with,
    deliver,
    digest,
    drop,
)

__all__ = [
    "CLAUDE_CODE_BLOCK_CAP",
    "Context",
    "Decision",
    "JobMark",
    "Policy",
    "SessionState",
    "Supervisor",
    "context_for",
    "continue_with",
    "decide",
    "deliver",
    "digest",
    "drop",
    "lifecycle",
    "on_human",
]
