"""The OpenAI-compatible provider: Chat Completions with a JSON Schema response format.

Works with OpenAI and with local servers speaking its API (Ollama, vLLM, llama.cpp)
through `base_url`. The answer is the message content; the schema goes in
`response_format` as `json_schema` (servers that only honour JSON mode still get the
schema in the system prompt's wording, and the answer is validated either way). The
SDK is imported when the model is built; SDK retries are off.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from coachloop.judge.prompt import ANSWER_TOOL
from coachloop.judge.providers import Turn
from coachloop.judge.providers._common import model_errors

if TYPE_CHECKING:
    import openai
    from openai.types.chat import ChatCompletionMessageParam

__all__ = ["OpenAIModel", "to_messages"]


def to_messages(system: str, turns: Sequence[Turn]) -> list[ChatCompletionMessageParam]:
    """The chat messages: the system prompt, then the turns in order."""
    messages: list[ChatCompletionMessageParam] = [{"role": "system", "content": system}]
    for turn in turns:
        if turn.role == "assistant":
            messages.append({"role": "assistant", "content": turn.text or "(empty answer)"})
        else:
            messages.append({"role": "user", "content": turn.text})
    return messages


class OpenAIModel:
    """A `Model` on the OpenAI Chat Completions API (or a compatible local server)."""

    def __init__(self, model: str, api_key: str, base_url: str | None = None) -> None:
        import openai  # optional extra: imported only when used

        self.model = model
        self._sdk = openai
        self._client: openai.OpenAI = openai.OpenAI(
            api_key=api_key, base_url=base_url, max_retries=0
        )

    @property
    def name(self) -> str:
        return f"openai:{self.model}"

    def complete(
        self, system: str, turns: Sequence[Turn], schema: Mapping[str, Any], timeout: float
    ) -> str:
        """The reply's content (or its first tool call's arguments when it has no content)."""
        with model_errors(self._sdk, self._sdk.OpenAIError, timeout):
            completion = self._client.chat.completions.create(
                model=self.model,
                messages=to_messages(system, turns),
                response_format={
                    "type": "json_schema",
                    "json_schema": {"name": ANSWER_TOOL, "schema": dict(schema), "strict": True},
                },
                timeout=timeout,
            )
        if not completion.choices:
            return ""
        message = completion.choices[0].message
        if message.content:
            return message.content
        for call in message.tool_calls or []:
            if call.type == "function":
                return call.function.arguments
        return ""
