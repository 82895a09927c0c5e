"""Reading the agent's final message out of a Claude Code transcript (JSONL).

A transcript holds one JSON object per line; `type` is "user", "assistant", "system",
and so on. An assistant line carries an API message in `message`, whose `content` is a
string or a list of blocks (text, tool_use, thinking, ...). One API message may be
written over several assistant lines that share `message.id`, one block per line.

Contract of `last_assistant_text`: the text blocks of the *last* assistant message id
are joined with newlines, in file order; malformed lines (not JSON, not an object,
odd shapes) are skipped; invalid UTF-8 is decoded with replacement characters.
Sidechain lines (`isSidechain: true`, a subagent's turns inside the main transcript)
are ignored unless the file holds nothing but sidechain messages (a subagent's own
transcript). Only the standard library is used: this module is on the hook path.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["TranscriptError", "last_assistant_text", "parse_last_assistant_text"]


class TranscriptError(ValueError):
    """A transcript that cannot be read, or holds no assistant message."""


@dataclass(slots=True)
class _Last:
    """The last assistant message seen so far on one lane (main or sidechain)."""

    key: object = None
    texts: list[str] = field(default_factory=list)
    seen: bool = False

    def add(self, key: object, texts: list[str]) -> None:
        # A line without a message id is a message of its own.
        if not self.seen or key is None or key != self.key:
            self.key, self.texts = key, []
        self.texts.extend(texts)
        self.seen = True


def _text_blocks(message: dict[str, Any]) -> list[str]:
    content = message.get("content")
    if isinstance(content, str):
        return [content]
    if not isinstance(content, list):
        return []
    return [
        block["text"]
        for block in content
        if isinstance(block, dict)
        and block.get("type") == "text"
        and isinstance(block.get("text"), str)
    ]


def parse_last_assistant_text(lines: Iterable[bytes | str]) -> str | None:
    """The last assistant message's text from an iterable of raw lines (bytes or str).

    Returns None when no assistant message is found; "" when the last one has no text.
    Linear in the input size.
    """
    main, side = _Last(), _Last()
    for raw in lines:
        line = raw.decode("utf-8", errors="replace") if isinstance(raw, bytes) else raw
        if not line.strip():
            continue
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        if not isinstance(entry, dict) or entry.get("type") != "assistant":
            continue
        message = entry.get("message")
        if not isinstance(message, dict):
            continue
        key = message.get("id")
        lane = side if entry.get("isSidechain") is True else main
        lane.add(key if isinstance(key, str) else None, _text_blocks(message))
    last = main if main.seen else side
    return "\n".join(last.texts) if last.seen else None


def last_assistant_text(path: Path) -> str:
    """The final assistant message's text in the transcript at `path`.

    Raises TranscriptError when the file cannot be read or has no assistant message.
    """
    try:
        with path.open("rb") as handle:
            text = parse_last_assistant_text(handle)
    except OSError as exc:
        raise TranscriptError(f"cannot read transcript {path}: {exc.strerror or exc}") from exc
    if text is None:
        raise TranscriptError(f"no assistant message found in transcript {path}")
    return text
