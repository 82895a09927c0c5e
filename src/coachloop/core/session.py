"""The supervisor's data: a session's state, and the decision taken at a stop.

Everything here is a frozen dataclass with a lossless JSON round trip (`to_dict` /
`from_dict`), so each store backend persists a session as one JSON document and the
decision function stays pure. `from_dict` tolerates missing keys (defaults apply), so a
state written by an older version still loads.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass, field
from operator import attrgetter
from typing import TYPE_CHECKING, Any, Literal, get_args

# `evolve` is imported from `dataclasses` for the type checker: listing it re-exports it.
__all__ = [
    "DECISION_KINDS",
    "MAX_JOBS",
    "SESSION_STATUSES",
    "Context",
    "Decision",
    "DecisionKind",
    "JobMark",
    "JobStatus",
    "SessionState",
    "SessionStatus",
    "Steer",
    "continue_with",
    "deliver",
    "digest",
    "drop",
    "evolve",
    "sparse",
    "unsparse",
    "when",
]

SessionStatus = Literal["running", "waiting", "done", "failed", "abandoned"]
JobStatus = Literal["open", "continued", "closed"]
DecisionKind = Literal["continue", "deliver", "drop"]

SESSION_STATUSES: tuple[SessionStatus, ...] = get_args(SessionStatus)
DECISION_KINDS: tuple[DecisionKind, ...] = get_args(DecisionKind)
MAX_JOBS = 16  # the ledger keeps the most recent jobs only; duplicates follow closely


def when(ts: float | None) -> str:
    """`ts` as a UTC time for messages ("?" when unknown)."""
    return "?" if ts is None else time.strftime("%Y-%m-%d %H:%M:%SZ", time.gmtime(ts))


def digest(text: str) -> str:
    """A short fingerprint of `text` with whitespace normalised (for repeat detection)."""
    norm = " ".join(text.split())
    return hashlib.blake2b(norm.encode("utf-8", "replace"), digest_size=12).hexdigest()


@dataclass(frozen=True, slots=True)
class Context:
    """The turn's context handed to the judge: the human's prompt and the workflow."""

    prompt: str | None = None
    skill: str | None = None
    phase: str | None = None
    plan_file: str | None = None


@dataclass(frozen=True, slots=True)
class JobMark:
    """What the duplicate gate knows of one job.

    "open": a stop is expected. "continued": the supervisor continued the job, so only the
    agent's reply to that continuation may come next. "closed": its completion was
    delivered; every later stop of the job is a duplicate. `delivered` is the fingerprint
    of the job's last delivered output (an identical re-send is a duplicate).
    """

    job_id: str
    status: JobStatus = "open"
    delivered: str | None = None


@dataclass(frozen=True, slots=True)
class Steer:
    """A human message queued for a session whose turn is running (the steering queue).

    `key` identifies the message where it came from (a chat's message id, a random id
    for `coachloop say`): the same key is never queued twice, so a chat update handled
    again after a bridge restart is not injected twice. `source` says where it came from
    ("chat", "say", "reaction"); `at` when it was queued (epoch seconds).
    """

    key: str
    text: str
    source: str = "chat"
    at: float = 0.0


@dataclass(frozen=True, slots=True)
class SessionState:
    """Everything the supervisor remembers of one session.

    `continues` counts auto-continues since the last human message. `error_run` counts
    consecutive error stops; `error_since`/`last_error` describe the run. `flags` are the
    watchdog conditions raised and not yet cleared. Times are epoch seconds.
    `steering` holds the human messages queued while a turn runs (handed to the agent
    at its next tool call or stop); `steered` the keys of the last messages queued
    (a re-sent message is recognised); `stop_requested` the note of a pending `/stop`;
    `outcome` the human's verdict on the session's work ("done" or "rejected").
    """

    session_id: str
    agent: str = ""
    project: str = ""
    cwd: str = ""
    status: SessionStatus = "running"
    continues: int = 0
    context: Context = field(default_factory=Context)
    jobs: tuple[JobMark, ...] = ()
    last_continued: str | None = None
    error_run: int = 0
    error_since: float | None = None
    last_error: str | None = None
    last_verdict: str | None = None
    last_decision: str | None = None
    stops: int = 0
    created_at: float = 0.0
    updated_at: float = 0.0
    run_started_at: float = 0.0
    last_human_at: float | None = None
    tool_signature: str | None = None
    tool_repeats: int = 0
    flags: tuple[str, ...] = ()
    steering: tuple[Steer, ...] = ()
    steered: tuple[str, ...] = ()
    stop_requested: str | None = None
    outcome: str | None = None
    last_stop_id: str | None = None  # the last recorded stop's `StopEvent.stop_id`
    last_reply: str | None = None  # what that stop's hook answered: coaching, or None

    @classmethod
    def new(
        cls, session_id: str, now: float, *, agent: str = "", project: str = "", cwd: str = ""
    ) -> SessionState:
        """A fresh running session first seen at `now`."""
        return cls(
            session_id=session_id,
            agent=agent,
            project=project,
            cwd=cwd,
            created_at=now,
            updated_at=now,
            run_started_at=now,
        )

    def job(self, job_id: str) -> JobMark | None:
        """The ledger entry of `job_id`, if the job is known."""
        for mark in self.jobs:
            if mark.job_id == job_id:
                return mark
        return None

    def ledger(self, mark: JobMark) -> tuple[JobMark, ...]:
        """The job ledger with `mark` replacing (or added as) its most recent entry."""
        return (*(m for m in self.jobs if m.job_id != mark.job_id), mark)[-MAX_JOBS:]

    def with_job(self, mark: JobMark) -> SessionState:
        """The state with `mark` as the most recent job entry."""
        return evolve(self, jobs=self.ledger(mark))

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (tuples become lists)."""
        out: dict[str, Any] = dict(zip(_FIELDS, _VALUES(self), strict=True))
        out["context"] = {n: getattr(self.context, n) for n in Context.__dataclass_fields__}
        out["jobs"] = [[m.job_id, m.status, m.delivered] for m in self.jobs]
        out["flags"] = list(self.flags)
        out["steering"] = [[q.key, q.text, q.source, q.at] for q in self.steering]
        out["steered"] = list(self.steered)
        return out

    def sparse_dict(self) -> dict[str, Any]:
        """`sparse(self.to_dict())` (what a store keeps, at every stop) in a third of the
        time: straight from the fields, only those off their defaults converted."""
        out: dict[str, Any] = {"session_id": self.session_id}
        for name, value, default in zip(_FIELDS, _VALUES(self), _DEFAULT_VALUES, strict=True):
            if value != default or type(value) is not type(default):
                out[name] = value
        if "context" in out:
            out["context"] = {n: getattr(self.context, n) for n in Context.__dataclass_fields__}
        if "jobs" in out:
            out["jobs"] = [[m.job_id, m.status, m.delivered] for m in self.jobs]
        if "flags" in out:
            out["flags"] = list(self.flags)
        if "steering" in out:
            out["steering"] = [[q.key, q.text, q.source, q.at] for q in self.steering]
        if "steered" in out:
            out["steered"] = list(self.steered)
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SessionState:
        """Rebuild a state from `to_dict` output; unknown keys are ignored."""
        known = {k: v for k, v in data.items() if k in cls.__dataclass_fields__}
        ctx = known.get("context") or {}
        known["context"] = Context(
            **{k: v for k, v in ctx.items() if k in Context.__dataclass_fields__}
        )
        known["jobs"] = tuple(JobMark(str(j[0]), j[1], j[2]) for j in known.get("jobs") or ())
        known["flags"] = tuple(known.get("flags") or ())
        known["steering"] = tuple(
            Steer(str(q[0]), str(q[1]), str(q[2]), float(q[3])) for q in known.get("steering") or ()
        )
        known["steered"] = tuple(str(k) for k in known.get("steered") or ())
        return cls(**known)


_FIELDS: tuple[str, ...] = tuple(SessionState.__dataclass_fields__)
_VALUES = attrgetter(*_FIELDS)  # every field's value, in order, in one call
# The slots' own setters: a frozen dataclass forbids `setattr`, not its descriptors.
_PUT_BY_NAME: dict[str, Any] = {n: SessionState.__dict__[n].__set__ for n in _FIELDS}
_PUT = tuple(_PUT_BY_NAME.values())

if TYPE_CHECKING:
    # The type checker sees `dataclasses.replace`, whose calls mypy's dataclasses plugin
    # checks: a field named wrong, or a value of the wrong type, is an error.
    from dataclasses import replace as evolve
else:

    def evolve(state: SessionState, /, **changes: Any) -> SessionState:
        """`dataclasses.replace(state, **changes)` for a `SessionState`, in less than half
        the time (the policy copies a state several times at every stop): the fields are
        copied slot by slot, without `__init__` (there is no `__post_init__` to run). An
        unknown field raises TypeError, as `replace` does; so does another class."""
        if state.__class__ is not SessionState:
            raise TypeError(f"evolve takes a SessionState, not {type(state).__name__}")
        new = object.__new__(SessionState)
        for put, value in zip(_PUT, _VALUES(state), strict=True):
            put(new, value)
        for name, value in changes.items():
            put = _PUT_BY_NAME.get(name)
            if put is None:
                raise TypeError(f"SessionState has no field {name!r}")
            put(new, value)
        return new


_DEFAULTS: dict[str, Any] = SessionState("").to_dict()  # a new state's dict
_DEFAULT_VALUES = _VALUES(SessionState(""))
_ABSENT = object()


def sparse(state: dict[str, Any]) -> dict[str, Any]:
    """A state's dict (`to_dict`) with only its session id and the fields that do not
    hold their defaults (a value of another type is kept: `0` is not `0.0`), as a store
    keeps it (a third of the JSON). `from_dict` reads it as it is; `unsparse` gives the
    whole dict again."""
    out = {"session_id": state.get("session_id", "")}  # never left out (the default "")
    for key, value in state.items():
        default = _DEFAULTS.get(key, _ABSENT)
        if value != default or type(value) is not type(default):
            out[key] = value
    return out


def unsparse(data: dict[str, Any], session_id: str = "") -> dict[str, Any]:
    """The whole state dict (`to_dict`'s keys, in its order) of a `sparse` one, or of a
    whole one a store kept before (as it was); `session_id` when `data` has none."""
    return {**SessionState(str(data.get("session_id", session_id))).to_dict(), **data}


@dataclass(frozen=True, slots=True)
class Decision:
    """What happens after a stop.

    - "continue": send `text` (the coaching) back to the agent as its next instruction.
    - "deliver": hand `text` to the human (chat outbox) and let the agent stop.
    - "drop": nothing is sent; the agent stops. `text` is empty.
    `why` is always a plain sentence for the event log. `notices` are extra deliveries
    written to the outbox alongside (e.g. the summary of an error run that just ended).
    """

    kind: DecisionKind
    text: str
    why: str
    notices: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.kind not in DECISION_KINDS:
            raise ValueError(f"unknown decision kind {self.kind!r}")
        if self.kind == "drop" and self.text:
            raise ValueError("a dropped stop carries no text")
        if self.kind == "continue" and not self.text.strip():
            raise ValueError("a continuation needs a message")

    @property
    def blocks(self) -> bool:
        """True when the agent is sent back to work (a hook replies "block")."""
        return self.kind == "continue"

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "text": self.text,
            "why": self.why,
            "notices": list(self.notices),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Decision:
        return cls(
            data["kind"],
            data.get("text", ""),
            data.get("why", ""),
            tuple(data.get("notices") or ()),
        )


def continue_with(coaching: str, why: str) -> Decision:
    """Send the agent back to work with `coaching`."""
    return Decision("continue", coaching, why)


def deliver(message: str, why: str, notices: tuple[str, ...] = ()) -> Decision:
    """Hand `message` to the human."""
    return Decision("deliver", message, why, notices)


def drop(why: str, notices: tuple[str, ...] = ()) -> Decision:
    """Send nothing; record `why`."""
    return Decision("drop", "", why, notices)
