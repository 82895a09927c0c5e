"""The human's verdict on delivered work, and the corrections it makes to the judge's.

- `accept` (👍, `/done`): the session's job is done: its jobs closed, status "done",
  `SessionState.outcome` "done", one "status" record saying who closed it.
- `rejection` (👎, `/reject`): the text that steers the session back to work, quoting
  the delivered message briefly ("The human does not accept this: …").
- `correct`: a labelled example kept in the session's timeline (a "correction" record)
  whenever the human overrides a verdict: a rejected delivery (the stop should have been
  sent back: status, continue), or an accepted or answered message the judge had sent
  back (it should have been delivered). The record holds the agent's text, the verdict
  it corrects and the label (`Label`); `examples` reads them back as benchmark rows for
  `coachloop bench --corrections`.

Standard library only.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from coachloop.core.session import JobMark, SessionState

if TYPE_CHECKING:
    from coachloop.store.base import Store, StoreReader
    from coachloop.store.records import EventRecord, Write

QUOTE = 160  # characters of the delivered message quoted back to the agent
REJECTED = "The human does not accept this"


@dataclass(frozen=True, slots=True)
class Label:
    """What the human says the stop was: a message type and its route."""

    type: str
    route: str
    how: str  # "👎", "/reject", "👍", "/done", "reply"
    said: str = ""  # the human's own words, when any


def last_delivered(reader: StoreReader, session_id: str) -> EventRecord | None:
    """The session's most recent stop that reached the human (None: none yet, or a
    session the store does not hold)."""
    from coachloop.store.base import UnknownSession

    try:
        timeline = reader.timeline(session_id, limit=200)
    except UnknownSession:
        return None
    for rec in reversed(timeline):
        if rec.kind == "stop" and rec.decision == "deliver" and rec.verdict is not None:
            return rec
    return None


def _norm(text: str) -> str:
    return " ".join(text.replace("`", "").split())


def delivered_stop(reader: StoreReader, session_id: str, shown: str | None) -> EventRecord | None:
    """The delivered stop whose message is `shown` (the text the chat showed, markup
    dropped), else the most recent delivered stop."""
    from coachloop.store.base import UnknownSession

    want = _norm(shown or "")[:60]
    if want:
        try:
            timeline = reader.timeline(session_id, limit=200)
        except UnknownSession:
            return None
        for rec in reversed(timeline):
            delivered = rec.kind == "stop" and rec.decision == "deliver" and rec.verdict
            if delivered and _norm(rec.message or rec.text).startswith(want):
                return rec
    return last_delivered(reader, session_id)


def rejection(delivered: EventRecord | None, shown: str | None = None) -> str:
    """The steering text of a 👎: the delivered message (`shown`, else the stop's text)
    quoted briefly."""
    source = shown if shown and shown.strip() else (delivered.text if delivered else "")
    if not source.strip():
        return f"{REJECTED}."
    text = " ".join(source.split())
    quote = text if len(text) <= QUOTE else text[: QUOTE - 1].rstrip() + "…"
    return f"{REJECTED}: “{quote}”"


def accept(store: Store, session_id: str, how: str, now: float | None = None) -> int:
    """Close the session's job as done (see the module docstring); the record's id.
    `UnknownSession` for a session the store does not hold."""
    from coachloop.store.base import UnknownSession
    from coachloop.store.records import EventRecord, Write

    ts = time.time() if now is None else now

    def fn(state: SessionState | None) -> tuple[Write, None]:
        if state is None:
            raise UnknownSession(session_id, store.location)
        jobs = tuple(JobMark(m.job_id, "closed", m.delivered) for m in state.jobs)
        new = replace(state, status="done", outcome="done", jobs=jobs, stop_requested=None)
        why = f"the human accepted the work ({how}): job closed as done"
        rec = EventRecord(0, session_id, "status", ts, time.time(), source="human", why=why)
        return Write(new, (replace(rec, message="done"),)), None

    return store.transact(session_id, fn)[1][0]


def correct(
    store: Store, session_id: str, stop: EventRecord, label: Label, prompt: str | None
) -> int | None:
    """Keep `stop` relabelled as `label` (a "correction" record); its id, or None when
    the label agrees with the stop's verdict (nothing to correct)."""
    from coachloop.store.records import EventRecord, Write

    verdict = stop.verdict or {}
    if verdict.get("type") == label.type and verdict.get("route") == label.route:
        return None
    body = {"type": label.type, "route": label.route, "prompt": prompt, "said": label.said}
    rec = EventRecord(
        0,
        session_id,
        "correction",
        time.time(),
        time.time(),
        stop.text,
        job_id=stop.job_id,
        source=label.how,
        verdict=stop.verdict,
        decision=label.route,
        why=f"the human says {label.type} ({label.route}), the judge said "
        f"{verdict.get('type')} ({verdict.get('route')}); stop #{stop.id}",
        message=json.dumps(body, ensure_ascii=False),
    )

    def fn(state: SessionState | None) -> tuple[Write | None, None]:
        return (None, None) if state is None else (Write(state, (rec,)), None)

    ids = store.transact(session_id, fn)[1]
    return ids[0] if ids else None


def examples(reader: StoreReader) -> list[dict[str, Any]]:
    """Every correction in the store as a benchmark row (`coachloop.bench.data`): the
    agent's text, the human's label (`type`, `route`), the prompt it answered, and the
    verdict it corrects (`corrected`)."""
    rows: list[dict[str, Any]] = []
    for state in reader.list_sessions():
        for rec in reader.timeline(state.session_id):
            if rec.kind != "correction":
                continue
            body = json.loads(rec.message or "{}")
            rows.append(
                {
                    "id": f"{rec.session_id}:{rec.id}",
                    "text": rec.text,
                    "type": body.get("type"),
                    "route": body.get("route"),
                    "rejected_completion": body.get("route") == "continue"
                    and (rec.verdict or {}).get("type") == "completion",
                    "prompt": body.get("prompt"),
                    "agent": state.agent or None,
                    "corrected": rec.verdict,
                    "how": rec.source,
                }
            )
    return rows
