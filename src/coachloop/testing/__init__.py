"""Test support shipped with coachloop: a scripted model API server.

`ScriptedModel` is a local HTTP server speaking the Anthropic Messages API (JSON and
SSE streaming) and the OpenAI Chat Completions API, answering from a script of
replies, HTTP failures and delays, and recording every request. It drives the real
`anthropic` and `openai` SDKs, and the real Claude Code binary
(`ANTHROPIC_BASE_URL=model.base_url`), without any network access.

    from coachloop.testing import ScriptedModel, Fail, Delay, text, tool_use

    with ScriptedModel([text("hello"), Fail(529)], side_call="Title") as model:
        ...  # point a client at model.base_url (OpenAI: model.openai_base_url)
        assert model.model_requests[0].json["model"] == "claude-haiku-4-5"
"""

from __future__ import annotations

from coachloop.testing.anthropic_wire import tool_results
from coachloop.testing.replies import (
    Block,
    Delay,
    Fail,
    RecordedRequest,
    Reply,
    Responder,
    ScriptItem,
    Step,
    TextBlock,
    ToolUseBlock,
    reply,
    text,
    tool_use,
)
from coachloop.testing.server import ScriptedModel, SideRule

__all__ = [
    "Block",
    "Delay",
    "Fail",
    "RecordedRequest",
    "Reply",
    "Responder",
    "ScriptItem",
    "ScriptedModel",
    "SideRule",
    "Step",
    "TextBlock",
    "ToolUseBlock",
    "reply",
    "text",
    "tool_results",
    "tool_use",
]
