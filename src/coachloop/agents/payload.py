"""What every hook adapter shares: reading untrusted JSON, the normalised `Hook`, replies.

An adapter (`claude_code`, `codex`, `gemini`) turns one agent's hook payload into a
`Hook`: which session, what happened (`action`), and the fields of that event. The
dispatcher (`coachloop.agents.dispatch`) then acts on the `Hook` the same way for every
agent. Everything here is defensive: payloads come from another program and may be
malformed, of the wrong types, huge or binary. The rules:

- `load` accepts only a JSON object of at most `MAX_RAW` bytes; anything else raises
  `PayloadError` (the caller fails open).
- A field of the wrong type counts as absent (`string`, `flag`); strings lose lone
  surrogates (`clean`); a session id must be a non-blank printable string of at most
  `MAX_ID` characters, else `PayloadError` (never a shared fallback key).
- Texts are cut to `MAX_TEXT` characters keeping the head and the tail (evidence such as a
  test summary usually ends a message); every step is linear in the input.
- `block_reply` keeps the whole reply within the agents' 10,000-character hook output cap.

Standard library only: this module is on the hook path.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from coachloop.config.project import MAX_PATH
from coachloop.core.events import StopKind
from coachloop.core.text import clip

Action = Literal["stop", "prompt", "notice", "start", "end", "tool", "pretool"]
TurnRule = Literal["none", "job", "prompt"]

MAX_RAW = 32 * 1024 * 1024  # bytes of one payload
MAX_TEXT = 100_000  # characters of an agent message or prompt kept (head and tail)
MAX_ID = 256  # characters of a session, job or subagent id
MAX_FIELD = 2_000  # characters of a short field (error details, notification message)

REPLY_LIMIT = 10_000  # characters of hook output Claude Code accepts
TRANSCRIPT_TAIL = 4 * 1024 * 1024  # bytes of a transcript read from its end
CUT_NOTE = "\n\n[coachloop: message cut, {n} more characters]"


class PayloadError(ValueError):
    """A payload that cannot be handled; the hook fails open (the agent stops)."""


@dataclass(frozen=True, slots=True)
class Hook:
    """One hook call, normalised.

    `action`: "stop" (the agent stopped: judge and decide), "prompt" (a human prompt:
    reset the cap, record prompt and skill), "notice" (the agent waits for the human:
    deliver `text`), "start" / "end" (the session opened / closed), "tool" (a tool call
    ended inside a running turn: a point to hand it the human's queued messages),
    "pretool" (a tool call is about to run: a point where a pending `/stop` ends the turn).
    For a stop: `text` is the agent's final message, `kind` the stop kind, `job_id` the
    agent's own id of the unit of work (None: derived from the session), `sub_id` a
    subagent's id (its jobs are kept apart from the main agent's), `prompt` the turn's
    prompt when the stop carries it, `can_block` False when the agent cannot be sent back
    (Codex `notify`), and `turn_rule` how a new human turn is recognised when the agent
    has no prompt hook: "job" (a new job id), "prompt" (a changed prompt) or "none".
    `detail` is the notification type, the start source or the end reason. `stop_id`
    names the hook call (a digest of its agent and raw payload): the same stop sent again
    (a client retrying after its daemon died) has the same id.
    """

    action: Action
    agent: str
    session_id: str
    cwd: str = ""
    text: str = ""
    kind: StopKind = "Stop"
    job_id: str | None = None
    sub_id: str | None = None
    error: str | None = None
    transcript_path: str | None = None
    stop_hook_active: bool = False
    prompt: str | None = None
    can_block: bool = True
    turn_rule: TurnRule = "none"
    detail: str = ""
    stop_id: str | None = None


def load(raw: bytes) -> dict[str, Any]:
    """The payload as a dict; `PayloadError` unless it is one JSON object."""
    if not isinstance(raw, bytes | bytearray):
        raise PayloadError("payload is not bytes")
    if len(raw) > MAX_RAW:
        raise PayloadError(f"payload of {len(raw)} bytes is over the {MAX_RAW} byte limit")
    if not raw.strip():
        raise PayloadError("empty payload")
    try:
        data = json.loads(raw)
    except RecursionError as exc:
        raise PayloadError("payload nested too deeply") from exc
    except ValueError as exc:  # JSONDecodeError and UnicodeDecodeError
        raise PayloadError(f"payload is not JSON: {str(exc)[:120]}") from exc
    if not isinstance(data, dict):
        raise PayloadError(f"payload is a JSON {type(data).__name__}, not an object")
    return data


def string(data: dict[str, Any], *keys: str, limit: int | None = None) -> str | None:
    """The first of `keys` holding a string (cut to `limit` characters, `clean`); None if
    none does."""
    for key in keys:
        value = data.get(key)
        if isinstance(value, str):
            return clean(value if limit is None else value[:limit])
    return None


def clean(text: str) -> str:
    """`text` with lone surrogates (JSON escapes such as "\\ud800", which UTF-8 cannot
    encode) replaced by "?"; linear, and free for ASCII."""
    if text.isascii():
        return text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "replace").decode("utf-8")
    return text


def flag(data: dict[str, Any], key: str) -> bool:
    """True only when `key` holds the JSON value true."""
    return data.get(key) is True


def identifier(data: dict[str, Any], *keys: str) -> str | None:
    """A usable id from the first of `keys` holding one: a non-blank string of at most
    `MAX_ID` characters without control characters; None otherwise."""
    for key in keys:
        value = data.get(key)
        if not isinstance(value, str) or len(value) > MAX_ID:
            continue
        if value.strip() and value.isprintable():
            return value
    return None


def session(data: dict[str, Any], *keys: str) -> str:
    """The session id; `PayloadError` when missing, empty, too long or not a string."""
    found = identifier(data, *keys)
    if found is None:
        raise PayloadError("payload has no usable session id")
    return found


def path_field(data: dict[str, Any], *keys: str) -> str | None:
    """A plausible filesystem path (no NUL, at most `MAX_PATH` characters) or None."""
    value = string(data, *keys)
    if value is None or not value or len(value) > MAX_PATH or "\x00" in value:
        return None
    return value


def clip_middle(text: str, limit: int = MAX_TEXT) -> str:
    """`text` cut to `limit` characters, keeping its head and its tail."""
    return clip(text, limit)


def error_text(kind: str | None, details: str | None) -> str:
    """One line naming a failure: "kind: details" (either may be missing)."""
    parts = [p.strip() for p in (kind, details) if p and p.strip()]
    return ": ".join(parts)[:MAX_FIELD] or "unknown error"


def transcript_text(path: str | None) -> str:
    """The last assistant message of a Claude Code transcript, read from the file's last
    `TRANSCRIPT_TAIL` bytes; "" when there is no such regular file or message. Never raises
    for a bad path, and never blocks on a FIFO or device."""
    if not path:
        return ""
    from coachloop.transcript import parse_last_assistant_text

    try:
        target = Path(path).expanduser()
        info = os.stat(target)
        if not stat.S_ISREG(info.st_mode):
            return ""
        with target.open("rb") as fh:
            if info.st_size > TRANSCRIPT_TAIL:
                fh.seek(info.st_size - TRANSCRIPT_TAIL)
                fh.readline()  # drop the partial first line
            text = parse_last_assistant_text(fh)
    except (OSError, ValueError, RuntimeError):
        return ""
    return text or ""


def block_reply(reason: str, decision: str = "block") -> bytes:
    """`{"decision": decision, "reason": reason}` within the hook output cap (`fit_reply`)."""
    return fit_reply(reason, lambda text: {"decision": decision, "reason": text})


def fit_reply(reason: str, wrap: Callable[[str], dict[str, Any]]) -> bytes:
    """`wrap(reason)` as UTF-8 JSON of at most `REPLY_LIMIT` characters (counted as
    Claude Code counts them, in UTF-16 code units); a longer reason is cut with a note
    saying how many characters were cut. The longest prefix that fits is found by
    bisection over at most `REPLY_LIMIT` characters (each kept character costs at least
    one), so the cost stays bounded whatever the reason."""

    def dump(text: str) -> str:
        return json.dumps(wrap(text), ensure_ascii=False)

    body = dump(reason)
    if _utf16_len(body) <= REPLY_LIMIT:
        return body.encode("utf-8")

    def cut(keep: int) -> str:
        return dump(reason[:keep] + CUT_NOTE.format(n=len(reason) - keep))

    lo, hi = 0, min(len(reason), REPLY_LIMIT)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if _utf16_len(cut(mid)) <= REPLY_LIMIT:
            lo = mid
        else:
            hi = mid - 1
    return cut(lo).encode("utf-8")


def _utf16_len(text: str) -> int:
    if text.isascii():
        return len(text)
    return len(text) + sum(1 for ch in text if ord(ch) > 0xFFFF)
