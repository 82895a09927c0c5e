"""End to end: a chat reply sent while the resumed turn of the real Claude Code runs is
queued, not run as a second turn, and reaches the model in that turn's next request.

The real Claude Code binary runs on the scripted model with our hooks; the real
python-telegram-bot client talks to the local Bot API server. The model holds its
answer to the resumed turn's first request until the human's second reply has been
answered "queued" by the bridge: so the reply certainly arrived while the turn ran.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import pytest

from coachloop.chat.agent import RunnerAgent
from coachloop.chat.telegram import Bridge
from coachloop.runners.claude_env import hook_settings, offline_env
from coachloop.supervisor import Supervisor
from coachloop.testing import ScriptedModel, ScriptItem, text, tool_use
from coachloop.testing.telegram_api import TelegramBotAPI
from telegram_support import Running, config, pending, wait

CHAT = 42
QUESTION = "Should the cart use Postgres or SQLite? I need your call before I change the schema."
REPLY = "SQLite, please: keep it simple."
STEER = "And name the table `carts`, plural."
DONE = "Switched the cart to SQLite, table `carts`. Ran `python -m pytest -q`: 12 passed in 0.4s."
CART_TESTS = "import pytest\n\n\n@pytest.mark.parametrize('n', range(12))\ndef test_cart(n):\n    assert n >= 0\n"


def _first_turn(model: ScriptedModel, tmp_path: Path, project: Path) -> tuple[RunnerAgent, str]:
    """The bridge's agent (the real Claude Code with our hooks, offline against `model`)
    and the session of the first turn it ran in `project` (its first script item)."""
    env = offline_env(model.base_url, tmp_path / "home", extra={"COACHLOOP_HOOK_DAEMON": "0"})
    agent = RunnerAgent(settings=hook_settings(), env=env, timeout=120)
    setup = Supervisor.open(project)
    session = agent.run_turn(project, "Set up the cart storage", None, setup).session_id
    setup.close()
    return agent, session


@pytest.mark.slow
def test_a_reply_while_the_turn_runs_is_queued_and_reaches_its_next_request(
    tmp_path: Path,
) -> None:
    project = tmp_path / "shop"
    project.mkdir()
    (project / "test_cart.py").write_text(CART_TESTS)
    started, release = threading.Event(), threading.Event()

    def held(body: dict[str, Any]) -> ScriptItem:
        started.set()  # the resumed turn is running: its first model request is here
        assert release.wait(60), "the test never released the model"
        return tool_use("Bash", {"command": "python -m pytest -q"})

    script: list[Any] = [text(QUESTION), held, text(DONE)]
    with ScriptedModel(script, side_call="Title") as model, TelegramBotAPI() as api:
        agent, session = _first_turn(model, tmp_path, project)
        bridge = Bridge(config(api, {CHAT: project}), agent)
        (sup,) = [s.supervisor for s in bridge.router.sources if s.projects]
        with Running(bridge):
            assert wait(lambda: pending(sup) == 0)
            (question,) = api.sent
            api.push_text(CHAT, REPLY, reply_to=question.message_id)
            assert started.wait(60), "the resumed turn never reached the model"
            api.push_text(CHAT, STEER, reply_to=question.message_id)
            assert wait(lambda: any(m.text.startswith("⏸ queued") for m in api.sent), 30)
            assert [q.text for q in sup.reads.get_session(session).steering] == [STEER]
            release.set()
            assert wait(lambda: any("12 passed" in m.text for m in api.sent), 90)
            timeline = sup.reads.timeline(session)
            state = sup.reads.get_session(session)
        texts = [m.text for m in api.sent]
        requests = [r.json for r in model.model_requests]
    assert texts[1] == f"↪ resuming {session[:8]}"
    assert texts[2] == f"⏸ queued for {session[:8]}: the agent reads it at its next step"
    assert len(requests) == 3  # one resumed turn: the reply did not start a second one
    assert f"[Human] {STEER}" not in json.dumps(requests[1])
    assert f"[Human] {STEER}" in json.dumps(requests[2])  # that turn's very next request
    queued = [r for r in timeline if r.kind == "human" and r.source == "chat"]
    assert [r.text for r in queued] == [REPLY, STEER] and "queued" in queued[1].why
    (injected,) = [r for r in timeline if r.source == "steering"]
    assert injected.text == f"[Human] {STEER}" and injected.id > queued[1].id
    assert state.steering == () and state.continues == 0


def _stop_scenario(tmp_path: Path, *, grace: float, release_on_ack: bool) -> dict[str, Any]:
    """A resumed turn whose first model request is held; the human sends `/stop` as a
    reply; the model is released once the bridge answered (or only at the end)."""
    project = tmp_path / "shop"
    project.mkdir()
    marker = project / "ran.txt"
    started, release = threading.Event(), threading.Event()

    def held(body: dict[str, Any]) -> ScriptItem:
        started.set()
        release.wait(60)
        return tool_use("Bash", {"command": f"touch {marker}"})

    script: list[Any] = [text(QUESTION), held, text(DONE)]
    out: dict[str, Any] = {}
    with ScriptedModel(script, side_call="Title") as model, TelegramBotAPI() as api:
        agent, session = _first_turn(model, tmp_path, project)
        bridge = Bridge(config(api, {CHAT: project}, stop_grace=grace), agent)
        (sup,) = [s.supervisor for s in bridge.router.sources if s.projects]
        try:
            with Running(bridge):
                assert wait(lambda: pending(sup) == 0)
                (question,) = api.sent
                api.push_text(CHAT, REPLY, reply_to=question.message_id)
                assert started.wait(60), "the resumed turn never reached the model"
                api.push_text(CHAT, "/stop", reply_to=question.message_id)
                assert wait(lambda: any(m.text.startswith("⏹") for m in api.sent), 30)
                if release_on_ack:
                    release.set()
                assert wait(lambda: any("Stopped as you asked" in m.text for m in api.sent), 60)
                assert wait(lambda: sup.reads.get_session(session).stop_requested is None)
                out["timeline"] = sup.reads.timeline(session)
        finally:
            release.set()
        out["texts"] = [m.text for m in api.sent]
        out["requests"] = len(model.model_requests)
    out["session"], out["ran"] = session, marker.exists()
    return out


@pytest.mark.slow
def test_stop_ends_the_running_turn_at_its_next_tool_call(tmp_path: Path) -> None:
    out = _stop_scenario(tmp_path, grace=60.0, release_on_ack=True)
    short = out["session"][:8]
    assert (
        f"⏹ {short} stops at its next tool call or stop; 0 queued item(s) dropped." in out["texts"]
    )
    note = "[coachloop] Stopped as you asked (/stop). The turn ended before a tool call (Bash)."
    assert any(t.endswith(note) for t in out["texts"])
    assert not out["ran"] and out["requests"] == 2  # the tool never ran, no model call after
    assert not any("12 passed" in t for t in out["texts"])
    assert out["timeline"][-1].source == "stopped"


@pytest.mark.slow
def test_stop_cancels_the_headless_turn_stuck_in_a_model_call(tmp_path: Path) -> None:
    out = _stop_scenario(tmp_path, grace=0.5, release_on_ack=False)
    note = "[coachloop] Stopped as you asked (/stop). The turn ended when its running turn was cancelled."
    assert any(t.endswith(note) for t in out["texts"])
    assert "⏹ the running turn was cancelled" in out["texts"]
    assert not out["ran"]  # killed while its model call was held: the tool never came
