"""Reading the current turn out of Codex CLI rollout files and Gemini CLI chat files.

`codex_turn(path, turn_id)` and `gemini_turn(path, prompt)` return a `TurnLog`: the
human's prompt that opened the turn, the continuations sent to the agent within it (a
Stop hook's reason, coachloop's coaching), the assistant's texts since the last of those
(what the agent said since it was last stopped), and every tool call of the turn with
its output. None when the file is missing, not a regular file, unreadable, or holds no
such turn in its tail.

Formats, as written by Codex CLI 0.169 and Gemini CLI 0.61 (found by running them):

- Codex rollout (`~/.codex/sessions/YYYY/MM/DD/rollout-…-<session>.jsonl`, the hooks'
  `transcript_path`): one `{"timestamp", "type", "payload"}` object per line. A turn
  opens with an `event_msg` of payload type `task_started` carrying `turn_id`. Model I/O
  is `response_item` lines: `message` (role user/assistant/developer, content parts
  `input_text`/`output_text`), `function_call` (`name`, `arguments` as a JSON string,
  `call_id`), `function_call_output` (`call_id`, `output`), and `custom_tool_call` /
  `custom_tool_call_output` (`input` a string). The human's message also appears as an
  `event_msg` `item_completed` item of type `UserMessage`; a Stop hook's reason appears
  as a user message `<hook_prompt hook_run_id="…">REASON</hook_prompt>` and as an
  `item_completed` item of type `HookPrompt`; context blocks such as
  `<environment_context>` are user messages too.
- Gemini chat (`~/.gemini/tmp/<project>/chats/session-…-<id>.jsonl`, the hooks'
  `transcript_path`): a header line, then message objects `{"id", "timestamp", "type":
  "user"|"gemini"|…, "content"}` and `{"$set": {…}}` updates (a `$set` of `messages`
  replaces the list). A message may be written again under the same id (the last copy
  wins): a `gemini` message gains `toolCalls: [{"id", "name", "args", "result":
  [{"functionResponse": {"response": {"output"}}}]}]`. `content` is a string for
  `gemini` and a list of parts for `user`; tool results come back as `user` messages
  holding only `functionResponse` parts. An AfterAgent hook's reason is sent as a new
  `user` text message; Gemini's own "Please continue." nudge (its next-speaker check)
  is neither a prompt nor a continuation.

Only the last `TAIL_STEPS[-1]` bytes of a file are ever read (a small window first, a
larger one only when the turn does not start inside it); malformed lines are skipped.
Standard library only: this module is on the hook path.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

__all__ = [
    "TAIL_STEPS",
    "TranscriptCall",
    "TurnLog",
    "codex_turn",
    "gemini_turn",
    "tail",
    "tail_lines",
]

TAIL_STEPS = (256 * 1024, 4 * 1024 * 1024)  # bytes read from the end, in turn
GEMINI_NUDGE = "Please continue."
_HOOK_PROMPT = "<hook_prompt"


@dataclass(frozen=True, slots=True)
class TranscriptCall:
    """One tool call: its name, its input (a dict, or the raw string when the input is
    not a JSON object) and its output (None: no output recorded yet)."""

    name: str
    input: dict[str, Any] | str
    output: str | None = None


@dataclass(frozen=True, slots=True)
class TurnLog:
    """The current turn of a transcript (see the module docstring)."""

    prompt: str | None
    continuations: tuple[str, ...] = ()
    texts: tuple[str, ...] = ()
    tool_calls: tuple[TranscriptCall, ...] = ()

    @property
    def last_text(self) -> str | None:
        """The assistant's last text since it was last stopped; None when it said nothing."""
        return self.texts[-1] if self.texts else None


def tail(path: str | os.PathLike[str], limit: int) -> tuple[bytes, bool] | None:
    """The last `limit` bytes of the regular file `path`, starting at a line (a partial
    first line dropped), and whether that is the whole file; None when it cannot be read.
    Never blocks on a FIFO or a device."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except (OSError, ValueError):
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return None
        whole = info.st_size <= limit
        if not whole:
            os.lseek(fd, info.st_size - limit, os.SEEK_SET)
        with os.fdopen(os.dup(fd), "rb") as fh:
            data = fh.read(limit)
        if not whole:
            data = data[data.find(b"\n") + 1 :] if b"\n" in data else b""
        return data, whole
    except OSError:
        return None
    finally:
        os.close(fd)


def tail_lines(path: str | os.PathLike[str], limit: int) -> tuple[list[bytes], bool] | None:
    """`tail(path, limit)` split into lines."""
    got = tail(path, limit)
    return None if got is None else (got[0].splitlines(), got[1])


def _newest_first(lines: list[bytes]) -> Iterator[dict[str, Any]]:
    """The JSON objects of `lines`, last line first (malformed lines skipped)."""
    for raw in reversed(lines):
        try:
            item = json.loads(raw.decode("utf-8", errors="replace"))
        except ValueError:
            continue
        if isinstance(item, dict):
            yield item


Finder = Callable[[list[bytes]], "TurnLog | None"]


def _read(
    path: str | os.PathLike[str] | None, needle: bytes, find: Finder, most: int | None = None
) -> TurnLog | None:
    """`find(lines)` over ever larger tails until it finds the turn (or the whole file or
    the largest window, at most `most` bytes, was read). A window without `needle` (the
    bytes the turn's first line must hold) cannot hold the turn's start and is not parsed
    at all."""
    if not path:
        return None
    steps = [n for n in TAIL_STEPS if most is None or n <= most] or [most or TAIL_STEPS[0]]
    for limit in steps:
        got = tail(path, limit)
        if got is None:
            return None
        data, whole = got
        turn = find(data.split(b"\n")) if needle in data else None
        if turn is not None or whole:
            return turn
    return None


def _load(text: Any) -> dict[str, Any] | str:
    if not isinstance(text, str):
        return {}
    try:
        value = json.loads(text)
    except ValueError:
        return text
    return value if isinstance(value, dict) else text


def _parts_text(content: Any, kinds: tuple[str, ...] = ("input_text", "output_text")) -> str:
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        return ""
    return "".join(
        part["text"]
        for part in content
        if isinstance(part, dict)
        and isinstance(part.get("text"), str)
        and part.get("type", kinds[0]) in (*kinds, "text")
    )


# --- Codex CLI ------------------------------------------------------------------------------


def codex_turn(
    path: str | os.PathLike[str] | None, turn_id: str | None = None, *, most: int | None = None
) -> TurnLog | None:
    """The turn `turn_id` (default: the last turn) of the Codex rollout at `path`, looked
    for in at most the last `most` bytes (default: the largest of `TAIL_STEPS`)."""
    needle = (turn_id or "task_started").encode("utf-8", "replace")
    return _read(path, needle, lambda lines: _codex(_codex_since_start(lines, turn_id)), most)


def _codex_since_start(lines: list[bytes], turn_id: str | None) -> list[dict[str, Any]]:
    """The objects from the turn's `task_started` to the end, in file order ([] when the
    turn does not start in `lines`); only those lines are parsed."""
    newest: list[dict[str, Any]] = []
    for obj in _newest_first(lines):
        newest.append(obj)
        payload = obj.get("payload")
        if (
            obj.get("type") == "event_msg"
            and isinstance(payload, dict)
            and payload.get("type") == "task_started"
            and (turn_id is None or payload.get("turn_id") == turn_id)
        ):
            return newest[::-1]
    return []


def _unwrap_hook_prompt(text: str) -> str:
    start = text.find(">") + 1
    end = text.rfind("</hook_prompt>")
    return text[start:end] if 0 < start <= end else text


def _codex(objects: list[dict[str, Any]]) -> TurnLog | None:
    """The turn of `objects`, which start with its `task_started` line."""
    if not objects:
        return None
    prompt: str | None = None
    continuations: list[str] = []
    texts: list[str] = []
    calls: list[tuple[str, TranscriptCall]] = []
    outputs: dict[str, str] = {}
    for obj in objects[1:]:
        payload = obj.get("payload")
        if not isinstance(payload, dict):
            continue
        kind = payload.get("type")
        if obj.get("type") == "event_msg":
            if kind == "task_started":
                break  # the next turn
            item = payload.get("item") if kind == "item_completed" else None
            if isinstance(item, dict) and item.get("type") == "UserMessage" and prompt is None:
                prompt = _parts_text(item.get("content"))
            continue
        if obj.get("type") != "response_item":
            continue
        if kind == "message" and payload.get("role") == "user":
            said = _parts_text(payload.get("content"))
            if said.startswith(_HOOK_PROMPT):
                continuations.append(_unwrap_hook_prompt(said))
                texts = []
            elif prompt is None and not said.startswith("<"):
                prompt = said
        elif kind == "message" and payload.get("role") == "assistant":
            said = _parts_text(payload.get("content"))
            if said:
                texts.append(said)
        elif kind in ("function_call", "custom_tool_call"):
            raw = payload.get("arguments") if kind == "function_call" else payload.get("input")
            call = TranscriptCall(str(payload.get("name") or ""), _load(raw) if raw else {})
            calls.append((str(payload.get("call_id") or ""), call))
        elif kind in ("function_call_output", "custom_tool_call_output"):
            output = payload.get("output")
            outputs[str(payload.get("call_id") or "")] = (
                output if isinstance(output, str) else json.dumps(output)
            )
    tools = tuple(
        TranscriptCall(call.name, call.input, outputs.get(call_id)) for call_id, call in calls
    )
    return TurnLog(prompt, tuple(continuations), tuple(texts), tools)


# --- Gemini CLI -----------------------------------------------------------------------------


def gemini_turn(path: str | os.PathLike[str] | None, prompt: str | None = None) -> TurnLog | None:
    """The current turn of the Gemini chat at `path`: it opens at the last user text
    message equal to `prompt` (the AfterAgent payload's `prompt`; compared without
    surrounding whitespace), or with no `prompt` at the last user text message."""
    wanted = prompt.strip() if prompt is not None else None
    # the prompt as Gemini writes it inside a JSON string (None: any user message)
    needle = json.dumps(wanted, ensure_ascii=False)[1:-1] if wanted else '"type":"user"'
    return _read(
        path,
        needle.encode("utf-8", "replace"),
        lambda lines: _gemini(_messages_since_opener(lines, wanted)),
    )


def _opens(message: dict[str, Any], wanted: str | None) -> bool:
    """Whether `message` is the user message that opens the turn."""
    said = _user_text(message)
    if said is None or (said.strip() == GEMINI_NUDGE and wanted != GEMINI_NUDGE):
        return False
    return wanted is None or said.strip() == wanted


def _messages_since_opener(lines: list[bytes], wanted: str | None) -> list[dict[str, Any]]:
    """The chat's messages from the turn's opening user message to the end, in order, the
    last copy of each id winning ([] when the turn does not open in `lines`). Read from
    the end, so only the turn's own lines are parsed; a `$set` of `messages` is the whole
    list as it stood then, so the search goes on inside it and no further back."""
    seen: set[str] = set()
    newest: list[dict[str, Any]] = []

    def take(message: Any) -> bool:
        """Keep `message` (unless a later copy was kept); True when it opens the turn."""
        if not isinstance(message, dict) or not isinstance(message.get("type"), str):
            return False
        key = message.get("id")
        if isinstance(key, str):
            if key in seen:
                return False
            seen.add(key)
        newest.append(message)
        return _opens(message, wanted)

    for obj in _newest_first(lines):
        update = obj.get("$set")
        if not isinstance(update, dict):
            if take(obj):
                return newest[::-1]
            continue
        listed = update.get("messages")
        if isinstance(listed, list):
            for message in reversed(listed):
                if take(message):
                    return newest[::-1]
            return []
    return []


def _user_text(message: dict[str, Any]) -> str | None:
    """The text of a user message that says something (None for tool results)."""
    if message.get("type") != "user":
        return None
    content = message.get("content")
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        return None
    parts = [p for p in content if isinstance(p, dict)]
    if not parts or not all(isinstance(p.get("text"), str) for p in parts):
        return None
    return "".join(p["text"] for p in parts)


def _gemini(messages: list[dict[str, Any]]) -> TurnLog | None:
    """The turn of `messages`, which start with its opening user message."""
    if not messages:
        return None
    continuations: list[str] = []
    texts: list[str] = []
    calls: list[TranscriptCall] = []
    for message in messages[1:]:
        said = _user_text(message)
        if said is not None:
            if said.strip() != GEMINI_NUDGE:
                continuations.append(said)
                texts = []
            continue
        if message.get("type") != "gemini":
            continue
        content = message.get("content")
        text = content if isinstance(content, str) else _parts_text(content)
        if text:
            texts.append(text)
        for call in message.get("toolCalls") or []:
            if isinstance(call, dict):
                args = call.get("args")
                calls.append(
                    TranscriptCall(
                        str(call.get("name") or ""),
                        args if isinstance(args, dict) else {},
                        _gemini_output(call.get("result")),
                    )
                )
    first = _user_text(messages[0]) or ""
    return TurnLog(first, tuple(continuations), tuple(texts), tuple(calls))


def _gemini_output(result: Any) -> str | None:
    if not isinstance(result, list):
        return None
    outputs = []
    for part in result:
        response = part.get("functionResponse") if isinstance(part, dict) else None
        body = response.get("response") if isinstance(response, dict) else None
        if isinstance(body, dict):
            value = body.get("output", body.get("error", body))
            outputs.append(value if isinstance(value, str) else json.dumps(value))
    return "\n".join(outputs) if outputs else None
