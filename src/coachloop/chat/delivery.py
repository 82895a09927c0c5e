"""The console channel: deliveries shown to a person at a terminal.

A delivered stop is written to the store's outbox by the supervisor (the chat bridge
reads it). Showing it on a console cannot happen inside the hook: when the agent may
stop the hook prints nothing, and Claude Code does not show a hook's stderr. So:

1. `announce(...)`, called by the hook for every delivery, notice and notification,
   appends a readable block to `$COACHLOOP_HOME/deliveries.log` (rotated past
   `LOG_LIMIT` bytes to `deliveries.log.1`): `tail -f` it to watch a machine's hooks.
2. `deliver_to_console(store)` prints the store's pending outbox entries that the console
   has not shown yet and remembers the last id shown in a cursor file of its own
   (`$COACHLOOP_HOME/console/<hash of the store>.cursor`). It never calls `mark_sent`:
   the outbox belongs to the chat bridge, which marks an entry sent once the chat took
   it. The console is a second reader with its own cursor, not a consumer. An entry the
   bridge already sent before the console looked is not shown (the human has it).

Texts are redacted (`coachloop.redaction`), stripped of terminal control sequences and
cut to `MAX_SHOWN` characters. The format is
plain text (no colours, no rich): a header line, then the text indented by two spaces.
Standard library only (`announce` runs on the hook path); `announce` never raises.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import sys
import time
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from coachloop.core.events import AGENT_LABELS
from coachloop.core.text import clip

if TYPE_CHECKING:
    from coachloop.store import StoreReader

LOG_NAME = "deliveries.log"
LOG_LIMIT = 8 * 1024 * 1024
MAX_SHOWN = 4_000
_USERINFO = re.compile(r"//[^@/\s]*@")


def log_path() -> Path:
    """The console log: `$COACHLOOP_HOME/deliveries.log`."""
    from coachloop.config import home

    return home() / LOG_NAME


def format_entry(
    kind: str,
    text: str,
    session_id: str,
    *,
    agent: str = "",
    project: str = "",
    ts: float | None = None,
) -> str:
    """One delivery as console text: a header line, then the text indented, cut and
    redacted. Ends with a newline."""
    from coachloop.redaction import shown

    stamp = time.strftime("%Y-%m-%d %H:%M:%SZ", time.gmtime(time.time() if ts is None else ts))
    parts = [stamp, kind]
    if agent:
        parts.append(AGENT_LABELS.get(agent, agent))
    parts.append(f"session {session_id[:12]}")
    if project:
        parts.append(Path(project).name or project)
    body = shown(clip(text, MAX_SHOWN)).strip() or "(no text)"
    lines = "\n".join("  " + line for line in body.splitlines())
    return f"-- {' | '.join(parts)} --\n{lines}\n"


def announce(
    session_id: str,
    agent: str,
    project: str,
    items: Iterable[tuple[str, str]],
    *,
    path: Path | None = None,
) -> None:
    """Append each (kind, text) delivery to the console log. Never raises."""
    try:
        target = path or log_path()
        blocks = "".join(
            format_entry(kind, text, session_id, agent=agent, project=project)
            for kind, text in items
        )
        if not blocks:
            return
        from coachloop.config.private import append_private

        with contextlib.suppress(OSError):
            if target.stat().st_size > LOG_LIMIT:
                os.replace(target, target.with_name(target.name + ".1"))
        append_private(target, blocks)
    except Exception:  # the console is a convenience: never break a hook for it
        return


def cursor_path(store: StoreReader) -> Path:
    """Where the console remembers the last outbox id it showed for `store`."""
    from coachloop.config import home

    where = _USERINFO.sub("//", str(store.location))  # no credentials, even hashed
    name = hashlib.blake2b(where.encode("utf-8", "replace"), digest_size=8).hexdigest()
    return home() / "console" / f"{name}.cursor"


def deliver_to_console(
    store: StoreReader,
    out: TextIO | None = None,
    *,
    limit: int = 10_000,
    cursor: Path | None = None,
) -> int:
    """Print the pending outbox entries of `store` not shown on the console yet, oldest
    first, and advance the console's cursor past them. The outbox itself is left alone
    (the chat bridge still sees every entry). `limit` bounds how many pending entries are
    read (with no bridge running they accumulate). Returns how many were printed."""
    stream = out if out is not None else sys.stdout
    where = cursor or cursor_path(store)
    last = _read_cursor(where)
    shown = 0
    for entry in store.outbox_pending(limit):
        if entry.id <= last:
            continue
        stream.write(format_entry(entry.kind, entry.text, entry.session_id, ts=entry.created_at))
        last = entry.id
        shown += 1
    if shown:
        stream.flush()
        from coachloop.config.private import in_private

        in_private(where)
        tmp = where.with_name(where.name + f".{os.getpid()}.tmp")
        tmp.write_text(str(last), encoding="utf-8")
        os.replace(tmp, where)
    return shown


def _read_cursor(path: Path) -> int:
    try:
        return int(path.read_text(encoding="utf-8").strip() or 0)
    except (OSError, ValueError):
        return 0
