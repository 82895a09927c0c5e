"""The coach as a deepagents subagent: today's SubAgent shape, and a real deep agent
built with it and run offline on fake chat models (no network), whose coach really runs
the coach tools and answers a validated structured decision."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
from deepagents import create_deep_agent
from langchain_core.language_models import LanguageModelInput
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, BaseMessage, ToolMessage
from langchain_core.runnables import Runnable
from langchain_core.tools import BaseTool

from coachloop.duel.decision import CoachAnswer, parse_answer
from coachloop.duel.deepagents_coach import DEFAULT_MODEL, create_coach_subagent
from coachloop.duel.instructions import COACH_INSTRUCTIONS
from duel_support import fast_pytest, make_project


class ToolCallingFake(GenericFakeChatModel):
    """GenericFakeChatModel that accepts tools (the agent binds them) and records the
    conversation it was shown at each call."""

    bound: list[list[str]] = []  # noqa: RUF012 - pydantic field, replaced per instance
    seen: list[list[BaseMessage]] = []  # noqa: RUF012

    def bind_tools(
        self,
        tools: Sequence[dict[str, Any] | type | Callable[..., Any] | BaseTool],
        *,
        tool_choice: str | None = None,
        **kwargs: Any,
    ) -> Runnable[LanguageModelInput, AIMessage]:
        self.bound.append([getattr(t, "name", "") or str(t) for t in tools])
        return self

    def _generate(self, messages: list[BaseMessage], *args: Any, **kwargs: Any) -> Any:
        self.seen.append(list(messages))
        return super()._generate(messages, *args, **kwargs)


def _call(name: str, args: dict[str, Any], call_id: str) -> AIMessage:
    return AIMessage(content="", tool_calls=[{"name": name, "args": args, "id": call_id}])


def test_the_subagent_has_todays_shape() -> None:
    subagent = create_coach_subagent()
    assert set(subagent) == {
        "name",
        "description",
        "system_prompt",
        "tools",
        "model",
        "response_format",
    }
    assert subagent["name"] == "coach" and subagent["model"] == DEFAULT_MODEL
    assert subagent["system_prompt"].startswith(COACH_INSTRUCTIONS)
    assert subagent["response_format"] is CoachAnswer
    names = [t.name for t in subagent["tools"]]  # type: ignore[union-attr]
    assert names == [
        "run_all_tests",
        "run_specific_tests",
        "check_coverage",
        "diff_changes",
        "validate_json_schema",
    ]
    assert create_coach_subagent(model="openai:gpt-x")["model"] == "openai:gpt-x"


def test_a_deep_agent_delegates_to_the_coach_offline(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fast_pytest(monkeypatch)
    project = make_project(
        tmp_path,
        files={
            "calc.py": "def add(a, b):\n    return a - b\n",
            "tests/test_calc.py": "from calc import add\n\n\ndef test_add():\n"
            "    assert add(2, 3) == 5\n",
        },
    )
    invalid = {"decision": "approve", "rationale": "fine", "severity": "critical", "items": []}
    feedback = {
        "decision": "feedback",
        "rationale": "tests/test_calc.py::test_add fails",
        "items": [
            {
                "severity": "critical",
                "issue": "test_add fails: add subtracts",
                "action": "Return a + b.",
                "location": "calc.py:2",
            }
        ],
        "severity": "critical",
    }
    coach_model = ToolCallingFake(
        messages=iter(
            [
                _call("run_all_tests", {}, "call_tests"),
                _call("CoachAnswer", invalid, "call_bad"),  # refused: approve + critical
                _call("CoachAnswer", feedback, "call_answer"),
            ]
        ),
        bound=[],
        seen=[],
    )
    main_model = ToolCallingFake(
        messages=iter(
            [
                _call(
                    "task",
                    {
                        "description": "Review the player's turn 1 in this project.",
                        "subagent_type": "coach",
                    },
                    "call_task",
                ),
                AIMessage(content="The coach asked for changes."),
            ]
        ),
        bound=[],
        seen=[],
    )
    agent = create_deep_agent(
        model=main_model,
        subagents=[create_coach_subagent(model=coach_model, project=project)],
    )
    out = agent.invoke({"messages": [{"role": "user", "content": "Review turn 1."}]})

    # The coach ran the real test suite and saw the failure.
    tool_results = [m for m in coach_model.seen[1] if isinstance(m, ToolMessage)]
    assert "FAILED tests/test_calc.py::test_add" in str(tool_results[-1].content)
    assert "run_all_tests" in coach_model.bound[0] and "CoachAnswer" in coach_model.bound[0]
    # The inconsistent answer was sent back with the validation error.
    refusal = [m for m in coach_model.seen[2] if isinstance(m, ToolMessage)][-1]
    assert "cannot have a critical issue" in str(refusal.content), refusal.content
    # The main agent received the structured decision as the task's result.
    task_result = next(
        m for m in out["messages"] if isinstance(m, ToolMessage) and m.tool_call_id == "call_task"
    )
    decision = parse_answer(json.loads(str(task_result.content)))
    assert decision.decision == "feedback" and decision.items[0].location == "calc.py:2"
    assert out["messages"][-1].content == "The coach asked for changes."
