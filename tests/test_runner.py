"""The headless runner: stream-json parsing, the real Claude Code through the CLI and the
Claude Agent SDK against the scripted model, the supervised runner without our hooks,
and `coachloop run` as a real process."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from coachloop.runners.claude_cli import ClaudeCode
from coachloop.runners.claude_env import hook_settings, offline_env
from coachloop.runners.sdk import ClaudeAgentSDK
from coachloop.runners.turn import (
    TurnError,
    TurnTimeoutError,
    parse_stream,
    request_feedback,
)
from coachloop.testing import Delay, Fail, ScriptedModel, text, tool_use
from e2e_support import CALC, RUN_TESTS, TEST_CALC, Sandbox, decisions, evidenced, tool_results

HEDGE = "I changed `add()` in `calc.py`. It should work now."
COACHLOOP = [sys.executable, "-m", "coachloop"]


def line(**fields: Any) -> str:
    return json.dumps(fields)


# --- parsing ----------------------------------------------------------------------------


def test_parse_stream_reads_the_result_and_the_hook_feedback() -> None:
    lines = [
        line(type="system", subtype="init", session_id="s-1"),
        "not json",
        "",
        line(type="assistant", message={"content": [{"type": "text", "text": HEDGE}]}),
        line(
            type="user",
            message={"content": [{"type": "text", "text": "Stop hook feedback:\nRun it."}]},
        ),
        line(
            type="result",
            subtype="success",
            is_error=False,
            session_id="s-1",
            result="done",
            total_cost_usd=0.25,
            num_turns=2,
            duration_ms=1500,
            usage={"input_tokens": 100, "output_tokens": 20, "cache_read_input_tokens": 5},
            uuid="u-1",
        ),
        line(type="system", subtype="after"),
    ]
    turn = parse_stream(lines)
    assert (turn.session_id, turn.result, turn.cost_usd, turn.num_turns) == ("s-1", "done", 0.25, 2)
    assert turn.tokens == 125 and turn.uuid == "u-1" and turn.error is None
    assert turn.hook_blocks == ["Run it."]
    assert len(turn.events) == 4  # the non-JSON lines are skipped; reading stops at result


def test_a_failed_model_call_is_an_error_turn_named_by_its_status() -> None:
    turn = parse_stream(
        [
            line(
                type="result",
                subtype="success",
                is_error=True,
                session_id="s-2",
                result="API Error: 529 Overloaded",
                terminal_reason="api_error",
                api_error_status=529,
            )
        ]
    )
    assert turn.is_error and turn.error == "api_error 529" and turn.cost_usd is None


def test_no_result_raises_with_the_session_that_was_started() -> None:
    with pytest.raises(TurnError) as caught:
        parse_stream([line(type="system", subtype="init", session_id="s-3")])
    assert caught.value.session_id == "s-3" and len(caught.value.events) == 1


def test_request_feedback_reads_only_the_user_messages_of_a_request() -> None:
    body = {
        "messages": [
            {"role": "user", "content": "Stop hook feedback:\nfirst"},
            {"role": "assistant", "content": [{"type": "text", "text": "Stop hook feedback:\nx"}]},
            {"role": "user", "content": [{"type": "text", "text": "Stop hook feedback:\nsecond"}]},
            {"role": "system", "content": "Stop hook blocking error from command: …"},
        ]
    }
    assert request_feedback(body) == ["first", "second"]
    assert request_feedback({}) == []


def test_request_feedback_reads_the_system_reminder_form_of_newer_claude_code() -> None:
    # Claude Code 2.1.331 sends a Stop hook's reason wrapped this way (its transcript and
    # stream-json still carry the plain "Stop hook feedback:" form)
    lead = "The text below is the output of a hook, not a message from the user."
    wrapped = (
        f"<system-reminder>\n{lead}\nStop hook feedback:\nRun it.\nShow it.\n</system-reminder>"
    )
    body = {
        "messages": [
            {"role": "user", "content": wrapped},
            {"role": "user", "content": [{"type": "text", "text": wrapped.replace("Run", "Do")}]},
            {"role": "user", "content": "<system-reminder>\nNo hook here.\n</system-reminder>"},
            {"role": "user", "content": "<system-reminder>\nSee: Stop hook feedback:\nx"},
        ]
    }
    assert request_feedback(body) == ["Run it.\nShow it.", "Do it.\nShow it."]


# --- the real Claude Code ---------------------------------------------------------------


def test_cli_runner_executes_a_scripted_tool_call_and_resumes_the_session(
    tmp_path: Path,
) -> None:
    project = tmp_path / "plain"
    project.mkdir()
    script = [tool_use("Bash", {"command": "echo marker-$((6*7))"}), text("It printed 42."), "ok"]
    with ScriptedModel(script, side_call="Title") as model:
        agent = ClaudeCode(project, env=offline_env(model.base_url, tmp_path / "home"), timeout=60)
        first = agent.run_turn("Print the marker.")
        second = agent.run_turn("And now?", resume=first.session_id)
        bodies = [r.json for r in model.model_requests]
    assert first.result == "It printed 42." and not first.is_error and first.num_turns == 2
    assert first.cost_usd is not None and first.cost_usd > 0 and first.hook_blocks == []
    assert list(tool_results(bodies[1])) == ["marker-42"]  # really executed by Claude Code
    assert second.session_id == first.session_id and second.result == "ok"
    history = json.dumps(bodies[2]["messages"])  # the resumed turn carries the first one
    assert "Print the marker." in history and "marker-42" in history


def test_sdk_runner_runs_the_same_turn_with_our_hooks_from_settings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = tmp_path / "sdk"
    project.mkdir()
    (project / "calc.py").write_text(CALC)
    (project / "test_calc.py").write_text(TEST_CALC)
    monkeypatch.setenv("COACHLOOP_STORE", str(tmp_path / "store.db"))
    script = [text(HEDGE), RUN_TESTS, evidenced]
    with ScriptedModel(script, side_call="Title") as model:
        env = offline_env(model.base_url, tmp_path / "home", extra={"COACHLOOP_HOOK_DAEMON": "0"})
        agent = ClaudeAgentSDK(project, settings=hook_settings(), env=env, timeout=60)
        turn = agent.run_turn("Fix add().")
        bodies = [r.json for r in model.model_requests]
    [coaching] = turn.hook_blocks
    assert "should work now" in coaching.lower()
    assert request_feedback(bodies[1]) == [coaching]
    assert turn.result.startswith("Fixed `add()`") and "2 passed in" in turn.result
    assert not turn.is_error and turn.session_id


def test_a_turn_over_its_time_limit_is_killed(tmp_path: Path) -> None:
    with ScriptedModel([Delay(60, "late")], side_call="Title") as model:
        agent = ClaudeCode(tmp_path, env=offline_env(model.base_url, tmp_path / "home"), timeout=4)
        started = time.monotonic()
        with pytest.raises(TurnTimeoutError) as caught:
            agent.run_turn("Wait.")
        assert time.monotonic() - started < 15
    assert isinstance(caught.value, TimeoutError)
    assert caught.value.session_id  # it had started a session


def test_a_missing_binary_is_a_turn_error(tmp_path: Path) -> None:
    with pytest.raises(TurnError, match="cannot start"):
        ClaudeCode(tmp_path, claude=tmp_path / "no-claude").run_turn("hi")


# --- judged by the runner when our hooks are not installed ------------------------------


def test_without_our_hooks_the_runner_records_the_prompt_and_judges_the_result(
    tmp_path: Path,
) -> None:
    sandbox = Sandbox(tmp_path)
    (sandbox.project / ".claude" / "settings.json").unlink()  # no hooks in this project
    with ScriptedModel([text(HEDGE), Fail(500)], side_call="Title") as model:
        runner = sandbox.runner(model)
        hedged = runner.run("Fix add().")
        failed = runner.run("Try again.", resume=hedged.turn.session_id)
    session = hedged.turn.session_id
    assert hedged.by == "runner" and hedged.turn.hook_blocks == []
    assert hedged.decision.kind == "continue" and "should work now" in hedged.decision.text.lower()
    assert failed.by == "runner" and failed.turn.is_error
    assert failed.verdict.type == "error" and failed.decision.kind == "deliver"
    timeline = sandbox.timeline(session)
    assert [r.kind for r in timeline] == ["human", "stop", "human", "stop"]
    assert decisions([r for r in timeline if r.kind == "stop"]) == ["continue", "deliver"]
    store = sandbox.store()
    try:
        assert store.get_session(session).status == "failed"
    finally:
        store.close()


# --- coachloop run ----------------------------------------------------------------------


def coachloop_run(sandbox: Sandbox, model: ScriptedModel, *args: str) -> Any:
    return subprocess.run(
        [*COACHLOOP, "run", *args],
        cwd=sandbox.project,
        env=sandbox.env(model),
        input="",
        capture_output=True,
        text=True,
        timeout=90,
        check=False,
    )


def test_coachloop_run_prints_the_session_result_cost_and_verdict(tmp_path: Path) -> None:
    sandbox = Sandbox(tmp_path)
    script = [text(HEDGE), RUN_TESTS, evidenced, text("Should I also add `sub()`?")]
    with ScriptedModel(script, side_call="Title") as model:
        first = coachloop_run(sandbox, model, "--json", "Fix add().")
        assert first.returncode == 0, first.stderr
        data = json.loads(first.stdout)
        second = coachloop_run(sandbox, model, "--resume", data["session_id"], "Anything else?")
        third = coachloop_run(sandbox, model, "--resume", data["session_id"], "-")
    assert data["result"].startswith("Fixed `add()`") and "2 passed in" in data["result"]
    assert data["cost_usd"] > 0 and len(data["hook_blocks"]) == 1
    assert data["verdict"]["type"] == "completion" and data["decision"]["kind"] == "deliver"
    assert data["decided_by"] == "hook"
    assert second.returncode == 0, second.stderr
    out = second.stdout
    assert f"session   {data['session_id']}" in out and "cost      $" in out
    assert "verdict   question" in out and "decision  deliver (by the hook)" in out
    assert third.returncode == 2 and "prompt is empty" in third.stderr  # "-" with no stdin


def test_coachloop_run_exits_1_on_a_failed_turn_and_2_without_claude(tmp_path: Path) -> None:
    sandbox = Sandbox(tmp_path)
    with ScriptedModel([Fail(529)], side_call="Title") as model:
        failed = coachloop_run(sandbox, model, "Fix add().")
        missing = subprocess.run(
            [*COACHLOOP, "run", "hi"],
            cwd=sandbox.project,
            env={**sandbox.env(model), "COACHLOOP_CLAUDE": str(tmp_path / "none")},
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
    assert failed.returncode == 1, failed.stderr
    assert "verdict   error" in failed.stdout and "decision  deliver" in failed.stdout
    assert missing.returncode == 2 and "COACHLOOP_CLAUDE" in missing.stderr
