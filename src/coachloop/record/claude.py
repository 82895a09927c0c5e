"""Claude Code's messages as a turn: transcript lines and stream-json events alike.

Both carry `{"type": "user" | "assistant", "message": {"content": ...}}`: assistant
messages hold `text` and `tool_use` blocks (one API message may span several lines that
share `message.id`), user messages hold the human's prompt (a string or text blocks)
or `tool_result` blocks. A Stop hook's feedback comes back as a user message marked
`isMeta` (and starting "Stop hook feedback:"): it is not the human, so a turn runs on
through continuations. Sidechain lines (a subagent inside the main transcript) are
skipped. Permission denials are marked on the result's line
(`permissionDecision.decision == "reject"`), by a stream `system` event
`permission_denied`, or recognised by the text Claude Code gives the model.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from coachloop.record.calls import RawCall

__all__ = ["Turn", "human_prompt", "read_turn"]

HOOK_FEEDBACK = "Stop hook feedback:"
_NOT_HUMAN = (HOOK_FEEDBACK, "[Request interrupted", "<local-command-", "Caveat: ")
_DENIED = re.compile(
    r"requested permissions? to (?:use|write|read|run|edit)|permission to use \S+ "
    r"(?:was|has been) denied|doesn't want to proceed with this tool use|"
    r"\bwas blocked by (?:a )?(?:permission|policy|hook)",
    re.I,
)
_EXIT = re.compile(r"^Exit code (\d{1,3})\b")


def _blocks(message: Any) -> list[Any]:
    content = message.get("content") if isinstance(message, dict) else None
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    return content if isinstance(content, list) else []


def _text_of(content: Any) -> str:
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        return ""
    return "\n".join(
        b["text"]
        for b in content
        if isinstance(b, dict) and b.get("type") == "text" and isinstance(b.get("text"), str)
    )


def human_prompt(entry: Mapping[str, Any]) -> str | None:
    """The human's prompt when `entry` is one (not a tool result, not a hook's feedback,
    not a meta or sidechain line), else None."""
    if entry.get("type") != "user" or entry.get("isMeta") is True:
        return None
    if entry.get("isCompactSummary") is True:  # a compaction's summary, not the human
        return None
    if entry.get("isSidechain") is True:
        return None
    blocks = _blocks(entry.get("message"))
    if any(isinstance(b, dict) and b.get("type") == "tool_result" for b in blocks):
        return None
    text = _text_of(blocks)
    if text.lstrip().startswith(_NOT_HUMAN):
        return None
    if not text.strip():  # an image alone is a prompt too; an empty message is none
        shown = any(isinstance(b, dict) and b.get("type") in ("image", "document") for b in blocks)
        return "(an image)" if shown else None
    return text


@dataclass
class Turn:
    """A turn read from Claude Code messages (see `read_turn`)."""

    prompt: str | None = None
    calls: list[RawCall] = field(default_factory=list)
    final_text: str | None = None
    cwd: str | None = None


@dataclass
class _Reader:
    turn: Turn = field(default_factory=Turn)
    pending: dict[str, RawCall] = field(default_factory=dict)
    last_id: object = None
    texts: list[str] = field(default_factory=list)
    denied_ids: set[str] = field(default_factory=set)

    def assistant(self, message: Mapping[str, Any]) -> None:
        key = message.get("id")
        texts: list[str] = []
        for block in _blocks(message):
            if not isinstance(block, dict):
                continue
            if block.get("type") == "text" and isinstance(block.get("text"), str):
                texts.append(block["text"])
            elif block.get("type") == "tool_use":
                given = block.get("input")
                raw = RawCall(
                    tool=str(block.get("name") or "?"),
                    input=given if isinstance(given, dict) else {},
                )
                self.turn.calls.append(raw)
                self.pending[str(block.get("id"))] = raw
        if key is None or key != self.last_id:
            self.texts = []
        self.texts.extend(texts)
        self.turn.final_text = "\n".join(self.texts)
        self.last_id = key if isinstance(key, str) else None

    def user(self, entry: Mapping[str, Any]) -> None:
        decision = entry.get("permissionDecision")
        rejected = isinstance(decision, dict) and decision.get("decision") == "reject"
        for block in _blocks(entry.get("message")):
            if not isinstance(block, dict) or block.get("type") != "tool_result":
                continue
            use_id = str(block.get("tool_use_id"))
            raw = self.pending.pop(use_id, None)
            if raw is None:
                continue
            text = _text_of(block.get("content"))
            raw.output = text
            raw.error = block.get("is_error") is True
            raw.denied = (
                rejected
                or use_id in self.denied_ids
                or bool(raw.error and _DENIED.search(text[:500]))
            )
            exit_code = _EXIT.match(text)
            raw.exit_code = int(exit_code.group(1)) if exit_code else (None if raw.error else 0)
            raw.done = True

    def add(self, entry: Mapping[str, Any]) -> None:
        kind = entry.get("type")
        if entry.get("isSidechain") is True or entry.get("parent_tool_use_id"):
            return
        data = entry.get("data")  # the Agent SDK's system messages nest their fields
        fields = data if kind == "system" and isinstance(data, dict) else entry
        if self.turn.cwd is None and isinstance(fields.get("cwd"), str):
            self.turn.cwd = fields["cwd"]
        if kind == "assistant" and isinstance(entry.get("message"), dict):
            self.assistant(entry["message"])
        elif kind == "user":
            prompt = human_prompt(entry)
            if prompt is not None:
                self.turn.prompt = prompt
            else:
                self.user(entry)
        elif kind == "system" and entry.get("subtype") == "permission_denied":
            self.denied_ids.add(str(fields.get("tool_use_id")))


def read_turn(entries: Iterable[Mapping[str, Any]]) -> Turn:
    """The turn held by `entries` (in order): its prompt, its calls with their results,
    and the text of its last assistant message. Entries of an earlier turn must have
    been left out by the caller; odd shapes are skipped."""
    reader = _Reader()
    for entry in entries:
        if isinstance(entry, dict):
            reader.add(entry)
    return reader.turn
