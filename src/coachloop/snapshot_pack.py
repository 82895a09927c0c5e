"""Lifecycle records in the store: packed once, redacted once, written as files on demand.

A lifecycle record (the "snapshot" of one change to a session: a stop with its verdict,
decision and new state, a human message, a notice...) is kept as one row of the store
(`Store.save_life`, or with the stop's own transaction), not as a file per event: no
directory grows a file per stop, and retention is a bounded delete on an index.

A stop's record keeps only what its timeline record and state do not: the stop's
context (cwd, kind, transcript, ...: `stop_context`, its fields at their defaults left
out); the session state the stop's transaction writes is kept beside it as the same JSON
(no second serialization; sparse, `core.session.sparse`), and `whole` joins them with
the timeline record (text, verdict, decision) when a person reads it, every field filled
in again (records of older versions, whole and spaced, read as they are).
`pack(session_id, label, data, now)` turns the record into compact JSON, redacted, and
compresses it with a small deflate window when it is over `PLAIN_BYTES` (a default zlib
stream costs more to set up than to fill for a record of a few KB). Redaction is one
pass of `coachloop.redaction` over the whole serialized record (the texts an agent or a
human wrote were redacted already, at the supervisor's door; this pass catches secrets
anywhere else); when a replacement would break the JSON, it is redacted field by field.
`unpack` reverses it; `export(records, folder)` writes them as the JSON files
`coachloop show --snapshot` hands to a user. Standard library only (the hook path).
"""

from __future__ import annotations

import contextlib
import json
import zlib
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from operator import attrgetter
from pathlib import Path
from typing import TYPE_CHECKING, Any

from coachloop.core.events import StopEvent
from coachloop.core.session import unsparse

if TYPE_CHECKING:
    from coachloop.store.records import EventRecord, Life

_WBITS, _MEM = 11, 3  # a 2 KB window: set-up costs microseconds, not a quarter millisecond
_COMPACT = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), default=str)  # built once
# The records packed lately (their JSON before redaction -> the redaction generation and
# the packed bytes): a session's stops make the same record over and over (its times and
# ids are kept beside it), and the texts `redact` remembers are crowded out by agents'
# messages. At most PACKED_RECORDS * PACKED_CHARS characters.
_PACKED: dict[str, tuple[int, bytes]] = {}
PACKED_RECORDS = 1024
PACKED_CHARS = 2048
# A stop's fields its record keeps elsewhere: text and time in its timeline record, its
# id (one per hook call) as the committed state's `last_stop_id`.
_IN_THE_RECORD = ("text", "timestamp", "stop_id")
STOP_CONTEXT = tuple(n for n in StopEvent.__dataclass_fields__ if n not in _IN_THE_RECORD)
# Each field of a stop's context but its session (the record's own) with its default.
_CONTEXT_DEFAULTS: dict[str, Any] = {
    n: StopEvent.__dataclass_fields__[n].default for n in STOP_CONTEXT if n != "session_id"
}
_CONTEXT_OF = attrgetter(*_CONTEXT_DEFAULTS)  # but its session: the record leaves it out
# A stop's label and context -> the redaction generation and its packed record (`pack_stop`).
_STOPS: dict[tuple[Any, ...], tuple[int, bytes]] = {}
PLAIN_BYTES = 512  # records this small are kept as plain JSON (a deflate stream never
# starts with "{", so `unpack` tells them apart)


def pack(session_id: str | None, label: str, data: Mapping[str, Any], now: float | None) -> bytes:
    """The record `{"session_id", "event", "saved_at", **data}`, redacted, compact, deflated.
    `now` None: no "saved_at" in the body (a stop's record: it is kept beside the body,
    `Life.saved_at`, and `whole` puts it back); `session_id` None: no "session_id" (a
    stop's record: its row names the session, `Life.session_id`). So the bodies of stops
    with the same context are the same text, whatever their session: packed once while
    no value is `register`ed meanwhile (`_PACKED`)."""
    from coachloop.redaction import generation

    owner = {} if session_id is None else {"session_id": session_id}
    stamp = {} if now is None else {"saved_at": now}
    body = {**owner, "event": label, **stamp, **data}
    text = _COMPACT.encode(body)
    current = generation()  # before redacting: a value registered meanwhile makes it stale
    known = _PACKED.get(text)
    if known is not None and known[0] == current:
        return known[1]  # the same record as lately: packed already
    packed = _packed(text, body)
    if len(text) <= PACKED_CHARS:
        _keep(_PACKED, text, (current, packed))
    return packed


def pack_stop(event: StopEvent, label: str) -> bytes:
    """A stop's record: `pack(None, label, {"stop": stop_context(event)}, None)`: neither
    its session (its row's) nor its time (kept beside it); remembered by the label and the
    stop's context but its session (stops repeat them, a session's and most sessions' of
    one agent alike: no JSON is made or redacted for them again) while no value is
    `register`ed meanwhile."""
    from coachloop.redaction import generation

    key = (label, *_CONTEXT_OF(event))
    current = generation()
    known = _STOPS.get(key)
    if known is not None and known[0] == current:
        return known[1]
    packed = pack(None, label, {"stop": stop_context(event)}, None)
    _keep(_STOPS, key, (current, packed))
    return packed


def _keep(memory: dict[Any, tuple[int, bytes]], key: Any, value: tuple[int, bytes]) -> None:
    """Put `value` in `memory`; the oldest entries go past `PACKED_RECORDS`."""
    memory[key] = value
    while len(memory) > PACKED_RECORDS:  # a loop: other threads add too
        with contextlib.suppress(KeyError, RuntimeError, StopIteration):
            del memory[next(iter(memory))]


def _packed(text: str, body: Mapping[str, Any]) -> bytes:
    """`text` (the JSON of `body`) redacted, encoded, deflated past `PLAIN_BYTES`."""
    from coachloop.redaction import redact, redact_value

    clean = redact(text)  # one compiled pass over the whole record
    if clean != text:
        try:
            json.loads(clean)
        except ValueError:  # a replacement crossed the JSON syntax: field by field
            clean = _COMPACT.encode(redact_value(body))
    raw = clean.encode()
    if len(raw) <= PLAIN_BYTES:  # a stop's own record: deflating costs more than it saves
        return raw
    squeeze = zlib.compressobj(1, zlib.DEFLATED, _WBITS, _MEM)
    return squeeze.compress(raw) + squeeze.flush()


def stop_context(event: StopEvent) -> dict[str, Any]:
    """What a stop's record keeps of the stop ("stop" in `pack`'s data): its context
    (`STOP_CONTEXT`) without its session id (the record's own) and the fields at their
    defaults (a value of another type is kept); `whole` fills them in again."""
    out: dict[str, Any] = {}
    for name, default in _CONTEXT_DEFAULTS.items():
        value = getattr(event, name)
        if value != default or type(value) is not type(default):
            out[name] = value
    return out


def _whole_stop(stop: dict[str, Any], session_id: str) -> dict[str, Any]:
    """A stop's context as `stop_context` kept it (no "session_id"), whole again in
    `STOP_CONTEXT`'s order; a whole one (a record of an older version) as it is."""
    if "session_id" in stop:
        return stop
    return {"session_id": session_id, **_CONTEXT_DEFAULTS, **stop}


def unpack(blob: bytes) -> dict[str, Any]:
    """The record `pack` made; a damaged blob raises ValueError."""
    try:
        text = blob.decode() if blob[:1] == b"{" else zlib.decompress(blob).decode()
        data = json.loads(text)
    except (zlib.error, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValueError(f"a lifecycle record cannot be read: {exc}") from exc
    if not isinstance(data, dict):
        raise ValueError("a lifecycle record is not a JSON object")
    return data


def whole(life: Life, event: EventRecord | None = None) -> dict[str, Any]:
    """The full record of `life`: its body, and for a stop's record (which keeps only
    what the timeline does not) the stop's text, verdict and decision from its timeline
    record `event`, and the session's state as that stop left it. Redacted (once more:
    a text redacted at the door is left as it was)."""
    from coachloop.redaction import redact_value

    # a stop's record leaves its session to the row (`pack_stop`): first, as it was
    out = {"session_id": life.session_id, **unpack(life.body), "event_id": life.event_id}
    out.setdefault("saved_at", life.saved_at)
    session_id = str(out.get("session_id") or life.session_id)
    if life.state is not None:  # stores keep it sparse (`core.session.sparse`) now
        out["state"] = unsparse(json.loads(life.state), session_id)
    if isinstance(out.get("stop"), dict):
        out["stop"] = _whole_stop(out["stop"], session_id)
    if event is not None and "stop" in out:
        out["stop"] = {"timestamp": event.ts, **out["stop"], "text": event.text}
        out["verdict"] = event.verdict
        out["decision"] = {
            "kind": event.decision,
            "text": event.message,
            "why": event.why,
            "notices": list(event.notices),
        }
    return dict(redact_value(out))


def name(life: Life) -> str:
    """A record's stable name: its UTC time, event id and label (`…_123_deliver.json`)."""
    stamp = datetime.fromtimestamp(life.saved_at, UTC).strftime("%Y%m%dT%H%M%S.%fZ")
    return f"{stamp}_{life.event_id}_{life.label}.json"


def export(
    records: Iterable[Life], folder: Path, events: Mapping[int, EventRecord] | None = None
) -> list[Path]:
    """Write each record (`whole`, with its timeline record from `events` by id) as a
    pretty JSON file in `folder` (created); returns the paths. An existing file of the
    same name is replaced (same record, same content)."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for life in records:
        path = folder / name(life)
        body = whole(life, (events or {}).get(life.event_id))
        path.write_text(json.dumps(body, indent=2, ensure_ascii=False) + "\n")
        written.append(path)
    return written
