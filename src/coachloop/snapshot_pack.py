"""Lifecycle records in the store: packed once, redacted once, written as files on demand.

A lifecycle record (the "snapshot" of one change to a session: a stop with its verdict,
decision and new state, a human message, a notice...) is kept as one row of the store
(`Store.save_life`, or with the stop's own transaction), not as a file per event: no
directory grows a file per stop, and retention is a bounded delete on an index.

`pack(session_id, label, data, now)` turns the record into compact JSON, redacted, and
compresses it with a small deflate window (a default zlib stream costs more to set up
than to fill for a record of a few KB). Redaction runs once over the whole serialized
record (`_maybe_secret`: literals and two short patterns, a superset of what
`snapshots.redact` changes, field names included); only a record it flags is redacted
field by field (`snapshots.redact`), so the result always equals `redact(record)`.
`unpack` reverses it; `export(records, folder)` writes them as the JSON files
`coachloop show --snapshot` hands to a user. Standard library only (the hook path).
"""

from __future__ import annotations

import json
import re
import zlib
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from coachloop.store.records import Life

_WBITS, _MEM = 11, 3  # a 2 KB window: set-up costs microseconds, not a quarter millisecond
# Every string `snapshots.redact_text` changes, and every secret-named field, holds one
# of these in the lowercased JSON (its patterns relaxed: word boundaries and digit counts
# dropped; no pattern needs a character JSON escapes): one look at the record decides
# whether any field needs the field-by-field redaction.
_NEEDLES = ("sk-", "akia", "authorization", "bearer", "key", "token", "secret", "passw")
_NEEDLES_TOO = ("credential",)
_GITHUB = re.compile(r"gh[pousr]_")
_TELEGRAM = re.compile(r":[a-z0-9_\-]{30}")


def _maybe_secret(low: str) -> bool:
    return (
        any(n in low for n in _NEEDLES + _NEEDLES_TOO)
        or _GITHUB.search(low) is not None
        or _TELEGRAM.search(low) is not None
    )


def pack(session_id: str, label: str, data: Mapping[str, Any], now: float) -> bytes:
    """The record `{"session_id", "event", "saved_at", **data}`, redacted, compact, deflated."""
    body = {"session_id": session_id, "event": label, "saved_at": now, **data}
    text = json.dumps(body, ensure_ascii=False, separators=(",", ":"), default=str)
    if _maybe_secret(text.lower()):
        from coachloop.snapshots import redact

        text = json.dumps(redact(body), ensure_ascii=False, separators=(",", ":"), default=str)
    squeeze = zlib.compressobj(1, zlib.DEFLATED, _WBITS, _MEM)
    return squeeze.compress(text.encode()) + squeeze.flush()


def unpack(blob: bytes) -> dict[str, Any]:
    """The record `pack` made; a damaged blob raises ValueError."""
    try:
        data = json.loads(zlib.decompress(blob).decode())
    except (zlib.error, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValueError(f"a lifecycle record cannot be read: {exc}") from exc
    if not isinstance(data, dict):
        raise ValueError("a lifecycle record is not a JSON object")
    return data


def name(life: Life) -> str:
    """A record's stable name: its UTC time, event id and label (`…_123_deliver.json`)."""
    stamp = datetime.fromtimestamp(life.saved_at, UTC).strftime("%Y%m%dT%H%M%S.%fZ")
    return f"{stamp}_{life.event_id}_{life.label}.json"


def export(records: Iterable[Life], folder: Path) -> list[Path]:
    """Write each record as a pretty JSON file in `folder` (created); returns the paths.
    An existing file of the same name is replaced (same record, same content)."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for life in records:
        path = folder / name(life)
        path.write_text(json.dumps(unpack(life.body), indent=2, ensure_ascii=False) + "\n")
        written.append(path)
    return written
