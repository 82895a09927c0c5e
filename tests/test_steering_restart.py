"""A chat message queued for a running session survives a bridge restart and reaches
the agent once: the real bridge queues it, is stopped, a second bridge starts on the
same store (the same update handled again is recognised), and the agent's next stops go
through the real hook entry point (`coachloop.agents.hook.handle`): the first is sent
back with the message, the next is judged as usual."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from coachloop.agents.hook import handle
from coachloop.chat.telegram import Bridge
from coachloop.core.events import HumanMessage
from coachloop.supervisor import Supervisor
from coachloop.testing.telegram_api import TelegramBotAPI
from telegram_support import (
    CHAT,
    RecordingAgent,
    Running,
    api_fixture,  # noqa: F401 - a fixture
    config,
    project_fixture,  # noqa: F401 - a fixture
    wait,
)

STEER = "keep the public API as it is"


def stop_hook(session: str, project: Path, text: str) -> bytes:
    payload = {
        "hook_event_name": "Stop",
        "session_id": session,
        "cwd": str(project),
        "prompt_id": "p-1",
        "last_assistant_message": text,
        "stop_hook_active": False,
    }
    return handle("claude-code", json.dumps(payload).encode()).stdout


def test_a_queued_message_survives_a_bridge_restart_and_is_injected_once(
    api: TelegramBotAPI, project: Path
) -> None:
    subprocess.run(["git", "init", "-q"], cwd=project, check=True)
    sup = Supervisor.open(project)
    try:
        sup.on_human(HumanMessage("s-live", "refactor the cart", project=str(project)))
    finally:
        sup.close()
    agent = RecordingAgent()
    with Running(Bridge(config(api, {CHAT: project}), agent)) as first:
        (source,) = [s for s in first.bridge.router.sources if s.projects]
        api.push_text(CHAT, STEER)  # the project's one running session: queued
        assert wait(lambda: any(m.text.startswith("⏸ queued") for m in api.sent))
        store_key = source.key
    # the bridge is gone; a new one starts on the same store
    with Running(Bridge(config(api, {CHAT: project}), agent)) as second:
        (source,) = [s for s in second.bridge.router.sources if s.projects]
        assert source.key == store_key
        state = source.supervisor.reads.get_session("s-live")
        assert [q.text for q in state.steering] == [STEER]  # nothing lost
        # the same chat message handled again (Telegram re-sends an unconfirmed update):
        # its key is the chat's message id, already queued
        assert state.steering[0].key.startswith(f"tg:{CHAT}:")
        again_key = state.steering[0].key
        assert source.supervisor.steer("s-live", STEER, key=again_key) == "duplicate"
    first_stop = stop_hook("s-live", project, "Renamed the cart module.")
    assert json.loads(first_stop) == {"decision": "block", "reason": f"[Human] {STEER}"}
    again = stop_hook("s-live", project, "Renamed the cart module; all call sites updated.")
    assert b"[Human]" not in again  # injected once
    assert agent.calls == []  # queued, never run as a turn of its own
