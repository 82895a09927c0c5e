"""End to end: a Telegram reply resumes a real Claude Code session.

The real Claude Code binary (from the claude-agent-sdk wheel) runs on the package's
scripted model with our hooks; the real python-telegram-bot client talks to the local
Bot API server over HTTP. The agent asks a question; the bridge delivers it to the chat;
the human replies to it; the bridge records the reply and resumes that very session
through the headless runner; in the resumed turn the agent hedges (it is coached back to
work, and the hedge never reaches the chat), then runs the tests and reports with their
evidence, and that stop comes back to the chat. Twice: with our hooks inside Claude Code (the Stop hook judges
and coaches), and without (the runner judges each turn's result and the bridge resumes
the session with the coaching).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from coachloop.chat.agent import RunnerAgent
from coachloop.chat.telegram import Bridge
from coachloop.runners.claude_env import hook_settings, offline_env
from coachloop.supervisor import Supervisor
from coachloop.testing import ScriptedModel, text, tool_use
from coachloop.testing.telegram_api import TelegramBotAPI
from telegram_support import Running, config, pending, wait

CHAT = 42
QUESTION = "Should the cart use Postgres or SQLite? I need your call before I change the schema."
HEDGE = "Switched the cart to SQLite. It should work now."
DONE = (
    "Switched the cart to SQLite in cart/store.py. Ran `python -m pytest -q`: 12 passed in 0.41s."
)
# The agent really runs the project's tests before it reports: its claims are checked
# against the turn's record (issue 11), and a run that never happened would be sent back.
CART_TESTS = "import pytest\n\n\n@pytest.mark.parametrize('n', range(12))\ndef test_cart(n):\n    assert n >= 0\n"
REPLY = "SQLite, please: keep it simple."


@pytest.mark.slow
@pytest.mark.parametrize("hooks", [True, False], ids=["hooks", "runner-judged"])
def test_a_chat_reply_resumes_the_real_claude_code_session(tmp_path: Path, hooks: bool) -> None:
    project = tmp_path / "shop"
    project.mkdir()
    (project / "test_cart.py").write_text(CART_TESTS)
    script = [text(QUESTION), text(HEDGE), tool_use("Bash", {"command": "python -m pytest -q"})]
    script.append(text(DONE))
    with ScriptedModel(script, side_call="Title") as model, TelegramBotAPI() as api:
        env = offline_env(model.base_url, tmp_path / "home", extra={"COACHLOOP_HOOK_DAEMON": "0"})
        agent = RunnerAgent(settings=hook_settings() if hooks else None, env=env, timeout=120)
        setup = Supervisor.open(project)
        first = agent.run_turn(project, "Set up the cart storage", None, setup)  # not via chat
        session = first.session_id
        assert pending(setup) == 1  # the question waits in the outbox for the bridge
        setup.close()  # one connection per SQLite file in this process (chat/agent.py)
        bridge = Bridge(config(api, {CHAT: project}), agent)
        (sup,) = [s.supervisor for s in bridge.router.sources if s.projects]
        with Running(bridge):
            assert wait(lambda: pending(sup) == 0)
            (question,) = api.sent
            assert question.text.endswith(QUESTION)
            assert question.text.startswith(f"🤖 shop · {session[:8]}")
            api.push_text(CHAT, REPLY, reply_to=question.message_id)
            assert wait(lambda: any("12 passed" in m.text for m in api.sent), 90)
        texts = [m.text for m in api.sent]
        raw = api.sent[2].raw
    assert texts[1] == f"↪ resuming {session[:8]}"
    assert texts[2] == f"🤖 shop · {session[:8]}\n\n{DONE.replace('`', '')}"
    assert "Ran <code>python -m pytest -q</code>: 12 passed" in raw  # inline code as HTML
    assert not any("should work now" in t for t in texts)  # the hedge stayed out of the chat
    # The resumed turn is the same conversation: the reply and the question are in it.
    second = json.dumps(model.model_requests[1].json["messages"])
    assert REPLY in second and QUESTION in second
    # The hedge was coached; the next model request carries the coaching (quoting it).
    third = json.dumps(model.model_requests[2].json["messages"])
    assert third.lower().count("should work now") >= 2
    assert ("Stop hook feedback" in third) is hooks
    again = Supervisor.open(project)
    timeline = again.reads.timeline(session)
    again.close()
    humans = [(r.source, r.text) for r in timeline if r.kind == "human"]
    assert ("chat", REPLY) in humans
    if not hooks:  # recorded once each: the first prompt by the runner, the reply by us
        assert humans == [("prompt", "Set up the cart storage"), ("chat", REPLY)]
    stops = [(r.verdict_type, r.decision) for r in timeline if r.kind == "stop"]
    assert stops == [
        ("question", "deliver"),
        ("status", "continue"),
        ("completion", "deliver"),
    ]
