"""Attacks of issue 13 on the chat bridge: the real bridge (python-telegram-bot) against the
local Bot API server, real stores.

- 7: another allow-listed user, in a chat mapped to no project, could /sessions,
  /continue and /stop someone else's session, and after /continue its deliveries went
  to them; /status with a 10,000-character argument got no answer; edited messages
  would be acted on if the Bot API sent them.
"""

from __future__ import annotations

from pathlib import Path

from coachloop.chat.telegram import Bridge
from coachloop.supervisor import Supervisor
from coachloop.testing.telegram_api import TelegramBotAPI
from telegram_support import (
    CHAT,
    RecordingAgent,
    Running,
    api_fixture,  # noqa: F401 - a fixture
    config,
    pending,
    project_fixture,  # noqa: F401 - a fixture
    stop,
    sup_fixture,  # noqa: F401 - a fixture
    wait,
)

OTHER = 43  # another allow-listed user's private chat, mapped to no project


def _answers(api: TelegramBotAPI, chat: int) -> list[str]:
    return [m.text for m in api.sent if m.chat_id == chat]


def test_another_chat_cannot_see_steer_or_take_a_session(
    api: TelegramBotAPI, project: Path, sup: Supervisor
) -> None:
    stop(sup, "sess-owner-1", "Owner: which port?", project)
    agent = RecordingAgent()
    cfg = config(api, {CHAT: project}, allowed=frozenset({CHAT, OTHER}))
    with Running(Bridge(cfg, agent)):
        assert wait(lambda: pending(sup) == 0)  # delivered to the owner's chat
        for text in ("/sessions", "/status sess-owner", "/stop sess-owner", "/continue sess-own"):
            api.push_text(OTHER, text)
        assert wait(lambda: len(_answers(api, OTHER)) == 4)
        api.push_text(CHAT, "/sessions")
        assert wait(lambda: any("sess-own" in a for a in _answers(api, CHAT)[1:]))
    theirs = _answers(api, OTHER)
    assert not any("sess-owner-1" in a or "Owner" in a for a in theirs), theirs
    assert agent.calls == []  # nothing was resumed for them
    state = sup.reads.get_session("sess-owner-1")
    assert state.stop_requested is None and state.status != "done"
    assert all(m.chat_id == CHAT for m in api.sent if "Owner:" in m.text)


def test_an_oversized_argument_is_answered_and_edits_are_ignored(
    api: TelegramBotAPI, project: Path, sup: Supervisor
) -> None:
    stop(sup, "sess-edit-1", "Which port?", project)
    agent = RecordingAgent()
    with Running(Bridge(config(api, {CHAT: project}), agent)):
        assert wait(lambda: pending(sup) == 0)
        api.push_text(CHAT, "/status " + "x" * 10_000)
        assert wait(lambda: any("not a session id" in a for a in _answers(api, CHAT)))
        sent = api.push_text(CHAT, "/sessions")
        assert wait(lambda: len(_answers(api, CHAT)) == 3)
        api.push_edit(CHAT, sent["message_id"], "/stop sess-edit-1")  # an edit: ignored
        api.push_text(CHAT, "/help")  # a later message is still served
        assert wait(lambda: len(_answers(api, CHAT)) == 4)
    assert sup.reads.get_session("sess-edit-1").status != "done"
    assert not any("marked done" in a or "stops at" in a for a in _answers(api, CHAT))


def test_an_admin_chat_is_explicit_configuration(
    api: TelegramBotAPI, project: Path, sup: Supervisor
) -> None:
    stop(sup, "sess-owner-2", "Owner: which host?", project)
    cfg = config(
        api, {CHAT: project}, allowed=frozenset({CHAT, OTHER}), admin_chats=frozenset({OTHER})
    )
    with Running(Bridge(cfg, RecordingAgent())):
        assert wait(lambda: pending(sup) == 0)
        api.push_text(OTHER, "/sessions")
        assert wait(lambda: any("sess-own" in a for a in _answers(api, OTHER)))
