"""Hooks the store could not take, kept and replayed: nothing is lost on a store fault.

When handling a hook fails with a `StoreError` (a corrupt, unreadable or full store, a
Redis server away), `save` writes the payload, redacted, to
`$COACHLOOP_HOME/spill/<time>-<pid>.json` (0600 in a 0700 folder) and announces the stop
on the console channel (`deliveries.log`) as "undecided", so the human sees it at once.
After any hook that the store took, `replay` hands the spilled payloads back to the
hook handler, oldest first, a few at a time: each file is claimed by renaming it (two
processes never replay the same one), removed once handled, and put back when the store
fails again. A replayed stop is judged and recorded like any other, except that it can
no longer send the agent back (the agent stopped long ago): a continuation becomes a
delivery carrying the coaching. At most `MAX_FILES` payloads are kept; beyond that the
oldest are dropped (each one logged). Standard library only (the hook path).
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from pathlib import Path
from typing import Any

FOLDER = "spill"
MAX_FILES = 1_000
REPLAY_BATCH = 20


def folder() -> Path:
    from coachloop.config import home

    return home() / FOLDER


def save(agent: str, raw: bytes) -> Path | None:
    """Keep one payload the store could not take; None when it is not a JSON object or
    cannot be written (the hook log has the store's error already). Never raises."""
    try:
        from coachloop.config.private import in_private
        from coachloop.redaction import redact_value

        data = json.loads(raw)
        if not isinstance(data, dict):
            return None
        where = folder()
        in_private(where / "x")
        _trim(where)
        body = {"agent": agent, "saved_at": time.time(), "payload": redact_value(data)}
        path = where / f"{time.time_ns():020d}-{os.getpid()}.json"
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(body, fh)
        _announce(agent, body["payload"])
        return path
    except Exception:  # the spill is the last resort: it must never break the fail-open
        return None


def pending() -> bool:
    """True when spilled payloads wait (one `stat` when there are none)."""
    try:
        return any(os.scandir(folder()))
    except OSError:
        return False


def replay(handle: Any, limit: int = REPLAY_BATCH) -> int:
    """Hand up to `limit` spilled payloads, oldest first, to `handle(agent, raw)` (which
    raises `StoreError` when the store still fails: the payload is put back and the
    replay stops). Returns how many were handled. Never raises."""
    from coachloop.store.base import StoreError

    done = 0
    try:
        names = sorted(n for n in os.listdir(folder()) if n.endswith(".json"))
    except OSError:
        return 0
    for name in names[:limit]:
        path = folder() / name
        claimed = path.with_name(f"{name}.{os.getpid()}.claimed")
        try:
            os.rename(path, claimed)
        except OSError:
            continue  # another process took it
        try:
            body = json.loads(claimed.read_text(encoding="utf-8"))
            raw = json.dumps(body["payload"]).encode()
            handle(str(body["agent"]), raw)
        except StoreError:
            with contextlib.suppress(OSError):
                os.rename(claimed, path)
            break
        except Exception:  # a payload that cannot be replayed is not kept forever
            pass
        with contextlib.suppress(OSError):
            claimed.unlink()
        done += 1
    return done


def _trim(where: Path) -> None:
    names = sorted(n for n in os.listdir(where) if n.endswith(".json"))
    for name in names[: max(0, len(names) - MAX_FILES + 1)]:
        with contextlib.suppress(OSError):
            (where / name).unlink()


def _announce(agent: str, payload: dict[str, Any]) -> None:
    from coachloop.chat.delivery import announce

    text = next(
        (
            payload[k]
            for k in ("last_assistant_message", "prompt", "message", "last-assistant-message")
            if isinstance(payload.get(k), str)
        ),
        "",
    )
    session = str(payload.get("session_id") or payload.get("thread-id") or "?")
    note = "[coachloop] the store failed: this stop is kept and will be judged when it works"
    announce(session, agent, str(payload.get("cwd") or ""), [("undecided", f"{text}\n\n{note}")])
