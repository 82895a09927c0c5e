"""What a store holds besides session states: event records and outbox entries.

Both are frozen dataclasses with a JSON round trip. Records are built with `id=0` and
the backend assigns the id when the transaction commits; ids grow with commit order.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any, Literal, get_args

from coachloop.core.session import SessionState
from coachloop.core.text import clip as clip_text

if TYPE_CHECKING:
    from coachloop.core.verdict import Verdict

RecordKind = Literal["stop", "human", "alert", "status", "correction"]
OutboxKind = Literal["deliver", "notice", "alert"]
RECORD_KINDS: tuple[RecordKind, ...] = get_args(RecordKind)
MAX_STORED_TEXT = 50_000


def verdict_dict(verdict: Verdict) -> dict[str, Any]:
    """The verdict as a JSON-ready dict, like `Verdict.to_dict` but several times faster
    (it runs at every stop): empty evidence and problems are left out."""
    out: dict[str, Any] = {
        "type": verdict.type,
        "confidence": verdict.confidence,
        "reason": verdict.reason,
        "source": verdict.source,
        "route": verdict.route,
        "coaching_message": verdict.coaching_message,
        "rejected_completion": verdict.rejected_completion,
    }
    if verdict.problems:
        out["problems"] = [
            {"kind": p.kind, "detail": p.detail, "quote": p.quote} for p in verdict.problems
        ]
    if not verdict.evidence.is_empty():
        out["evidence"] = asdict(verdict.evidence)
    return out


def clip(text: str, limit: int = MAX_STORED_TEXT) -> str:
    """`text` as stored: head and tail within `limit` (`coachloop.core.text.clip`), so a
    long message keeps its closing evidence in the timeline."""
    return clip_text(text, limit)


@dataclass(frozen=True, slots=True)
class EventRecord:
    """One step of a session's timeline.

    kind "stop": an agent stop with its `verdict` (the Verdict as a dict), the `decision`
    ("continue" | "deliver" | "drop"), `why`, and `message` (the coaching sent back, or
    the text delivered). kind "human": a human message (`source` "prompt" | "chat").
    kind "alert": a watchdog alert. kind "status": a status change made outside a stop
    (e.g. a stale session marked abandoned). kind "correction": the human overrode the
    verdict of a stop (`supervisor.feedback`): `text` the agent's message, `verdict` the
    verdict corrected, `decision` the right route, `message` the label as JSON. `ts` is
    when it happened (the event's own
    timestamp); `recorded_at` when the store committed it.
    """

    id: int
    session_id: str
    kind: RecordKind
    ts: float
    recorded_at: float
    text: str = ""
    job_id: str | None = None
    source: str = ""
    verdict: dict[str, Any] | None = None
    decision: str | None = None
    why: str = ""
    message: str = ""
    notices: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        out = {n: getattr(self, n) for n in self.__dataclass_fields__}
        out["notices"] = list(self.notices)
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> EventRecord:
        known = {k: v for k, v in data.items() if k in cls.__dataclass_fields__}
        known["notices"] = tuple(known.get("notices") or ())
        return cls(**known)

    @property
    def verdict_type(self) -> str | None:
        return None if self.verdict is None else str(self.verdict.get("type"))


COMPACT = json.JSONEncoder(separators=(",", ":"))  # built once: no spaces, ASCII as before
# The record's fields its events row keeps in columns of their own (the same INSERT writes
# both): its stored JSON leaves them out (migration 0015). Readers select them after the
# JSON (`EVENT_SQL`) and hand them to `event_data`.
EVENT_COLUMNS = ("session_id", "kind", "ts", "recorded_at", "job_id", "source", "decision", "why")
EVENT_SQL = "data, " + ", ".join(EVENT_COLUMNS)  # a select list: the JSON, then the columns
_ORDER = tuple(n for n in EventRecord.__dataclass_fields__ if n != "id")  # `to_dict`'s order
_DEFAULTS: dict[str, Any] = {"text": "", "verdict": None, "message": ""}
# "more" stands for "message" in a stored record whose message is its text and a tail:
# no stored record of an older version has that key.
_MORE = "more"


def event_json(ev: EventRecord) -> str:
    """`ev` as a SQLite store keeps it (`events.data`), beside its columns
    (`EVENT_COLUMNS`, not repeated here): its text, verdict, message and notices as
    compact JSON, each left out when empty; a message that repeats the text (a delivery:
    the agent's text, maybe a note after it) keeps only what follows the text, as "more".
    `event_data` reverses it."""
    data: dict[str, Any] = {}
    text, message = ev.text, ev.message
    if text:
        data["text"] = text
    if ev.verdict is not None:
        data["verdict"] = ev.verdict
    if text and message.startswith(text):
        data[_MORE] = message[len(text) :]
    elif message:
        data["message"] = message
    if ev.notices:
        data["notices"] = list(ev.notices)
    return COMPACT.encode(data)


def event_data(text: str | bytes, columns: Sequence[Any] | None = None) -> dict[str, Any]:
    """The record dict, as `EventRecord.to_dict` gives it without the id, from what a
    store keeps: `event_json`'s JSON with the row's `columns` (`EVENT_COLUMNS`, in that
    order), or the JSON an older version stored (every field, any spacing; the columns
    are not needed then). ValueError for a row of this version read without them."""
    data: dict[str, Any] = json.loads(text)
    if "kind" in data:  # every field in the JSON: an older version's row (0012 or before)
        if _MORE not in data or "message" in data:
            return data
        more = data[_MORE]
        whole = f"{data.get('text') or ''}{more}"
        return {
            ("message" if k == _MORE else k): (whole if k == _MORE else v) for k, v in data.items()
        }
    if columns is None:
        raise ValueError("a record stored beside its columns is read with them")
    data.update(zip(EVENT_COLUMNS, columns, strict=True))
    if _MORE in data:
        data["message"] = f"{data.get('text') or ''}{data[_MORE]}"
    data["notices"] = data.get("notices") or []
    return {k: data.get(k, _DEFAULTS.get(k)) for k in _ORDER}


@dataclass(frozen=True, slots=True)
class OutboxEntry:
    """A message waiting for (or already given to) the human's chat.

    A chat bridge reads `Store.outbox_pending()` and calls `Store.mark_sent(id)` only once
    the chat service accepted the message, so a crash in between re-sends rather than loses.
    """

    id: int
    session_id: str
    event_id: int
    kind: OutboxKind
    text: str
    created_at: float
    sent_at: float | None = None

    def to_dict(self) -> dict[str, Any]:
        return {n: getattr(self, n) for n in self.__dataclass_fields__}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> OutboxEntry:
        return cls(**{k: v for k, v in data.items() if k in cls.__dataclass_fields__})


@dataclass(frozen=True, slots=True)
class Write:
    """Everything one transaction writes for one session: its next state, new timeline
    records and new outbox messages (kind, text). Outbox entries link to the first record."""

    state: SessionState
    events: tuple[EventRecord, ...] = ()
    outbox: tuple[tuple[OutboxKind, str], ...] = field(default_factory=tuple)
    life: Life | None = None  # the lifecycle record of the first event, committed with it


@dataclass(frozen=True, slots=True)
class Life:
    """A lifecycle record as the store keeps it: its label and a packed, redacted body
    (`coachloop.snapshot_pack.pack`); `event_id` and `saved_at` are set when it is
    stored. `state`: the session's state JSON kept with it; a stop's record asks for the
    state its own transaction commits with `COMMITTED_STATE` (no second serialization);
    its text, verdict and decision are the stop's timeline record (`snapshot_pack.whole`)."""

    label: str
    body: bytes
    saved_at: float = 0.0
    event_id: int = 0
    session_id: str = ""
    state: str | None = None


COMMITTED_STATE = ""  # `Life.state`: the state the same transaction writes


@dataclass(frozen=True, slots=True)
class JobSummary:
    """One job of a session, as its timeline shows it. `status` is the duplicate gate's
    view when the job is still in the session's ledger ("open", "continued", "closed"),
    else "done" when a completion was delivered for it and "seen" otherwise."""

    job_id: str
    status: str
    stops: int
    continues: int
    delivered: int
    dropped: int
    first_ts: float
    last_ts: float


def job_summaries(state: SessionState, timeline: list[EventRecord]) -> list[JobSummary]:
    """The jobs of a session, in order of first appearance, built from its timeline."""
    acc: dict[str, dict[str, Any]] = {}
    for rec in timeline:
        if rec.kind != "stop" or rec.job_id is None:
            continue
        job = acc.setdefault(
            rec.job_id,
            {"stops": 0, "continue": 0, "deliver": 0, "drop": 0, "first": rec.ts, "done": False},
        )
        job["stops"] += 1
        job[rec.decision or "drop"] += 1
        job["last"] = rec.ts
        job["done"] |= rec.decision == "deliver" and rec.verdict_type == "completion"
    out = []
    for job_id, job in acc.items():
        mark = state.job(job_id)
        status = mark.status if mark else ("done" if job["done"] else "seen")
        out.append(
            JobSummary(
                job_id,
                status,
                job["stops"],
                job["continue"],
                job["deliver"],
                job["drop"],
                job["first"],
                job["last"],
            )
        )
    return out
