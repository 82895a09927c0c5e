"""Writers of Codex CLI rollout files and Gemini CLI chat files, line for line in the shapes
the real CLIs write (Codex CLI 0.169, Gemini CLI 0.61: seen in the files of the real-binary
tests, `test_e2e_codex.py` and `test_e2e_gemini.py`), for tests of the readers and adapters
that need a turn no real run produces cheaply (huge, truncated, odd)."""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


def _line(obj: dict[str, Any]) -> str:
    return json.dumps(obj, separators=(",", ":")) + "\n"


@dataclass
class Rollout:
    """A Codex rollout file being written: `turn()` opens a turn, then the items."""

    path: Path
    session: str = field(default_factory=lambda: str(uuid.uuid4()))
    _n: int = 0

    def __post_init__(self) -> None:
        meta = {"id": self.session, "session_id": self.session, "cli_version": "0.169.0"}
        self._write("session_meta", meta)

    def _write(self, kind: str, payload: dict[str, Any]) -> None:
        self._n += 1
        stamp = f"2026-01-01T00:00:{self._n % 60:02d}.000Z"
        obj = {"timestamp": stamp, "ordinal": self._n, "type": kind, "payload": payload}
        with self.path.open("a", encoding="utf-8") as fh:
            fh.write(_line(obj))

    def _item(self, payload: dict[str, Any]) -> None:
        self._write("response_item", payload)

    def turn(self, turn_id: str, prompt: str) -> Rollout:
        self._write("event_msg", {"type": "task_started", "turn_id": turn_id})
        context = "<environment_context>\n  <cwd>/p</cwd>\n</environment_context>"
        self._item(
            {
                "type": "message",
                "role": "user",
                "content": [{"type": "input_text", "text": context}],
            }
        )
        self._item(
            {"type": "message", "role": "user", "content": [{"type": "input_text", "text": prompt}]}
        )
        item = {"type": "UserMessage", "content": [{"type": "text", "text": prompt}]}
        self._write("event_msg", {"type": "item_completed", "turn_id": turn_id, "item": item})
        return self

    def say(self, text: str) -> Rollout:
        content = [{"type": "output_text", "text": text, "annotations": []}]
        self._item({"type": "message", "role": "assistant", "content": content})
        return self

    def hook_prompt(self, reason: str) -> Rollout:
        text = f'<hook_prompt hook_run_id="stop:0:/h/hooks.json">{reason}</hook_prompt>'
        self._item(
            {"type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]}
        )
        return self

    def shell(self, cmd: str, output: str | None, call_id: str = "call_1") -> Rollout:
        arguments = json.dumps({"cmd": cmd})
        call = {"type": "function_call", "name": "exec_command", "arguments": arguments}
        self._item({**call, "call_id": call_id})
        if output is not None:
            self._item({"type": "function_call_output", "call_id": call_id, "output": output})
        return self


@dataclass
class Chat:
    """A Gemini chat file being written: messages, and rewrites of a message by id."""

    path: Path
    _n: int = 0

    def __post_init__(self) -> None:
        header = {"sessionId": str(uuid.uuid4()), "projectHash": "0" * 64, "kind": "main"}
        context = {"id": "ctx", "type": "user", "content": [{"text": "<session_context>…"}]}
        self._raw(header)
        self._raw({"$set": {"messages": [context]}})

    def _raw(self, obj: dict[str, Any]) -> None:
        with self.path.open("a", encoding="utf-8") as fh:
            fh.write(_line(obj))

    def _message(self, kind: str, content: Any, **more: Any) -> str:
        self._n += 1
        key = more.pop("id", f"m{self._n}")
        self._raw(
            {
                "id": key,
                "timestamp": "2026-01-01T00:00:00Z",
                "type": kind,
                "content": content,
                **more,
            }
        )
        self._raw({"$set": {"lastUpdated": "2026-01-01T00:00:00Z"}})
        return str(key)

    def user(self, text: str) -> Chat:
        self._message("user", [{"text": text}])
        return self

    def gemini(self, text: str) -> Chat:
        self._message("gemini", text, model="gemini-scripted")
        return self

    def shell(self, command: str, output: str) -> Chat:
        key = self._message("gemini", "", model="gemini-scripted")
        response = {"id": "c1", "name": "run_shell_command", "response": {"output": output}}
        call = {"id": "c1", "name": "run_shell_command", "args": {"command": command}}
        call["result"] = [{"functionResponse": response}]
        self._message("gemini", "", id=key, model="gemini-scripted", toolCalls=[call])
        self._message("user", [{"functionResponse": response}])
        return self
