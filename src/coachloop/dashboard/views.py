"""What the dashboard shows, as plain data: rows of the sessions list, items of a timeline,
counts of judgements.

`data.py` builds these from the store with every text already redacted; the templates only
format and escape them. Standard library only.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

# The statuses a person reads: the store's, with "capped" split off "waiting" (delivered
# because the auto-continue cap was reached) and "running" called "working".
DISPLAY_STATUSES = ("working", "waiting", "capped", "done", "failed", "abandoned")
STATUS_LABELS = {
    "working": "working",
    "waiting": "waiting for you",
    "capped": "capped",
    "done": "done",
    "failed": "failed",
    "abandoned": "abandoned",
}
# The supervisor's `why` for a delivery forced by the cap (supervisor/policy.py).
CAP_WHY = "auto-continue cap reached"
OUTCOMES = ("delivered", "sent back", "capped", "dropped")
HEAD_CHARS = 700
TAIL_CHARS = 300
MAX_FILTER_CHARS = 500


def display_status(status: str, last_why: str | None) -> str:
    """The status shown for a stored `status` and the `why` of the session's last stop."""
    if status == "running":
        return "working"
    if status == "waiting" and (last_why or "").startswith(CAP_WHY):
        return "capped"
    return status


def outcome(decision: str | None, why: str) -> str:
    """What a stop's decision meant for the human: delivered, sent back, capped, dropped."""
    if decision == "continue":
        return "sent back"
    if decision == "deliver":
        return "capped" if why.startswith(CAP_WHY) else "delivered"
    return "dropped"


@dataclass(frozen=True, slots=True)
class Filters:
    """The sessions list's filters; empty strings mean "any"."""

    project: str = ""
    agent: str = ""
    status: str = ""

    @classmethod
    def from_query(cls, query: Mapping[str, list[str]]) -> Filters:
        """Filters from a parsed query string; an unknown status is ignored."""

        def one(name: str) -> str:
            values = query.get(name) or [""]
            return values[0].strip()[:MAX_FILTER_CHARS]

        status = one("status")
        return cls(one("project"), one("agent"), status if status in DISPLAY_STATUSES else "")

    def query(self, **extra: Any) -> str:
        """The query string for these filters (and `extra`), without empty values."""
        pairs = {"project": self.project, "agent": self.agent, "status": self.status, **extra}
        return urlencode({k: v for k, v in pairs.items() if v not in ("", None)})

    def any(self) -> bool:
        return bool(self.project or self.agent or self.status)


@dataclass(frozen=True, slots=True)
class Folded:
    """A text shown folded: `head`, then `hidden` characters left out, then `tail`."""

    head: str
    tail: str = ""
    hidden: int = 0

    @property
    def folded(self) -> bool:
        return self.hidden > 0


def fold(text: str, head: int = HEAD_CHARS, tail: int = TAIL_CHARS) -> Folded:
    """`text` cut to its first `head` and last `tail` characters when it is longer."""
    text = text.strip()
    if len(text) <= head + tail + 80:  # folding must hide more than it costs to say so
        return Folded(text)
    return Folded(text[:head], text[-tail:], len(text) - head - tail)


@dataclass(frozen=True, slots=True)
class SessionRow:
    """One line of the sessions list."""

    session_id: str
    agent: str
    project: str
    status: str
    continues: int
    cap: int
    stops: int
    verdict_type: str | None
    outcome: str | None
    reason: str
    created_at: float
    updated_at: float
    flags: tuple[str, ...] = ()

    @property
    def status_label(self) -> str:
        return STATUS_LABELS.get(self.status, self.status)


@dataclass(frozen=True, slots=True)
class SessionsPage:
    """A page of the sessions list, newest activity first."""

    rows: list[SessionRow]
    total: int
    offset: int
    limit: int
    filters: Filters
    newest_id: int
    projects: list[str] = field(default_factory=list)
    agents: list[str] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class VerdictView:
    """A stop's verdict as shown: evidence as (label, value) pairs, problems as triples."""

    type: str
    route: str
    confidence: float
    reason: str
    source: str
    rejected_completion: bool
    evidence: tuple[tuple[str, str], ...] = ()
    problems: tuple[tuple[str, str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class Delivery:
    """An outbox message written for a timeline record; `sent_at` None: not yet accepted."""

    kind: str
    sent_at: float | None


@dataclass(frozen=True, slots=True)
class TimelineItem:
    """One record of a session's timeline (a stop, a human message, an alert, a status)."""

    id: int
    session_id: str
    kind: str
    ts: float
    text: Folded
    message: Folded
    job_id: str | None = None
    source: str = ""
    verdict: VerdictView | None = None
    decision: str | None = None
    outcome: str | None = None
    why: str = ""
    notices: tuple[str, ...] = ()
    deliveries: tuple[Delivery, ...] = ()

    @property
    def outcome_class(self) -> str:
        """The outcome as a CSS class name ("sent back" -> "sent-back")."""
        return (self.outcome or "").replace(" ", "-")


@dataclass(frozen=True, slots=True)
class SessionHeader:
    """The top of a session's page."""

    row: SessionRow
    cwd: str
    prompt: str
    skill: str
    plan_file: str
    last_error: str
    snapshots: list[str] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class TimelinePage:
    """A page of one session's timeline, newest first; `older` is the cursor of the next."""

    header: SessionHeader
    items: list[TimelineItem]
    older: int | None
    newest_id: int


@dataclass(frozen=True, slots=True)
class Tally:
    """Stops per outcome for one day or one agent."""

    label: str
    delivered: int = 0
    sent_back: int = 0
    capped: int = 0
    dropped: int = 0

    @property
    def total(self) -> int:
        return self.delivered + self.sent_back + self.capped + self.dropped


@dataclass(frozen=True, slots=True)
class Counts:
    """Judgement at a glance over the last `days` days: per day (oldest first), per agent."""

    days: int
    per_day: list[Tally]
    per_agent: list[Tally]


def tally(label: str, by_outcome: Mapping[str, int]) -> Tally:
    """A `Tally` from outcome -> count."""
    return Tally(
        label,
        by_outcome.get("delivered", 0),
        by_outcome.get("sent back", 0),
        by_outcome.get("capped", 0),
        by_outcome.get("dropped", 0),
    )
