"""Claude Code's records: the transcript file (a bounded tail) and the runners' streams.

`claude_transcript(path)` reads the transcript backwards from its end, line by line,
until it meets the human's prompt that started the current turn, reading at most
`MAX_TAIL` bytes: a 100 MB transcript costs what its last turn costs. Lines that cannot
matter (Claude Code's own bookkeeping: API request shapes and blobs, attachments, queue
operations) are skipped before any JSON parsing. A missing, unreadable or special file
(FIFO, device, directory) or a tail without any assistant message (binary, not JSON,
truncated) gives an unusable record whose note says why; nothing here raises.

`claude_stream(events, prompt=...)` reads the stream-json events of a headless turn
(`TurnResult.events`, the CLI runner's and the SDK runner's alike).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping
from typing import Any

from coachloop.core.record import TurnRecord
from coachloop.record import calls as c
from coachloop.record.claude import human_prompt, read_turn
from coachloop.record.facts import build
from coachloop.record.tail import Backwards, Unreadable, open_log

__all__ = ["MAX_TAIL", "TRANSCRIPT", "claude_stream", "claude_transcript"]

MAX_TAIL = 8 * 1024 * 1024  # bytes read back from a transcript's end, at most
TRANSCRIPT = "Claude Code transcript"
STREAM = "Claude Code stream"
_HEAD = 200
_KEPT_TYPES = (b'{"type":"user"', b'{"type":"assistant"')


def _skippable(line: bytes) -> bool:
    """Bookkeeping lines, recognised from their first bytes without parsing them."""
    head = line[:_HEAD]
    if head.startswith(b'{"type":"') and not head.startswith(_KEPT_TYPES):
        return True
    return b'"attachment":{' in head


def _turn_entries(lines: Iterable[bytes]) -> tuple[list[dict[str, Any]], bool]:
    """The entries of the last turn, oldest first, and whether its prompt was found.

    A subagent's own transcript is nothing but sidechain lines: then the sidechain is
    the turn (in a main transcript, sidechain lines are skipped)."""
    entries: list[dict[str, Any]] = []
    for line in lines:
        if not line.strip() or _skippable(line):
            continue
        try:
            entry = json.loads(line)
        except (ValueError, RecursionError):
            continue
        if not isinstance(entry, dict):
            continue
        entries.append(entry)
        if human_prompt(entry) is not None:
            entries.reverse()
            return entries, True
    entries.reverse()
    said = [e for e in entries if e.get("type") in ("user", "assistant")]
    if not said or not all(e.get("isSidechain") is True for e in said):
        return entries, False
    for entry in entries:  # a subagent's own transcript
        entry["isSidechain"] = False
    starts = [i for i, e in enumerate(entries) if human_prompt(e) is not None]
    return (entries[starts[-1] :], True) if starts else (entries, False)


def _record(
    source: str, entries: Iterable[Mapping[str, Any]], complete: bool, prompt: str | None = None
) -> TurnRecord:
    turn = read_turn(entries)
    return build(
        source,
        (c.to_call(raw, turn.cwd) for raw in turn.calls),
        prompt=prompt or turn.prompt,
        final_text=turn.final_text,
        complete=complete,
    )


def claude_transcript(path: str, *, limit: int = MAX_TAIL) -> TurnRecord:
    """The record of the last turn in the Claude Code transcript at `path`."""
    try:
        fd, size = open_log(path)
    except Unreadable as exc:
        return TurnRecord.unusable(TRANSCRIPT, f"the transcript was not read: {exc}")
    try:
        lines = Backwards(fd, size, limit)
        entries, found = _turn_entries(lines)
    finally:
        os.close(fd)
    if not any(e.get("type") == "assistant" for e in entries):
        return TurnRecord.unusable(
            TRANSCRIPT, "the transcript's end holds no assistant message (not a transcript?)"
        )
    return _record(TRANSCRIPT, entries, found or lines.reached_start)


def claude_stream(events: Iterable[Mapping[str, Any]], *, prompt: str | None = None) -> TurnRecord:
    """The record of a headless turn from its stream-json `events` (one turn's only)."""
    return _record(STREAM, events, True, prompt)
