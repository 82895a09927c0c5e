"""One Claude Code turn through the Claude Agent SDK (`claude_agent_sdk.query`).

`ClaudeAgentSDK` is the `Agent` seam of `coachloop.runners.claude_cli.ClaudeCode`, driven by
the SDK instead of a hand-made subprocess: same binary (`cli_path`, the bundled one by
default), same settings (the project's `.claude/settings.json`, plus `settings`), same
`TurnResult`. The SDK's messages are kept as stream-json-like dicts in
`TurnResult.events` (`{"type": "user" | "assistant" | "system" | "result", ...}`).

The prompt is streamed as one message and the input is held open until `after_result`
has returned, for the same reason as in the CLI runner: asynchronous hooks (StopFailure)
must not be cut short by the agent's exit.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import re
from collections.abc import AsyncIterator, Mapping
from pathlib import Path
from typing import Any, Unpack

from coachloop.runners.claude_cli import ClaudeOptions, ClaudeRunnerBase
from coachloop.runners.claude_env import find_claude
from coachloop.runners.turn import (
    AfterResult,
    TurnError,
    TurnResult,
    TurnTimeoutError,
    result_from_message,
    user_message,
)

__all__ = ["ClaudeAgentSDK", "sdk_event"]

_TYPES = {
    "UserMessage": "user",
    "AssistantMessage": "assistant",
    "SystemMessage": "system",
    "ResultMessage": "result",
}


def _block_type(block: object) -> str:
    """A content block's stream-json type: `ToolUseBlock` -> "tool_use"."""
    name = type(block).__name__.removesuffix("Block")
    return re.sub(r"(?<=[a-z])(?=[A-Z])", "_", name).lower()


def sdk_event(message: object) -> dict[str, Any]:
    """An SDK message as a stream-json-like dict (`type`, and for user and assistant
    messages `message.content` as a list of block dicts typed as in stream-json:
    "text", "tool_use", "tool_result", "thinking")."""
    kind = _TYPES.get(type(message).__name__, type(message).__name__)
    data: dict[str, Any] = (
        dataclasses.asdict(message)
        if dataclasses.is_dataclass(message) and not isinstance(message, type)
        else {}
    )
    if kind in ("user", "assistant"):
        content = data.pop("content", "")
        blocks = getattr(message, "content", content)
        if not isinstance(blocks, str):
            content = [
                {"type": _block_type(b), **dataclasses.asdict(b)}
                if dataclasses.is_dataclass(b) and not isinstance(b, type)
                else b
                for b in blocks
            ]
        data["message"] = {"role": kind, "content": content}
    data["type"] = kind
    return data


class ClaudeAgentSDK(ClaudeRunnerBase):
    """Claude Code through the Claude Agent SDK, in `project` (an `Agent`).

    Arguments as for `ClaudeCode`, except that `env` is laid over this process's
    environment (the SDK's rule) instead of replacing it; `options` are extra
    `ClaudeAgentOptions` fields.
    Raises `TurnError` when the SDK raises or no result arrives, `TurnTimeoutError` after
    `timeout` seconds. `run_turn` runs its own event loop; inside one, await `arun_turn`.
    """

    def __init__(
        self,
        project: Path | str,
        *,
        options: Mapping[str, Any] | None = None,
        **claude_options: Unpack[ClaudeOptions],
    ) -> None:
        super().__init__(project, **claude_options)
        self.options = dict(options or {})

    def _options(self, resume: str | None) -> Any:
        from claude_agent_sdk import ClaudeAgentOptions

        settings = self.settings
        if settings is not None and not isinstance(settings, str | Path):
            settings = json.dumps(settings)
        fields: dict[str, Any] = {
            "cwd": str(self.project),
            "cli_path": str(self.claude or find_claude()),
            "allowed_tools": list(self.allowed_tools),
            "resume": resume,
            "settings": str(settings) if settings is not None else None,
            "env": dict(self.env or {}),
        }
        fields.update(self.options)
        return ClaudeAgentOptions(**fields)

    def run_turn(
        self, prompt: str, *, resume: str | None = None, after_result: AfterResult | None = None
    ) -> TurnResult:
        """Run one turn; see `Agent.run_turn`."""
        return asyncio.run(self.arun_turn(prompt, resume=resume, after_result=after_result))

    async def arun_turn(
        self, prompt: str, *, resume: str | None = None, after_result: AfterResult | None = None
    ) -> TurnResult:
        """`run_turn` for callers already inside an event loop."""
        events: list[dict[str, Any]] = []
        try:
            async with asyncio.timeout(self.timeout):
                return await self._turn(prompt, resume, after_result, events)
        except TimeoutError:
            raise TurnTimeoutError(
                f"the turn took longer than {self.timeout:g} s",
                session_id=_session(events),
                events=tuple(events),
            ) from None
        except TurnError:
            raise
        except ImportError as exc:  # the `claude` extra is not installed
            from coachloop.core.extras import install_hint

            raise TurnError(
                "--sdk needs the Claude Agent SDK, which is not installed: "
                f"{install_hint('claude')} (or run without --sdk)",
                session_id=None,
                events=(),
            ) from exc
        except Exception as exc:  # the SDK's own errors: process, JSON decode, ...
            raise TurnError(
                f"the Claude Agent SDK failed: {exc}",
                session_id=_session(events),
                events=tuple(events),
            ) from exc

    async def _turn(
        self,
        prompt: str,
        resume: str | None,
        after_result: AfterResult | None,
        events: list[dict[str, Any]],
    ) -> TurnResult:
        from claude_agent_sdk import ResultMessage, query

        done = asyncio.Event()

        async def one_prompt() -> AsyncIterator[dict[str, Any]]:
            yield user_message(prompt)
            await done.wait()  # hold the input open until the result has been handled

        turn: TurnResult | None = None
        try:
            async for message in query(prompt=one_prompt(), options=self._options(resume)):
                events.append(sdk_event(message))
                if isinstance(message, ResultMessage) and turn is None:
                    turn = result_from_message(events[-1], tuple(events))
                    if after_result is not None:
                        await asyncio.to_thread(after_result, turn)
                    done.set()
        except Exception:
            # The SDK raises once the agent exits non-zero after an error result; the
            # result itself is what the caller needs.
            if turn is None:
                raise
        finally:
            done.set()
        if turn is None:
            raise TurnError(
                "the agent ended without a result",
                session_id=_session(events),
                events=tuple(events),
            )
        return turn


def _session(events: list[dict[str, Any]]) -> str | None:
    for event in events:
        sid = event.get("session_id") or (event.get("data") or {}).get("session_id")
        if sid:
            return str(sid)
    return None
