"""The LLM judge end to end: real anthropic/openai SDKs against the scripted server."""

from __future__ import annotations

import json
import sys
import time
from typing import Any

import pytest

from coachloop.coach import PREFIX, Coach
from coachloop.config import Settings
from coachloop.core.judge_input import JudgeInput
from coachloop.judge import make_judge
from coachloop.judge.base import Judge
from coachloop.judge.llm import LLMJudge, build_llm_judge
from coachloop.judge.pipeline import Pipeline
from coachloop.judge.prompt import ANSWER_TOOL, SYSTEM_PROMPT, clip
from coachloop.judge.rules import RulesJudge
from coachloop.judge.schema import AnswerError, answer_schema, parse_answer
from coachloop.testing import Delay, Fail, Reply, ScriptedModel, text, tool_use

KEY_ENV = "COACHLOOP_TEST_LLM_KEY"
HEDGED = "Fixed the login bug. It should work now, probably."
ITEM = JudgeInput(
    text=HEDGED,
    prompt="Fix the login bug reported in issue 12",
    skill="/do-build",
    phase="build",
    plan_file="docs/plans/login.md",
)


@pytest.fixture
def key(monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv(KEY_ENV, "test-key")
    return "test-key"


def answer(kind: str = "completion", confidence: float = 0.95, **extra: Any) -> dict[str, Any]:
    return {
        "type": kind,
        "confidence": confidence,
        "reason": f"judged {kind}",
        "coaching_message": None,
        "rejected_completion": False,
        **extra,
    }


def call(data: dict[str, Any]) -> Reply:
    """The forced tool call an Anthropic model answers with."""
    return tool_use(ANSWER_TOOL, data)


def settings(server: ScriptedModel, judge: str = "anthropic", **kw: Any) -> Settings:
    base = server.openai_base_url if judge.startswith("openai") else server.base_url
    return Settings(judge=judge, llm_base_url=base, llm_api_key_env=KEY_ENV, **kw)


def judge_with(server: ScriptedModel, judge: str = "anthropic", **kw: Any) -> Judge:
    return build_llm_judge(settings(server, judge, **kw), fallback=RulesJudge())


def user_text(request_json: dict[str, Any]) -> str:
    content = request_json["messages"][0]["content"]
    return content if isinstance(content, str) else content[0]["text"]


def test_one_call_carries_the_prompt_context_and_forced_tool(key: str) -> None:
    with ScriptedModel([call(answer())]) as model:
        verdict = judge_with(model).judge(ITEM)
        [request] = model.requests
    body = request.json
    assert body["model"] == "claude-haiku-4-5"
    assert body["system"] == SYSTEM_PROMPT
    for kind in ("question", "status", "completion", "blocker", "error"):
        assert f"- {kind}:" in body["system"]
    # The conventions learned from real messages reach the model: requests to the human
    # without "?" are questions, the agent's own account and stream failures are errors.
    assert "is a question even without a question mark" in body["system"]
    assert "usage limit" in body["system"] and "stream disconnected" in body["system"]
    # and the later ones: a placeholder called done is rejected, a reproduction's failure
    # is its result, the harness's retry lines are errors
    assert "calls a placeholder done" in body["system"]
    assert "asked for a reproduction" in body["system"] and "Retrying in" in body["system"]
    # and a request the next step waits on, a harness line closing the message, a TODO
    assert "the agent's next step waits on" in body["system"]
    assert "closes a message that narrated work" in body["system"]
    assert "stand-in said to be temporary" in body["system"]
    assert body["tools"] == [
        {
            "name": ANSWER_TOOL,
            "description": body["tools"][0]["description"],
            "input_schema": answer_schema(),
        }
    ]
    assert body["tool_choice"] == {"type": "tool", "name": ANSWER_TOOL}
    user = user_text(body)
    for fragment in (
        HEDGED,
        "Fix the login bug reported in issue 12",
        "/do-build",
        "Workflow phase: build",
        "docs/plans/login.md",
        "Event: Stop",
    ):
        assert fragment in user
    sent = request.headers.get("x-api-key") or request.headers["authorization"]
    assert sent.removeprefix("Bearer ") == key
    assert (verdict.type, verdict.source, verdict.route) == ("completion", "llm", "deliver")
    assert verdict.confidence == 0.95 and verdict.coaching_message is None


def test_long_text_is_cut_to_head_and_tail(key: str) -> None:
    long = "HEAD-START " + "x" * 20_000 + " TAIL-END"
    with ScriptedModel([call(answer())]) as model:
        judge_with(model, max_text_chars=1000).judge(JudgeInput(text=long))
        user = user_text(model.requests[0].json)
    assert "HEAD-START" in user and "TAIL-END" in user
    assert f"[… {len(long) - 1000:,} characters cut …]" in user
    assert "x" * 1000 not in user and len(user) < 2000
    assert clip("short", 1000) == "short"


def test_invalid_answer_is_retried_with_the_validation_error(key: str) -> None:
    bad = answer("done", confidence=0.9)
    good = answer("status", 0.9, coaching_message="Run the tests.", rejected_completion=True)
    with ScriptedModel([call(bad), call(good)]) as model:
        verdict = judge_with(model).judge(ITEM)
        first, second = (r.json for r in model.requests)
    assert verdict.source == "llm" and verdict.type == "status"
    assert verdict.rejected_completion and verdict.coaching_message == "Run the tests."
    assert len(second["messages"]) == 3 and second["messages"][0] == first["messages"][0]
    replayed = second["messages"][1]["content"][0]
    assert replayed["type"] == "tool_use" and replayed["input"] == bad
    result = second["messages"][2]["content"][0]
    assert result["type"] == "tool_result" and result["is_error"] is True
    assert result["tool_use_id"] == replayed["id"]
    assert "Your answer was invalid" in result["content"]
    assert "type: Input should be 'question'" in result["content"]


def test_second_invalid_answer_falls_back_to_the_rules(key: str) -> None:
    with ScriptedModel([call(answer(confidence=7)), text("no JSON here"), call(answer())]) as model:
        verdict = judge_with(model).judge(ITEM)
        assert model.remaining == 1 and len(model.requests) == 2
    assert verdict.source == "rules"
    assert "invalidly twice" in verdict.reason and "not a JSON object" in verdict.reason


@pytest.mark.parametrize("status", [500, 529, 401])
def test_http_errors_fall_back_without_retrying(key: str, status: int) -> None:
    with ScriptedModel([Fail(status), call(answer())]) as model:
        verdict = judge_with(model).judge(ITEM)
        assert len(model.requests) == 1  # SDK retries are off
    assert verdict.source == "rules" and f"HTTP {status}" in verdict.reason


def test_timeout_falls_back_fast(key: str) -> None:
    with ScriptedModel([Delay(5, call(answer()))]) as model:
        started = time.monotonic()
        verdict = judge_with(model, llm_timeout=0.5).judge(ITEM)
        elapsed = time.monotonic() - started
        assert len(model.requests) == 1
    assert verdict.source == "rules" and "timeout" in verdict.reason
    assert elapsed < 2.5


def test_no_key_falls_back_without_any_request() -> None:
    with ScriptedModel([call(answer())]) as model:
        for judge in (
            judge_with(model),
            build_llm_judge(Settings(judge="anthropic", llm_base_url=model.base_url), RulesJudge()),
        ):
            verdict = judge.judge(ITEM)
            assert verdict.source == "rules" and "no API key" in verdict.reason
        assert model.requests == []


def test_missing_sdk_and_unknown_provider_fall_back(
    key: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    with ScriptedModel([call(answer())]) as model:
        with monkeypatch.context() as patch:
            patch.setitem(sys.modules, "anthropic", None)  # import anthropic → ImportError
            missing = judge_with(model).judge(ITEM)
        unknown = judge_with(model, judge="gemini").judge(ITEM)
        assert model.requests == []
    assert missing.source == "rules" and "SDK is not installed" in missing.reason
    assert unknown.source == "rules" and "unknown judge provider" in unknown.reason


def test_low_confidence_becomes_a_delivered_question(key: str) -> None:
    low = answer("status", 0.55, coaching_message="Keep going.", rejected_completion=True)
    with ScriptedModel([call(low)]) as model:
        verdict = Pipeline(judge_with(model), Coach()).judge(ITEM)
    assert (verdict.type, verdict.route, verdict.source) == ("question", "deliver", "llm")
    assert verdict.coaching_message is None and not verdict.rejected_completion
    assert "low confidence" in verdict.reason and "status" in verdict.reason
    assert verdict.confidence == 0.55


def test_threshold_comes_from_settings(key: str) -> None:
    with ScriptedModel([call(answer(confidence=0.6))]) as model:
        verdict = judge_with(model, confidence_threshold=0.5).judge(ITEM)
    assert verdict.type == "completion"


def test_rejected_completion_is_coached_by_the_pipeline(key: str) -> None:
    coaching = 'You wrote "It should work now, probably": run the login tests and show the output.'
    rejected = answer("status", 0.92, coaching_message=coaching, rejected_completion=True)
    with ScriptedModel([call(rejected)]) as model:
        verdict = Pipeline(judge_with(model), Coach()).judge(ITEM)
    assert (verdict.type, verdict.route, verdict.source) == ("status", "continue", "llm")
    assert verdict.rejected_completion
    assert verdict.coaching_message == f"{PREFIX} {coaching}"


def test_make_judge_uses_the_llm_and_drops_coaching_on_delivery(key: str) -> None:
    done = answer("completion", 0.9, coaching_message="stray coaching")
    with ScriptedModel([call(done)]) as model:
        verdict = make_judge(settings(model, "anthropic:claude-custom")).judge(ITEM)
        assert model.requests[0].json["model"] == "claude-custom"
    assert verdict.source == "llm" and verdict.coaching_message is None


def test_signals_decide_before_any_model_call(key: str) -> None:
    with ScriptedModel([call(answer())]) as model:
        verdict = make_judge(settings(model)).judge(JudgeInput(text="   "))
        assert model.requests == []
    assert verdict.source == "signal" and verdict.type == "error"


def test_openai_provider_round_trip_and_retry(key: str) -> None:
    fenced = "```json\n" + json.dumps(answer("blocker", 0.9)) + "\n```"
    with ScriptedModel(["I think it is a blocker.", fenced]) as model:
        verdict = judge_with(model, "openai", model="llama3.1:8b").judge(ITEM)
        first, second = (r.json for r in model.requests)
        assert model.requests[0].path == "/v1/chat/completions"
    assert (verdict.type, verdict.source) == ("blocker", "llm")
    assert first["model"] == "llama3.1:8b"
    assert first["messages"][0] == {"role": "system", "content": SYSTEM_PROMPT}
    assert "/do-build" in first["messages"][1]["content"]
    assert first["response_format"]["type"] == "json_schema"
    assert first["response_format"]["json_schema"]["schema"] == answer_schema()
    assert second["messages"][2] == {"role": "assistant", "content": "I think it is a blocker."}
    assert "not a JSON object" in second["messages"][3]["content"]


def test_openai_local_server_needs_no_key_and_errors_fall_back() -> None:
    with ScriptedModel([json.dumps(answer()), Fail(503)]) as model:
        judge = build_llm_judge(
            Settings(judge="openai", llm_base_url=model.openai_base_url), RulesJudge()
        )
        assert judge.judge(ITEM).source == "llm"
        assert judge.judge(ITEM).source == "rules"
        assert model.requests[0].headers["authorization"] == "Bearer not-needed"


def test_parse_answer_contract() -> None:
    assert parse_answer('Here: {"type": "error", "confidence": 1, "reason": "r"}').type == "error"
    assert parse_answer({**answer(), "extra": 1}).type == "completion"
    with pytest.raises(AnswerError, match="confidence"):
        parse_answer(answer(confidence=1.5))
    with pytest.raises(AnswerError, match="JSON object"):
        parse_answer("[1, 2]")
    schema = answer_schema()
    assert schema["additionalProperties"] is False
    assert set(schema["required"]) == {
        "type",
        "confidence",
        "reason",
        "coaching_message",
        "rejected_completion",
    }
    assert isinstance(LLMJudge(None, RulesJudge()).judge(ITEM).reason, str)


def test_the_prompt_states_the_offline_rules_lessons() -> None:
    # what the offline rules learned from real and blind messages, said to the LLM judge too
    for lesson in (
        "without a question mark",  # requests to the human
        "Model provided invalid arguments",  # the agent tool's own error lines
        "<attempt_completion>",  # Cline's answer tags hold its message
        'the failure is the "before"',  # a bug reproduced, then fixed
        "Next steps on your",  # the human's steps are not work under way
        "inside a word of inline",  # a reply cut off mid-token
        "litellm.RateLimitError",  # a harness's failed model call
        "once the key is in .env",  # a blocker, though the agent says what it does next
        "only when the task is about what that check reports",  # a lint run as evidence
        "or I'll schedule it for tonight",  # a request the agent's fallback hangs on
        "is not a run",  # a count said after a failing run does not make it the "before"
        "on a word that wants more",  # cut off on a conjunction or a coverb
        "as soon as you approve",  # a next step gated on the human's approval
        "mid-program inside a",  # a reply cut off inside the code block it opened
        "only the account holder can take",  # a step of someone else's
        "the limit resets around 7pm",  # the agent's own usage, said casually
        "The next step is yours",  # a request phrased as a statement
        "waves the failure away",  # done beside a failing last run
        "routing around them",  # --no-verify, skipped tests, continue-on-error, "|| true"
        'throws "not implemented yet"',  # a stand-in in the code shown
        "any language",
    ):
        assert lesson in SYSTEM_PROMPT, lesson
