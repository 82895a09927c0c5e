"""End to end: the real Gemini CLI (npm `@google/gemini-cli`, `gemini -p`) on the
package's scripted model (the Gemini API at `GOOGLE_GEMINI_BASE_URL`), with coachloop's
AfterAgent hook installed by `coachloop install --agent gemini`, in a throw-away git
project with a tiny Python package and its tests. The same stories as
`test_e2e_claude_code.py`; the model requests the scripted model received are the ground
truth of what Gemini sent the model.

Two of them failed before coachloop read Gemini's stops from its chat file: after a tool
call the evidenced answer arrives with `stop_hook_active: false` and was dropped as "not
the reply to the continued job" (test a); `prompt_response` stacks the hedge and the
answer, and judging the stack coached the hedge again up to the cap (test b).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cli_e2e_support import PYTEST, GeminiSandbox
from coachloop.testing import Fail, ScriptedModel, ScriptItem, text, tool_use
from coachloop.testing.gemini_wire import function_responses, user_texts

HEDGE = "Done! I fixed the rounding in `add()` in `calc.py`. It should work now."
QUESTION = "Should `add()` also accept strings, or only numbers?"
PROMPT = "The tests in test_calc.py fail sometimes; fix add() in calc.py."
PASTED = (
    "Fixed `add()` in `calc.py`. I ran the tests:\n\n```\n$ pytest -q\n..\n2 passed in 0.02s\n```"
)


@pytest.fixture
def sandbox(tmp_path: Path, agent_clis: dict[str, Path]) -> Iterator[GeminiSandbox]:
    yield GeminiSandbox(tmp_path, agent_clis["gemini"])


def shell_output(body: dict[str, Any]) -> str:
    """What Gemini CLI's shell tool returned, as the model saw it."""
    [response] = function_responses(body)[-1:]
    return str(response.get("output", response))


def evidenced(body: dict[str, Any]) -> ScriptItem:
    """The model's answer after running the tests: it quotes the real tool output."""
    found = re.search(r"Output: (.*?)\nExit Code", shell_output(body), re.DOTALL)
    output = found.group(1).strip() if found else shell_output(body)
    return text(f"Fixed `add()` in `calc.py`. I ran the tests:\n\n```\n$ {PYTEST}\n{output}\n```")


def decisions(sandbox: GeminiSandbox, session: str) -> list[str]:
    return [str(r.decision) for r in sandbox.stops(session)]


def test_a_hedge_is_coached_the_tests_run_and_the_evidence_is_delivered_once(
    sandbox: GeminiSandbox,
) -> None:
    script = [text(HEDGE), tool_use("run_shell_command", {"command": PYTEST}), evidenced]
    with ScriptedModel(script) as model:
        sandbox.install("gemini", "--user")
        run = sandbox.run(model, PROMPT)
        requests = [r.json for r in model.model_requests]
    assert run.returncode == 0 and model.errors == [], run.stderr
    session = sandbox.result(run)["session_id"]
    assert len(requests) == 3  # the hedge, the test run, the evidenced answer
    [continued, delivered] = sandbox.stops(session)
    assert (continued.decision, delivered.decision) == ("continue", "deliver")
    # the coaching quotes the hedge and reached the model as the next user message
    assert "should work now" in continued.message.lower()
    assert continued.message not in user_texts(requests[0])
    assert user_texts(requests[1])[-1] == continued.message
    # Gemini really ran the tests and sent their output back
    assert re.search(r"\b2 passed\b", shell_output(requests[2]))
    # the evidenced answer (Gemini said stop_hook_active: false) was delivered once,
    # alone: not the hedge stacked before it
    final = evidenced(requests[2])
    assert isinstance(final, type(text(""))) and delivered.text == final.text
    assert delivered.verdict_type == "completion" and delivered.job_id == continued.job_id
    assert sandbox.outbox(session) == [final.text]
    humans = [r for r in sandbox.timeline(session) if r.kind == "human"]
    assert [h.text for h in humans] == [PROMPT]


def test_b_a_hedge_answered_without_a_tool_call_is_judged_alone_and_delivered_once(
    sandbox: GeminiSandbox,
) -> None:
    # The tests ran before the hedge, so the answer that pastes their output without a new
    # tool call holds up against the turn's record (a run that never happened would not).
    script = [tool_use("run_shell_command", {"command": PYTEST}), text(HEDGE), evidenced]
    with ScriptedModel(script, default=text(PASTED)) as model:
        # both scopes installed: Gemini runs the identical handler once per stop
        sandbox.install("gemini", "--user")
        sandbox.install("gemini", "--project")
        run = sandbox.run(model, PROMPT)
        requests = [r.json for r in model.model_requests]
    session = sandbox.result(run)["session_id"]
    assert run.returncode == 0 and len(requests) == 3
    assert decisions(sandbox, session) == ["continue", "deliver"]  # one hook call per stop
    final = evidenced(requests[2])
    assert isinstance(final, type(text(""))) and sandbox.outbox(session) == [final.text]


def test_c_a_question_is_delivered_at_once(sandbox: GeminiSandbox) -> None:
    with ScriptedModel([text(QUESTION)], default=text("unexpected")) as model:
        sandbox.install("gemini", "--project")  # in a folder Gemini trusts
        assert sandbox.doctor("gemini")["ok"]
        run = sandbox.run(model, PROMPT)
        requests = model.model_requests
    session = sandbox.result(run)["session_id"]
    assert run.returncode == 0 and len(requests) == 1
    assert decisions(sandbox, session) == ["deliver"]
    assert sandbox.stops(session)[0].verdict_type == "question"
    assert sandbox.outbox(session) == [QUESTION]


def test_d_a_model_api_failure_fires_no_hook_and_is_never_continued(
    sandbox: GeminiSandbox,
) -> None:
    with ScriptedModel([Fail(400)], default=text("unexpected")) as model:
        sandbox.install("gemini", "--user")
        run = sandbox.run(model, PROMPT)
        requests = model.model_requests
    assert run.returncode != 0 and len(requests) == 1  # a 400 is not retried
    assert sandbox.sessions() == []  # Gemini fires no AfterAgent for a failed turn


def never_stops_hedging() -> Any:
    count = iter(range(1, 100))

    def hedge(body: dict[str, Any]) -> ScriptItem:
        return text(f"Attempt {next(count)}: I tweaked `add()` again. It should work now.")

    return hedge


def test_e_a_human_prompt_resets_the_cap(sandbox: GeminiSandbox) -> None:
    with ScriptedModel([], default=never_stops_hedging()) as model:
        sandbox.install("gemini", "--user")
        first = sandbox.run(model, PROMPT)
        session = sandbox.result(first)["session_id"]
        second = sandbox.run(model, "Please try once more.", resume=session)
        requests = model.model_requests
    assert first.returncode == second.returncode == 0, second.stderr
    assert sandbox.result(second)["session_id"] == session and len(requests) == 8
    kinds = [r.kind if r.kind != "stop" else str(r.decision) for r in sandbox.timeline(session)]
    turn = ["human", "continue", "continue", "continue", "deliver"]
    assert kinds == turn + turn
    delivered = sandbox.outbox(session)
    assert [d.split(":")[0] for d in delivered] == ["Attempt 4", "Attempt 8"]  # each alone
    assert all("cap reached" in d and d.count("Attempt") == 1 for d in delivered)


def test_g_doctor_and_the_real_gemini_agree_on_folder_trust_and_disabled_hooks(
    sandbox: GeminiSandbox,
) -> None:
    # (test c: in a trusted folder doctor says OK and the project's hook runs)
    with ScriptedModel([], default=text(QUESTION)) as model:
        sandbox.install("gemini", "--project")
        sandbox.trust(None)  # no rule: headless needs --skip-trust, which drops the project
        report = sandbox.doctor("gemini")
        assert any("does not trust" in p for p in report["problems"]), report
        skipped = sandbox.run(model, PROMPT, "--skip-trust")
        sandbox.trust("TRUST_FOLDER")
        settings = sandbox.project / ".gemini" / "settings.json"
        data = json.loads(settings.read_text())
        data["hooksConfig"] = {"disabled": ["coachloop"]}  # what /hooks disable writes
        settings.write_text(json.dumps(data))
        report = sandbox.doctor("gemini")
        assert [p for p in report["problems"] if "hooksConfig.disabled" in p], report
        disabled = sandbox.run(model, PROMPT)
    assert skipped.returncode == disabled.returncode == 0
    assert len(model.model_requests) == 2 and sandbox.sessions() == []  # no hook ran
