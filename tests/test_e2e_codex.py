"""End to end: the real Codex CLI (npm `@openai/codex`, `codex exec`) on the package's
scripted model (the OpenAI Responses API), with coachloop's hooks installed by
`coachloop install --agent codex`, in a throw-away git project with a tiny Python package
and its tests. The same stories as `test_e2e_claude_code.py`; the model requests the
scripted model received are the ground truth of what Codex sent the model.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cli_e2e_support import PYTEST, CodexSandbox
from coachloop.testing import Fail, Reply, ScriptedModel, ScriptItem, text, tool_use
from coachloop.testing.responses_wire import function_outputs, input_texts

HEDGE = "Done! I fixed the rounding in `add()` in `calc.py`. It should work now."
QUESTION = "Should `add()` also accept strings, or only numbers?"
PROMPT = "The tests in test_calc.py fail sometimes; fix add() in calc.py."


@pytest.fixture
def sandbox(tmp_path: Path, agent_clis: dict[str, Path]) -> Iterator[CodexSandbox]:
    yield CodexSandbox(tmp_path, agent_clis["codex"])


def evidenced(body: dict[str, Any]) -> ScriptItem:
    """The model's answer after running the tests: it quotes the real tool output."""
    output = function_outputs(body)[-1].split("Output:\n", 1)[-1].strip()
    return text(f"Fixed `add()` in `calc.py`. I ran the tests:\n\n```\n$ {PYTEST}\n{output}\n```")


def coaching_sent(body: dict[str, Any]) -> list[str]:
    """The Stop-hook reasons Codex handed the model (`<hook_prompt>` user messages)."""
    return [t for t in input_texts(body) if t.startswith("<hook_prompt")]


def decisions(sandbox: CodexSandbox, session: str) -> list[str]:
    return [str(r.decision) for r in sandbox.stops(session)]


def test_a_hedge_is_coached_the_tests_run_and_the_evidence_is_delivered_once(
    sandbox: CodexSandbox,
) -> None:
    script = [text(HEDGE), tool_use("exec_command", {"cmd": PYTEST}), evidenced]
    with ScriptedModel(script) as model:
        sandbox.configure(model)
        sandbox.install("codex", "--user")
        run = sandbox.run(PROMPT)
        requests = [r.json for r in model.model_requests]
    assert run.returncode == 0 and model.errors == [], run.stderr
    session = sandbox.thread(run)
    assert len(requests) == 3  # the hedge, the test run, the evidenced answer
    [continued, delivered] = sandbox.stops(session)
    assert (continued.decision, delivered.decision) == ("continue", "deliver")
    # the coaching quotes the hedge and reached the model as the next instruction
    assert "should work now" in continued.message.lower()
    assert coaching_sent(requests[0]) == []
    [sent] = coaching_sent(requests[1])
    assert continued.message in sent
    # Codex really ran the tests and sent their output back
    [output] = function_outputs(requests[2])
    assert re.search(r"\b2 passed\b", output), output
    # the evidenced answer was delivered once, alone (no hedge, no note)
    final = sandbox.messages(run)[-1]
    assert final.startswith("Fixed") and "2 passed" in final
    assert delivered.verdict_type == "completion" and delivered.job_id == continued.job_id
    assert sandbox.outbox(session) == [final]
    # the human's prompt came through the UserPromptSubmit hook, once
    humans = [r for r in sandbox.timeline(session) if r.kind == "human"]
    assert [h.text for h in humans] == [PROMPT]


# The tests ran before the hedge, so the answer that pastes their output without a new
# tool call holds up against the turn's record (a run that never happened would not).
RUN_FIRST = [tool_use("exec_command", {"cmd": PYTEST}), text(HEDGE), evidenced]


def run_first_turn(sandbox: CodexSandbox, *, project_scope: bool = False) -> None:
    """`RUN_FIRST` in one `codex exec`, coachloop installed for the user (and, with
    `project_scope`, in the trusted project too): asserts the hedge is continued once and
    the evidenced answer then delivered once."""
    with ScriptedModel(RUN_FIRST) as model:
        sandbox.configure(model, trust_project=project_scope)
        sandbox.install("codex", "--user")
        if project_scope:
            sandbox.install("codex", "--project")
        run = sandbox.run(PROMPT)
        requests = [r.json for r in model.model_requests]
    session = sandbox.thread(run)
    assert run.returncode == 0 and len(requests) == 3
    assert decisions(sandbox, session) == ["continue", "deliver"]
    final = evidenced(requests[2])
    assert isinstance(final, Reply) and sandbox.outbox(session) == [final.text]


def test_b_a_hedge_answered_without_a_tool_call_is_delivered_once(sandbox: CodexSandbox) -> None:
    run_first_turn(sandbox)


def test_c_a_question_is_delivered_at_once(sandbox: CodexSandbox) -> None:
    with ScriptedModel([text(QUESTION)]) as model:
        sandbox.configure(model)
        sandbox.install("codex", "--user")
        run = sandbox.run(PROMPT)
        requests = model.model_requests
    session = sandbox.thread(run)
    assert run.returncode == 0 and len(requests) == 1
    assert decisions(sandbox, session) == ["deliver"]
    assert sandbox.stops(session)[0].verdict_type == "question"
    assert sandbox.outbox(session) == [QUESTION]


def test_d_an_empty_turn_is_an_error_delivered_and_never_continued(sandbox: CodexSandbox) -> None:
    # Codex sends `last_assistant_message: null`; the rollout holds nothing since the
    # prompt either, so the stop is empty: an error, delivered, never continued
    with ScriptedModel([Reply(())], default=text("unexpected")) as model:
        sandbox.configure(model)
        sandbox.install("codex", "--user")
        run = sandbox.run(PROMPT)
        requests = model.model_requests
    session = sandbox.thread(run)
    assert len(requests) == 1  # no continuation request
    [stop] = sandbox.stops(session)
    assert (stop.decision, stop.verdict_type) == ("deliver", "error")
    [delivered] = sandbox.outbox(session)
    assert delivered.startswith("[coachloop] The agent stopped") and "empty" in delivered


def test_d_a_model_api_failure_fires_no_hook_and_is_never_continued(
    sandbox: CodexSandbox,
) -> None:
    with ScriptedModel([Fail(400)], default=text("unexpected")) as model:
        sandbox.configure(model)
        sandbox.install("codex", "--user")
        run = sandbox.run(PROMPT)
        requests = model.model_requests
    assert run.returncode != 0 and len(requests) == 1  # Codex reports it; no retry
    session = sandbox.thread(run)
    assert sandbox.stops(session) == []  # Codex fires no Stop hook for a failed turn


def never_stops_hedging() -> Any:
    count = iter(range(1, 100))

    def hedge(body: dict[str, Any]) -> ScriptItem:
        return text(f"Attempt {next(count)}: I tweaked `add()` again. It should work now.")

    return hedge


def test_e_a_human_prompt_resets_the_cap(sandbox: CodexSandbox) -> None:
    with ScriptedModel([], default=never_stops_hedging()) as model:
        sandbox.configure(model)
        sandbox.install("codex", "--user")
        first = sandbox.run(PROMPT)
        session = sandbox.thread(first)
        second = sandbox.run("Please try once more.", resume=session)
        requests = [r.json for r in model.model_requests]
    assert first.returncode == second.returncode == 0
    assert sandbox.thread(second) == session and len(requests) == 8
    assert [len(coaching_sent(r)) for r in requests] == [0, 1, 2, 3, 3, 4, 5, 6]
    kinds = [r.kind if r.kind != "stop" else str(r.decision) for r in sandbox.timeline(session)]
    turn = ["human", "continue", "continue", "continue", "deliver"]
    assert kinds == turn + turn
    delivered = sandbox.outbox(session)
    assert len(delivered) == 2 and all("cap reached" in d for d in delivered)
    assert delivered[1].startswith("Attempt 8:")


def test_f_both_scopes_installed_give_one_decision_per_stop(sandbox: CodexSandbox) -> None:
    # Codex runs both files' hooks: two calls per stop, one decision; the second call is the
    # same stop (same payload digest) and gets the recorded answer, never a second decision
    run_first_turn(sandbox, project_scope=True)


def test_g_doctor_and_the_real_codex_agree_on_hook_trust(sandbox: CodexSandbox) -> None:
    from coachloop.install.codex_trust import handler_hash

    with ScriptedModel([], default=text(QUESTION)) as model:
        sandbox.configure(model)
        sandbox.install("codex", "--user")
        report = sandbox.doctor("codex")
        assert not report["ok"]
        assert any("hooks: they are not trusted yet" in p for p in report["problems"])
        untrusted = sandbox.run(PROMPT, bypass=False)
        assert untrusted.returncode == 0 and sandbox.sessions() == []  # skipped silently
        # trust it the way Codex records it (what /hooks in the TUI writes)
        hooks_path = sandbox.codex_home / "hooks.json"
        hooks = __import__("json").loads(hooks_path.read_text())["hooks"]
        config = sandbox.codex_home / "config.toml"
        lines = []
        for event, label in (("Stop", "stop"), ("UserPromptSubmit", "user_prompt_submit")):
            digest = handler_hash(event, hooks[event][0]["hooks"][0])
            lines += [f'[hooks.state."{hooks_path}:{label}:0:0"]', f'trusted_hash = "{digest}"']
        config.write_text(config.read_text() + "\n" + "\n".join(lines) + "\n")
        assert sandbox.doctor("codex")["ok"]
        trusted = sandbox.run(PROMPT, bypass=False)
    session = sandbox.thread(trusted)
    assert sandbox.sessions() == [session] and decisions(sandbox, session) == ["deliver"]
