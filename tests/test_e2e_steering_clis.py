"""End to end: the human steers a running turn of the real Codex CLI and the real Gemini
CLI (their hooks offer no point before the stop: the message reaches the agent there).

The scripted model holds its second answer until the test queued a human message with
the real `coachloop say`: the message is queued while the agent's turn runs. At the next
stop our hook sends the agent back with it, before any judging, and the model's next
request carries it: Codex as a `<hook_prompt>` message, Gemini as the next user message.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from cli_e2e_support import CodexSandbox, GeminiSandbox, Sandbox
from coachloop.testing import ScriptedModel, ScriptItem, text

PROMPT = "The tests in test_calc.py fail sometimes; fix add() in calc.py."
HEDGE = "I changed `add()` in `calc.py`. It should work now."
STILL = "Still on it: I changed `add()` again. It should work now."
STEER = "Also keep add() working for floats, please."
QUESTION = "Floats too: should 0.1 + 0.2 round to 0.3, or stay exact?"


def steered_then(sandbox: Sandbox, answer: ScriptItem, seen: dict[str, Any]) -> Callable[..., Any]:
    def step(body: dict[str, Any]) -> ScriptItem:
        (session,) = sandbox.sessions()
        with sandbox.store() as store:
            seen["continues_before"] = store.get_session(session).continues
        seen["say"] = sandbox.coachloop("say", session, STEER, check=False)
        return answer

    return step


def check(sandbox: Sandbox, session: str, requests: list[Any], seen: dict[str, Any]) -> None:
    assert seen["say"].returncode == 0, seen["say"].stdout + seen["say"].stderr
    assert seen["continues_before"] == 1
    assert len(requests) == 3
    assert f"[Human] {STEER}" not in json.dumps(requests[1])
    assert f"[Human] {STEER}" in json.dumps(requests[2])  # the very next request
    stops = sandbox.stops(session)
    assert [s.decision for s in stops] == ["continue", "continue", "deliver"]
    assert stops[1].source == "steering" and stops[1].message == f"[Human] {STEER}"
    assert stops[1].verdict is None  # handed over before any judging
    with sandbox.store() as store:
        state = store.get_session(session)
    assert state.continues == 0 and state.steering == () and state.context.prompt == STEER


def test_codex_gets_the_message_at_its_next_stop(
    tmp_path: Path, agent_clis: dict[str, Path]
) -> None:
    sandbox = CodexSandbox(tmp_path, agent_clis["codex"])
    seen: dict[str, Any] = {}
    with ScriptedModel(
        [text(HEDGE), steered_then(sandbox, text(STILL), seen), text(QUESTION)]
    ) as model:
        sandbox.configure(model)
        sandbox.install("codex", "--user")
        run = sandbox.run(PROMPT)
        requests = [r.json for r in model.model_requests]
    assert run.returncode == 0 and model.errors == [], run.stderr
    check(sandbox, sandbox.thread(run), requests, seen)


def test_gemini_gets_the_message_at_its_next_stop(
    tmp_path: Path, agent_clis: dict[str, Path]
) -> None:
    sandbox = GeminiSandbox(tmp_path, agent_clis["gemini"])
    seen: dict[str, Any] = {}
    with ScriptedModel(
        [text(HEDGE), steered_then(sandbox, text(STILL), seen), text(QUESTION)]
    ) as model:
        sandbox.install("gemini", "--user")
        run = sandbox.run(model, PROMPT)
        requests = [r.json for r in model.model_requests]
    assert run.returncode == 0 and model.errors == [], run.stderr
    check(sandbox, sandbox.result(run)["session_id"], requests, seen)
