"""The Anthropic provider: structured output by forcing one tool.

The answer schema is the `input_schema` of a single tool (`ANSWER_TOOL`) and
`tool_choice` forces it, so the answer is the tool_use block's `input`, returned as a
JSON text. On a retry the invalid answer is replayed as that tool call and the
validation error goes back as its `tool_result` with `is_error`. The SDK is imported
when the model is built (ImportError when missing); SDK retries are off so that a
failure falls back at once.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from coachloop.judge.prompt import ANSWER_TOOL
from coachloop.judge.providers import Turn
from coachloop.judge.providers._common import model_errors

if TYPE_CHECKING:
    import anthropic
    from anthropic.types import MessageParam

__all__ = ["AnthropicModel", "to_messages"]

MAX_TOKENS = 1024
_DESCRIPTION = "Record the verdict on the agent's final message."


def _as_object(text: str) -> dict[str, Any] | None:
    try:
        value = json.loads(text)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def to_messages(turns: Sequence[Turn]) -> list[MessageParam]:
    """Anthropic messages for `turns`: an assistant JSON object becomes a call of the
    answer tool, and the user turn after it that call's error result."""
    messages: list[MessageParam] = []
    pending: str | None = None
    for number, turn in enumerate(turns):
        if turn.role == "assistant":
            answer = _as_object(turn.text)
            if answer is None:
                messages.append({"role": "assistant", "content": turn.text or "(empty answer)"})
                pending = None
            else:
                pending = f"toolu_coachloop_retry_{number}"
                messages.append(
                    {
                        "role": "assistant",
                        "content": [
                            {
                                "type": "tool_use",
                                "id": pending,
                                "name": ANSWER_TOOL,
                                "input": answer,
                            }
                        ],
                    }
                )
        elif pending is not None:
            messages.append(
                {
                    "role": "user",
                    "content": [
                        {
                            "type": "tool_result",
                            "tool_use_id": pending,
                            "content": turn.text,
                            "is_error": True,
                        }
                    ],
                }
            )
            pending = None
        else:
            messages.append({"role": "user", "content": turn.text})
    return messages


class AnthropicModel:
    """A `Model` on the Anthropic Messages API (or any server speaking it)."""

    def __init__(self, model: str, api_key: str, base_url: str | None = None) -> None:
        import anthropic  # optional extra: imported only when used

        self.model = model
        self._sdk = anthropic
        self._client: anthropic.Anthropic = anthropic.Anthropic(
            api_key=api_key, base_url=base_url, max_retries=0
        )

    @property
    def name(self) -> str:
        return f"anthropic:{self.model}"

    def complete(
        self, system: str, turns: Sequence[Turn], schema: Mapping[str, Any], timeout: float
    ) -> str:
        """The forced tool call's input as JSON (or the reply's text if no tool was called)."""
        with model_errors(self._sdk, self._sdk.AnthropicError, timeout):
            message = self._client.messages.create(
                model=self.model,
                max_tokens=MAX_TOKENS,
                system=system,
                messages=to_messages(turns),
                tools=[
                    {"name": ANSWER_TOOL, "description": _DESCRIPTION, "input_schema": dict(schema)}
                ],
                tool_choice={"type": "tool", "name": ANSWER_TOOL},
                timeout=timeout,
            )
        texts: list[str] = []
        for block in message.content:
            if block.type == "tool_use" and block.name == ANSWER_TOOL:
                return json.dumps(block.input)
            if block.type == "text":
                texts.append(block.text)
        return "".join(texts)
