"""The LLM coach through the real anthropic and openai SDKs against the scripted model:
structured output, one retry on an invalid answer, and approvals the evidence overrides."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from coachloop.duel.coaches import LLMCoach, make_coach
from coachloop.duel.instructions import COACH_INSTRUCTIONS
from coachloop.duel.orchestrator import DuelConfig, DuelResult, run_duel
from coachloop.duel.players import CommandPlayer
from coachloop.judge.prompt import ANSWER_TOOL
from coachloop.testing import Fail, ScriptedModel, text, tool_use
from duel_support import TWO_TURN_PLAYER, fast_pytest, make_project, write_player

APPROVE = {"decision": "approve", "rationale": "Meets the spec.", "items": [], "severity": "minor"}
BAD_APPROVE = {
    "decision": "approve",
    "rationale": "Mostly fine.",
    "items": [
        {
            "severity": "critical",
            "issue": "add() subtracts",
            "action": "Use +.",
            "location": "calc.py:2",
        }
    ],
    "severity": "critical",
}
FEEDBACK = {
    "decision": "feedback",
    "rationale": "add() subtracts; tests/test_calc.py::test_add fails.",
    "items": [
        {
            "severity": "critical",
            "issue": "tests/test_calc.py::test_add fails: add subtracts",
            "action": "Return a + b in calc.add.",
            "location": "calc.py:2",
        }
    ],
    "severity": "critical",
}


@pytest.fixture(autouse=True)
def _env(monkeypatch: pytest.MonkeyPatch) -> None:
    fast_pytest(monkeypatch)
    monkeypatch.setenv("ANTHROPIC_API_KEY", "test-key")
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")


def _duel(tmp_path: Path, coach: Any, max_turns: int = 2) -> DuelResult:
    project = make_project(tmp_path)
    player = CommandPlayer(write_player(tmp_path, TWO_TURN_PLAYER))
    config = DuelConfig(
        project, project / "REQUIREMENTS.md", task_id="L", max_turns=max_turns, coverage=False
    )
    return run_duel(config, player, coach)


def test_invalid_answer_is_retried_with_the_error_then_the_duel_is_approved(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    script = [
        tool_use(ANSWER_TOOL, BAD_APPROVE),
        tool_use(ANSWER_TOOL, FEEDBACK),
        tool_use(ANSWER_TOOL, APPROVE),
    ]
    with ScriptedModel(script) as model:
        monkeypatch.setenv("ANTHROPIC_BASE_URL", model.base_url)
        coach = make_coach("anthropic:claude-coach-test", tmp_path)
        assert isinstance(coach, LLMCoach) and coach.name == "anthropic:claude-coach-test"
        result = _duel(tmp_path, coach)
        requests = model.model_requests
    assert result.outcome == "approved" and result.exit_code == 0
    assert [t.decision.decision for t in result.turns] == ["feedback", "approve"]
    assert result.turns[0].decision.coach_decision == "feedback"
    assert result.turns[0].coach_reply is not None and result.turns[0].coach_reply.attempts == 2
    assert len(requests) == 3
    first, retry, second_turn = (r.json for r in requests)
    assert first["model"] == "claude-coach-test"
    assert first["system"] == COACH_INSTRUCTIONS
    assert first["tool_choice"] == {"type": "tool", "name": ANSWER_TOOL}
    schema = first["tools"][0]["input_schema"]
    assert schema["required"] == ["decision", "rationale", "items", "severity"]
    prompt = first["messages"][0]["content"]
    assert "tests/test_calc.py::test_add" in prompt and "status: failed" in prompt
    assert "Write `calc.add(a, b)`" in prompt  # the requirements
    error_result = retry["messages"][-1]["content"][0]
    assert error_result["type"] == "tool_result" and error_result["is_error"] is True
    assert "cannot have a critical issue" in error_result["content"]
    assert "status: passed" in second_turn["messages"][0]["content"]


def test_an_llm_approval_is_overridden_while_the_tests_fail(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with ScriptedModel([tool_use(ANSWER_TOOL, APPROVE)] * 2) as model:
        monkeypatch.setenv("ANTHROPIC_BASE_URL", model.base_url)
        result = _duel(tmp_path, make_coach("anthropic", tmp_path))
    first, second = result.turns
    assert first.decision.coach_decision == "approve"
    assert first.decision.decision == "feedback"
    assert first.decision.items[0].location == "tests/test_calc.py::test_add"
    assert any("tests/test_calc.py::test_add fails" in o for o in first.decision.overrides)
    written = json.loads((result.root / "coordination/coach/turn_1/decision.json").read_text())
    assert written["decision"] == "feedback" and written["coach_decision"] == "approve"
    assert second.decision.decision == "approve" and result.outcome == "approved"


def test_two_invalid_answers_or_a_failed_call_end_in_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with ScriptedModel([text("Looks good to me!"), text("Approved.")]) as model:
        monkeypatch.setenv("ANTHROPIC_BASE_URL", model.base_url)
        result = _duel(tmp_path / "a", make_coach("anthropic", tmp_path))
        assert len(model.model_requests) == 2
    assert result.outcome == "error" and "no JSON object" in result.reason
    assert result.turns[0].decision.decision == "feedback"
    with ScriptedModel([Fail(500)]) as model:
        monkeypatch.setenv("ANTHROPIC_BASE_URL", model.base_url)
        failed = _duel(tmp_path / "b", make_coach("anthropic", tmp_path))
    assert failed.outcome == "error" and "HTTP 500" in failed.reason


def test_the_openai_compatible_provider(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with ScriptedModel([text(json.dumps(FEEDBACK)), text(json.dumps(APPROVE))]) as model:
        monkeypatch.setenv("OPENAI_BASE_URL", model.openai_base_url)
        result = _duel(tmp_path, make_coach("openai:gpt-coach", tmp_path))
        body = model.model_requests[0].json
    assert result.outcome == "approved"
    assert body["model"] == "gpt-coach"
    assert body["response_format"]["json_schema"]["schema"]["additionalProperties"] is False
