"""Two-way routing through the real bridge (python-telegram-bot against the local Bot API
server): replies reach their session (a HumanMessage through the supervisor, then the
agent resumed there), new messages start sessions in the chat's project, commands; and
the pieces underneath: where deliveries go, the send ledger across a crash, the
configuration and its token rules."""

from __future__ import annotations

import asyncio
import os
import threading
from pathlib import Path

import pytest
from telegram.ext import ExtBot

from coachloop.chat.config import BridgeConfig, load_config
from coachloop.chat.ledger import Ledger
from coachloop.chat.outbox import OutboxPump
from coachloop.chat.routing import Router, open_sources
from coachloop.chat.security import AllowList, Secret
from coachloop.chat.telegram import Bridge, TelegramChannel
from coachloop.config import ConfigError
from coachloop.supervisor import Supervisor
from coachloop.testing.telegram_api import SentMessage, TelegramBotAPI
from telegram_support import (
    CHAT,
    WORKING,
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


def message_with(api: TelegramBotAPI, text: str) -> SentMessage:
    (found,) = [m for m in api.sent if text in m.text]
    return found


def human_records(sup: Supervisor, session_id: str) -> list[tuple[str, str]]:
    return [(r.source, r.text) for r in sup.reads.timeline(session_id) if r.kind == "human"]


def test_a_reply_reaches_the_session_it_answers(
    api: TelegramBotAPI, project: Path, sup: Supervisor
) -> None:
    stop(sup, "sess-one", "Which database: Postgres or SQLite?", project)
    stop(sup, "sess-two", "Working on the cart.", project, WORKING)  # one auto-continue
    stop(sup, "sess-two", "Should the cart expire after 30 minutes?", project)
    assert sup.reads.get_session("sess-two").continues == 1
    agent = RecordingAgent()
    with Running(Bridge(config(api, {CHAT: project}), agent)):
        assert wait(lambda: pending(sup) == 0)
        question = message_with(api, "cart expire")
        api.push_text(CHAT, "Yes, 30 minutes.", reply_to=question.message_id)
        assert wait(lambda: len(agent.calls) == 1)
        assert wait(lambda: any(m.text.startswith("↪ resuming") for m in api.sent))
        ack = message_with(api, "↪ resuming")
        api.push_text(CHAT, "And log it.", reply_to=ack.message_id)  # replying to the ack
        assert wait(lambda: len(agent.calls) == 2)
    assert agent.calls == [
        (project, "Yes, 30 minutes.", "sess-two"),
        (project, "And log it.", "sess-two"),
    ]
    assert ack.text == "↪ resuming sess-two" and ack.reply_to is not None
    assert human_records(sup, "sess-two") == [("chat", "Yes, 30 minutes."), ("chat", "And log it.")]
    assert human_records(sup, "sess-one") == []
    state = sup.reads.get_session("sess-two")
    assert state.continues == 0 and state.context.prompt == "And log it."


def test_a_new_message_starts_a_session_in_the_chats_project(
    api: TelegramBotAPI, tmp_path: Path, project: Path, sup: Supervisor
) -> None:
    blog = tmp_path / "blog"
    blog.mkdir()
    agent = RecordingAgent()
    with Running(Bridge(config(api, {CHAT: project, 43: blog}), agent)):
        api.push_text(43, "Write the about page")
        assert wait(lambda: len(agent.calls) == 1)
        assert wait(lambda: any("starting a session" in m.text for m in api.sent))
        start = message_with(api, "starting a session")
        assert start.chat_id == 43 and start.text == "▶ starting a session in blog"
        # Once the turn told us its session, replying to the acknowledgement resumes it.
        assert wait(lambda: Ledger(config(api, {}).ledger_path).binding("new-1") is not None)
        api.push_text(43, "Add a photo", reply_to=start.message_id)
        assert wait(lambda: len(agent.calls) == 2)
        api.push_text(99, "hello")  # not allowed: nothing happens
        api.push_text(CHAT, "/help")
        assert wait(lambda: any("/sessions" in m.text for m in api.sent if m.chat_id == CHAT))
    assert agent.calls == [(blog, "Write the about page", None), (blog, "Add a photo", "new-1")]


def test_a_chat_without_a_project_and_unknown_replies_are_explained(
    api: TelegramBotAPI, project: Path
) -> None:
    agent = RecordingAgent()
    cfg = config(api, {CHAT: project}, allowed=frozenset({CHAT, 43}))
    with Running(Bridge(cfg, agent)):
        api.push_text(43, "do something")
        api.push_text(CHAT, "what about this?", reply_to=api.push_text(CHAT, "x")["message_id"])
        assert wait(lambda: len(api.sent) == 3)
    texts = {m.chat_id: m.text for m in api.sent if "project" in m.text or "which" in m.text}
    assert texts[43].startswith("No project is configured for this chat")
    assert '"43" = "/path/to/project"' in texts[43]
    assert any("can't tell which session" in m.text for m in api.sent if m.chat_id == CHAT)
    assert agent.calls == [(project, "x", None)]


def test_commands_list_show_stop_and_continue_sessions(
    api: TelegramBotAPI, project: Path, sup: Supervisor
) -> None:
    stop(sup, "sess-alpha-1", "Alpha: which port?", project)
    stop(sup, "sess-beta-2", "Beta: ship it?", project)
    gate = threading.Event()
    agent = RecordingAgent(gate=gate)
    with Running(Bridge(config(api, {CHAT: project}), agent)):
        assert wait(lambda: pending(sup) == 0)
        alpha = message_with(api, "Alpha: which port?")
        api.push_text(CHAT, "8080", reply_to=alpha.message_id)  # runs, held by the gate
        assert wait(lambda: len(agent.calls) == 1)
        api.push_text(CHAT, "and 8443", reply_to=alpha.message_id)  # queued behind it
        api.push_text(CHAT, "/sessions")
        api.push_text(CHAT, "/status sess-al")
        api.push_text(CHAT, "/status sess-")  # ambiguous
        api.push_text(CHAT, "/stop sess-alpha")
        api.push_text(CHAT, "/continue sess-beta-2")
        assert wait(lambda: len(agent.calls) == 2)
        gate.set()
        assert wait(lambda: any("resuming sess-bet" in m.text for m in api.sent))
    answers = [m.text for m in api.sent if m.chat_id == CHAT]
    listing = next(a for a in answers if a.startswith("sess-"))
    assert "sess-alp running · shop" in listing and "▶ turn running" in listing
    assert "sess-bet waiting · shop" in listing
    status = next(a for a in answers if a.startswith("session: sess-alpha-1"))
    assert "auto-continues: 0/3" in status and "queued replies: 1" in status
    assert any("matches several sessions" in a for a in answers)
    stopping = "sess-alp stops at its next tool call or stop; 1 queued item(s) dropped."
    assert any(stopping in a for a in answers)
    assert wait(lambda: sup.reads.get_session("sess-alpha-1").stop_requested is None)
    last = sup.reads.timeline("sess-alpha-1")[-1]
    assert last.source == "stopped" and last.why.endswith(
        "The turn ended on its own, before the stop."
    )
    # the queued "and 8443" was dropped; /continue resumed beta with "continue"
    assert agent.calls == [(project, "8080", "sess-alpha-1"), (project, "continue", "sess-beta-2")]
    assert human_records(sup, "sess-beta-2") == [("chat", "continue")]


def test_deliveries_go_to_the_bound_chat_then_the_project_chat_then_the_default(
    tmp_path: Path, project: Path, sup: Supervisor
) -> None:
    blog = tmp_path / "blog"
    blog.mkdir()
    stop(sup, "s-shop", "q?", project)
    stop(sup, "s-sub", "q?", project / "sub")  # a sub-directory of the project
    stop(sup, "s-else", "q?", tmp_path / "elsewhere")
    cfg = BridgeConfig(chats={CHAT: project, 43: blog}, default_chat=7, state_path=tmp_path / "l")
    sources = open_sources(cfg)
    ledger = Ledger(cfg.ledger_path)
    router = Router(cfg, ledger, sources)
    shop_source = next(s for s in sources if project in s.projects)
    entries = {e.session_id: e for e in shop_source.supervisor.reads.outbox_pending()}
    assert router.chat_for(entries["s-shop"], shop_source) == CHAT
    assert router.chat_for(entries["s-sub"], shop_source) == CHAT
    # an unknown project in the home store, where both chats' projects are: the default
    assert router.chat_for(entries["s-else"], shop_source) == 7
    assert len(sources) == 1  # one home store for both chats' projects
    ledger.bind("s-shop", 43, shop_source.key)
    assert router.chat_for(entries["s-shop"], shop_source) == 43  # bound wins
    assert [s.session_id for s, _ in router.find(CHAT, "s-s")] == ["s-sub", "s-shop"]
    assert [s.session_id for s, _ in router.find(CHAT, "s-shop")] == ["s-shop"]
    assert router.find(CHAT, "") == []
    assert BridgeConfig(allowed=frozenset({5})).delivery_chat == 5
    assert BridgeConfig(allowed=frozenset({5, 6})).delivery_chat is None
    ledger.close()
    for source in sources:
        source.supervisor.close()


def test_a_crash_between_acceptance_and_marking_sends_nothing_twice(
    api: TelegramBotAPI, project: Path, sup: Supervisor, tmp_path: Path
) -> None:
    """Part 2 of 3 fails (a 502): part 1 is kept; then the process "dies" after Telegram
    accepted the rest but before the store marked the entry; the restart only marks it."""
    text = "\n\n".join(f"Paragraph {i} " + "z" * 3000 for i in range(3)) + "\n\nOK?"
    stop(sup, "sess-crash", text, project)
    cfg = config(api, {CHAT: project}, state_path=tmp_path / "bridge.db")
    api.fault("sendMessage", 502, after=1)

    async def drain(fail_marking: bool) -> None:
        sources = open_sources(cfg)
        ledger = Ledger(cfg.ledger_path)
        door = next(s for s in sources if project in s.projects).supervisor
        if fail_marking:

            def killed(*args: object, **kwargs: object) -> None:
                raise RuntimeError("killed before marking")

            door.mark_sent = killed  # type: ignore[method-assign]
        bot: ExtBot[None] = ExtBot(cfg.token.reveal(), base_url=api.bot_url)  # type: ignore[union-attr]
        async with bot:
            pump = OutboxPump(Router(cfg, ledger, sources), ledger, TelegramChannel(bot))
            for _ in range(2):
                try:
                    await pump.drain()
                except Exception as exc:
                    assert "502" in str(exc) or "killed" in str(exc) or "Gateway" in str(exc)
        ledger.close()
        for source in sources:
            source.supervisor.close()

    asyncio.run(drain(fail_marking=True))
    assert pending(sup) == 1  # accepted by Telegram, but not marked: still pending
    accepted = [c for c in api.calls_to("sendMessage") if c.status == 200]
    assert len(accepted) == 3
    asyncio.run(drain(fail_marking=False))
    assert pending(sup) == 0
    assert len([c for c in api.calls_to("sendMessage") if c.status == 200]) == 3  # no resend
    assert [c.status for c in api.calls_to("sendMessage")] == [200, 502, 200, 200]


def test_configuration_from_env_and_an_owner_only_file(tmp_path: Path) -> None:
    token = "111222333:AAsecretsecretsecretsecretsecret00"
    cfg = load_config(
        {
            "COACHLOOP_TELEGRAM_TOKEN": token,
            "COACHLOOP_TELEGRAM_ALLOWED": "42, -1001 7",
            "COACHLOOP_TELEGRAM_API_URL": "http://127.0.0.1:8081/",
        },
        tmp_path / "none.toml",
    )
    assert cfg.token == Secret(token) and token not in repr(cfg) and token not in str(cfg)
    assert cfg.allowed == {42, -1001, 7}
    assert cfg.bot_urls() == ("http://127.0.0.1:8081/bot", "http://127.0.0.1:8081/file/bot")
    with pytest.raises(ConfigError, match="'x1' is not a Telegram id"):
        load_config({"COACHLOOP_TELEGRAM_ALLOWED": "42,x1"}, tmp_path / "none.toml")
    path = tmp_path / "config.toml"
    path.write_text(
        f'[telegram]\ntoken = "{token}"\nallowed = [42]\ndefault_chat = 42\nmin_interval = 0.5\n'
        f'[telegram.chats]\n"42" = "{tmp_path}"\n'
    )
    os.chmod(path, 0o644)
    with pytest.raises(ConfigError, match="chmod 600") as info:
        load_config({}, path)
    assert token not in str(info.value)
    os.chmod(path, 0o600)
    cfg = load_config({}, path)
    assert cfg.token == Secret(token) and cfg.chats == {42: tmp_path}
    assert (cfg.default_chat, cfg.min_interval) == (42, 0.5)
    assert load_config({}, tmp_path / "none.toml").token is None  # the console


def test_allow_list_needs_both_user_and_chat() -> None:
    allow = AllowList([42, -1001])
    assert allow.permits(42, 42) and allow.permits(42, -1001)
    assert not allow.permits(8, -1001) and not allow.permits(42, 99)
    assert not allow.permits(None, 42) and not AllowList([]).permits(42, 42)
    assert allow.stranger(8, -1001) and not allow.stranger(8, -1001)
