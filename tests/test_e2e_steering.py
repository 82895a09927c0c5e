"""End to end: the human steers a running turn of the real Claude Code.

The scripted model holds one answer until the test has queued a human message with the
real `coachloop say` (a process of its own, on the sandbox's store), so the message is
queued while the agent's turn is running. Then the message reaches the model in that
turn's very next request: added after the tool call by our `PostToolUse` hook
(`additionalContext`), or, where no such hook runs, at the next stop by our Stop hook
(`[Human] …` as the block reason, before any judging). The cap resets, and the timeline
records what was injected.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from coachloop.runners.claude_env import HOOK_EVENTS, hook_settings
from coachloop.testing import ScriptedModel, ScriptItem, text, tool_use
from e2e_support import Sandbox, decisions

PROMPT = "The tests in test_calc.py fail sometimes; fix add() in calc.py."
HEDGE = "I changed `add()` in `calc.py`. It should work now."
STEER = "Also keep add() working for floats, please."
QUESTION = "Floats too: should 0.1 + 0.2 round to 0.3, or stay exact?"


def say(sandbox: Sandbox, session_id: str, message: str) -> subprocess.CompletedProcess[str]:
    """The real `coachloop say SESSION TEXT` on the sandbox's store."""
    return subprocess.run(
        [sys.executable, "-m", "coachloop", "say", session_id, message],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env={**os.environ, "COACHLOOP_STORE": str(sandbox.store_path)},
    )


def steered_then(sandbox: Sandbox, answer: ScriptItem, seen: dict[str, Any]) -> Callable[..., Any]:
    """A model step that first queues `STEER` for the running session (from the request's
    own session id in the store), noting the cap before, then answers `answer`."""

    def step(body: dict[str, Any]) -> ScriptItem:
        store = sandbox.store()
        try:
            (state,) = store.list_sessions()
        finally:
            store.close()
        seen["continues_before"] = state.continues
        seen["status_before"] = state.status
        seen["say"] = say(sandbox, state.session_id, STEER)
        return answer

    return step


def human_in(request: dict[str, Any]) -> bool:
    return f"[Human] {STEER}" in json.dumps(request)


def test_a_message_sent_while_the_turn_runs_reaches_the_next_request_after_a_tool_call(
    tmp_path: Path,
) -> None:
    sandbox = Sandbox(tmp_path)
    seen: dict[str, Any] = {}
    run_tests = tool_use("Bash", {"command": "python -m pytest -q"})
    script = [text(HEDGE), steered_then(sandbox, run_tests, seen), text(QUESTION)]
    with ScriptedModel(script, side_call="Title") as model:
        judged = sandbox.runner(model).run(PROMPT)
        requests = [r.json for r in model.model_requests]
    assert model.errors == [] and not judged.turn.is_error
    assert seen["say"].returncode == 0, seen["say"].stderr
    assert "queued for" in seen["say"].stdout
    assert seen["status_before"] == "running" and seen["continues_before"] == 1
    assert len(requests) == 3
    assert not human_in(requests[1]) and human_in(requests[2])  # the very next request
    session = judged.turn.session_id
    timeline = sandbox.timeline(session)
    (injected,) = [r for r in timeline if r.source == "steering"]
    assert injected.kind == "human" and injected.text == f"[Human] {STEER}"
    assert "after a tool call (Bash)" in injected.why
    (queued,) = [r for r in timeline if r.source == "say"]
    assert queued.id < injected.id and queued.text == STEER
    assert decisions(sandbox.stops(session)) == ["continue", "deliver"]
    store = sandbox.store()
    try:
        state = store.get_session(session)
    finally:
        store.close()
    assert state.continues == 0 and state.steering == ()  # the cap reset
    assert state.context.prompt == STEER


def test_without_a_tool_call_hook_the_message_is_handed_over_at_the_next_stop(
    tmp_path: Path,
) -> None:
    sandbox = Sandbox(tmp_path)
    events = [e for e in HOOK_EVENTS if e != "PostToolUse"]
    settings = sandbox.project / ".claude" / "settings.json"
    settings.write_text(json.dumps(hook_settings(events=events)))
    seen: dict[str, Any] = {}
    script = [text(HEDGE), steered_then(sandbox, text("Still on it: " + HEDGE), seen)]
    script.append(text(QUESTION))
    with ScriptedModel(script, side_call="Title") as model:
        judged = sandbox.runner(model).run(PROMPT)
        requests = [r.json for r in model.model_requests]
    assert model.errors == [] and seen["say"].returncode == 0, seen["say"].stderr
    assert seen["continues_before"] == 1
    assert len(requests) == 3 and human_in(requests[2]) and not human_in(requests[1])
    assert "Stop hook feedback" in json.dumps(requests[2])
    session = judged.turn.session_id
    stops = sandbox.stops(session)
    assert decisions(stops) == ["continue", "continue", "deliver"]
    steered = stops[1]
    assert steered.source == "steering" and steered.verdict is None  # not judged
    assert steered.message == f"[Human] {STEER}" and steered.text.startswith("Still on it")
    assert judged.turn.hook_blocks[-1] == f"[Human] {STEER}"
    assert stops[2].verdict is not None and stops[2].verdict["type"] == "question"
    shown = sandbox.show(session)
    assert f"[Human] {STEER}" in shown and "human steering" in shown


def test_say_to_an_idle_session_queues_nothing_and_names_the_resume_command(
    tmp_path: Path,
) -> None:
    sandbox = Sandbox(tmp_path)
    with ScriptedModel([text(QUESTION)], side_call="Title") as model:
        judged = sandbox.runner(model).run(PROMPT)
    session = judged.turn.session_id
    done = say(sandbox, session, STEER)
    assert done.returncode == 1 and "not running a turn" in done.stdout
    assert f"coachloop run --resume {session}" in done.stdout
    assert say(sandbox, "no-such-session", STEER).returncode == 2


def test_a_stop_request_ends_the_running_turn_before_its_next_tool_call(tmp_path: Path) -> None:
    sandbox = Sandbox(tmp_path)
    marker = sandbox.project / "ran.txt"

    def stop_requested(body: dict[str, Any]) -> ScriptItem:
        sup = sandbox.supervisor()
        try:
            (state,) = sup.reads.list_sessions()
            sup.request_stop(state.session_id)
        finally:
            sup.close()
        return tool_use("Bash", {"command": f"touch {marker}"})

    script = [text(HEDGE), stop_requested, text("I kept going anyway.")]
    with ScriptedModel(script, side_call="Title") as model:
        judged = sandbox.runner(model).run(PROMPT)
        requests = model.model_requests
    session = judged.turn.session_id
    assert not marker.exists()  # the tool never ran
    assert len(requests) == 2  # and the model was not asked again
    notes = [e.text for e in sandbox.outbox(session) if e.kind == "notice"]
    assert notes == [
        "[coachloop] Stopped as you asked (/stop). The turn ended before a tool call (Bash)."
    ]
    store = sandbox.store()
    try:
        state = store.get_session(session)
    finally:
        store.close()
    assert state.stop_requested is None  # consumed once
    assert judged.by == "hook" and judged.decision.kind == "deliver"  # adopted, not an error
    assert [r.decision for r in sandbox.stops(session)] == ["continue"]
