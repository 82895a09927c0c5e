"""The Telegram bridge with the real python-telegram-bot client against the package's
local Bot API server over HTTP: deliveries (split, escaped, documents), per-chat rate
limits, 429 retry_after, outages and restarts (nothing lost, nothing twice), the
allow-list, and the token kept out of every log."""

from __future__ import annotations

import itertools
import logging
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from telegram.error import InvalidToken

from coachloop.chat.security import Secret
from coachloop.chat.telegram import AlreadyRunning, Bridge
from coachloop.supervisor import Supervisor
from coachloop.testing.telegram_api import TelegramBotAPI
from coachloop.testing.telegram_wire import check_html
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


def run(api: TelegramBotAPI, chats: dict[int, Path], **kw: object) -> Running:
    agent = kw.pop("agent", None) or RecordingAgent()
    return Running(Bridge(config(api, chats, **kw), agent))  # type: ignore[arg-type]


def test_a_long_delivery_is_split_escaped_and_keeps_its_code_block(
    api: TelegramBotAPI, project: Path, sup: Supervisor
) -> None:
    code = "\n".join(f"    if items[{i}] < limit and ok: total += 1  # <{i}>" for i in range(90))
    prose = "\n\n".join(f"Step {i}: checked <module_{i}> & its tests. " * 6 for i in range(14))
    text = f"Results for <Shop> & co:\n\n{prose}\n\n```python\n{code}\n```\n\nShould I merge?"
    stop(sup, "sess-long", text, project)
    with run(api, {CHAT: project}):
        assert wait(lambda: pending(sup) == 0)
    sent = api.sent
    assert len(sent) >= 3 and all(m.chat_id == CHAT for m in sent)
    assert all(c.status == 200 for c in api.calls_to("sendMessage"))  # no 400 for bad HTML
    for message in sent:
        assert len(message.raw) <= 4096 and check_html(message.raw)[1] is None
        assert message.raw.count("<pre>") == message.raw.count("</pre>")
    assert sent[0].text.startswith("🤖 shop · sess-lon\n\nResults for <Shop> & co:")
    assert "&lt;Shop&gt; &amp; co" in sent[0].raw
    visible = "\n".join(m.text for m in sent)
    assert [line for line in visible.split("\n") if line.startswith("    if items[")] == (
        code.split("\n")
    )
    assert sent[-1].text.endswith("Should I merge?")


def test_very_long_output_goes_as_a_document(
    api: TelegramBotAPI, project: Path, sup: Supervisor
) -> None:
    text = "Full log <below>:\n\n" + "\n".join(f"line {i}: ok & fine" for i in range(3000))
    stop(sup, "sess-doc", text, project)
    with run(api, {CHAT: project}, max_parts=3):
        assert wait(lambda: pending(sup) == 0)
    (message,) = api.sent
    assert message.document is not None
    assert message.document.content.decode("utf-8") == text
    assert message.document.filename.startswith("coachloop-sess-doc-")
    assert message.text.startswith("🤖 shop · sess-doc\n\nFull log <below>:")
    assert [c.method for c in api.calls if c.method.startswith("send")] == ["sendDocument"]


def test_rate_limit_spaces_messages_per_chat(
    api: TelegramBotAPI, tmp_path: Path, project: Path, sup: Supervisor
) -> None:
    other = tmp_path / "blog"
    other.mkdir()
    sup2 = Supervisor.open(other)
    for i in range(4):
        stop(sup, f"sess-a{i}", f"Question {i} for the shop?", project)
    for i in range(3):
        stop(sup2, f"sess-b{i}", f"Question {i} for the blog?", other)
    interval = 0.3
    with run(api, {CHAT: project, 43: other}, min_interval=interval):
        assert wait(lambda: len(api.sent) == 7)
    sup2.close()
    times = {
        chat: [c.at for c in api.calls_to("sendMessage") if c.chat_id == chat] for chat in (42, 43)
    }
    assert len(times[42]) == 4 and len(times[43]) == 3
    for chat_times in times.values():
        gaps = [b - a for a, b in itertools.pairwise(chat_times)]
        assert min(gaps) >= interval - 0.005, gaps
    # The chats are served side by side: the second chat does not wait for the first.
    assert times[43][0] < times[42][1]


def test_429_retry_after_is_waited_and_nothing_is_sent_twice(
    api: TelegramBotAPI, project: Path, sup: Supervisor
) -> None:
    api.fault("sendMessage", 429, retry_after=1)  # retried inside the rate limiter
    stop(sup, "sess-429", "Deploy now?", project)
    with run(api, {CHAT: project}):
        assert wait(lambda: pending(sup) == 0)
        api.fault("sendMessage", 429, retry_after=1, times=2)  # beyond its retries: held
        stop(sup, "sess-429", "And the docs?", project)
        assert wait(lambda: pending(sup) == 0, 15)
    first, second = api.calls_to("sendMessage")[:2]
    assert (first.status, second.status) == (429, 200)
    assert second.at - first.at >= 1.0
    assert [m.text.split("\n\n")[1] for m in api.sent] == ["Deploy now?", "And the docs?"]
    statuses = [c.status for c in api.calls_to("sendMessage")]
    assert statuses == [429, 200, 429, 429, 200]


def test_an_outage_loses_nothing_and_duplicates_nothing(
    api: TelegramBotAPI, project: Path, sup: Supervisor
) -> None:
    api.fault("sendMessage", 502, times=4)
    for i in range(3):
        stop(sup, f"sess-o{i}", f"Outage question {i}?", project)
    with run(api, {CHAT: project}):
        assert wait(lambda: pending(sup) == 0, 20)
    bodies = [m.text.split("\n\n")[1] for m in api.sent]
    assert bodies == [f"Outage question {i}?" for i in range(3)]
    assert [c.status for c in api.calls_to("sendMessage")].count(502) == 4


def test_restart_with_a_pending_outbox_sends_every_entry_exactly_once(
    api: TelegramBotAPI, project: Path, sup: Supervisor
) -> None:
    texts = [f"Entry {i}: which option?" for i in range(8)]
    for i, text in enumerate(texts):
        stop(sup, f"sess-r{i % 3}", text, project)
    first = run(api, {CHAT: project}, min_interval=0.15).start()
    assert wait(lambda: len(api.sent) >= 3)
    first.stop()
    left = pending(sup)
    assert 0 < left < 8  # stopped mid-way
    with run(api, {CHAT: project}, min_interval=0.02):
        assert wait(lambda: pending(sup) == 0)
    bodies = [m.text.split("\n\n")[1] for m in api.sent]
    assert sorted(bodies) == sorted(texts) and len(bodies) == len(set(bodies)) == 8
    assert bodies == texts  # and in order


def test_strangers_are_ignored_and_logged_once(
    api: TelegramBotAPI, project: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="coachloop.chat.security")
    group = -1001
    agent = RecordingAgent()
    with run(api, {group: project}, allowed=frozenset({group, CHAT}), agent=agent):
        api.push_text(7, "hello?", user_id=7)  # a stranger in their own chat
        api.push_text(group, "run rm -rf", user_id=8)  # a stranger in the allowed group
        api.push_text(7, "hello again", user_id=7)
        api.push_text(group, "please", user_id=8)
        api.push_text(99, "/sessions", user_id=CHAT)  # an allowed user in a strange chat
        api.push_text(group, "/sessions", user_id=CHAT)  # allowed user, allowed chat
        assert wait(lambda: len(api.sent) == 1)
    (answer,) = api.sent
    assert answer.chat_id == group and answer.text.startswith("No sessions yet")
    assert agent.calls == []
    warnings = [r.getMessage() for r in caplog.records if r.name == "coachloop.chat.security"]
    assert len(warnings) == 3
    assert sum("user 7 in chat 7" in w for w in warnings) == 1
    assert sum("user 8 in chat -1001" in w for w in warnings) == 1
    assert sum("user 42 in chat 99" in w for w in warnings) == 1


def test_a_second_bridge_on_the_same_outbox_refuses_to_start(
    api: TelegramBotAPI, project: Path
) -> None:
    with (
        run(api, {CHAT: project}),
        pytest.raises(AlreadyRunning, match=r"another coachloop bridge \(pid \d+\)"),
    ):
        run(api, {CHAT: project}).start()
    assert len(api.calls_to("getMe")) == 1  # the second never reached Telegram


def test_the_token_never_reaches_the_logs(
    api: TelegramBotAPI, project: Path, sup: Supervisor, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    api.fault("sendMessage", 400, description="Bad Request: chat not found", times=1)
    stop(sup, "sess-tok", "Token test?", project)
    with run(api, {CHAT: project}, agent=RecordingAgent(fail=True)):
        assert wait(lambda: pending(sup) == 0 or any(c.status == 400 for c in api.calls))
        api.push_text(CHAT, "start something")  # the agent fails: the error is reported
        assert wait(lambda: any("turn failed" in m.text for m in api.sent), 10)
    wrong = "987654321:AAWrongTokenWrongTokenWrongToken123456"
    bad = Bridge(config(api, {CHAT: project}, token=Secret(wrong)), RecordingAgent())
    with pytest.raises(InvalidToken) as info:
        Running(bad).start()
    assert wrong not in str(info.value) and wrong not in repr(info.value)
    text = caplog.text + "\n".join(r.getMessage() for r in caplog.records)
    assert api.token not in text and wrong not in text
    assert "bot[REDACTED]" in text  # python-telegram-bot logged its URL, redacted
    assert "chat not found" in text.lower()  # the refusal was logged (without the token)


def test_bridge_command_with_a_token_delivers_and_stops_on_sigterm(
    api: TelegramBotAPI, project: Path, sup: Supervisor, tmp_path: Path
) -> None:
    home = Path(os.environ["COACHLOOP_HOME"])
    home.mkdir(parents=True, exist_ok=True)
    (home / "config.toml").write_text(f'[telegram.chats]\n"{CHAT}" = "{project}"\n')
    stop(sup, "sess-cli", "Ship it <today>?", project)
    env = {
        **os.environ,
        "COACHLOOP_TELEGRAM_TOKEN": api.token,
        "COACHLOOP_TELEGRAM_API_URL": api.base_url,
        "COACHLOOP_TELEGRAM_ALLOWED": str(CHAT),
    }
    code = "from coachloop.cli.bridge_cmd import bridge; bridge(['-v', '--interval', '0.05'])"
    proc = subprocess.Popen(
        [sys.executable, "-c", code], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    try:
        assert wait(lambda: pending(sup) == 0, 20)
    finally:
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=20)
    assert proc.returncode == 0, err.decode()
    (message,) = api.sent
    assert message.text.endswith("Ship it <today>?")
    logs = (out + err).decode()
    assert api.token not in logs and "bot[REDACTED]" in logs
    assert re.search(r"Telegram bridge running as @coachloop_test_bot", logs)


def test_without_a_token_deliveries_print_and_stay_in_the_outbox(
    project: Path, sup: Supervisor, monkeypatch: pytest.MonkeyPatch
) -> None:
    from click.testing import CliRunner

    from coachloop.cli.bridge_cmd import bridge

    monkeypatch.delenv("COACHLOOP_TELEGRAM_TOKEN", raising=False)
    home = Path(os.environ["COACHLOOP_HOME"])
    home.mkdir(parents=True, exist_ok=True)
    (home / "config.toml").write_text(f'[telegram.chats]\n"{CHAT}" = "{project}"\n')
    stop(sup, "sess-con", "Which port <8080>?", project)
    first = CliRunner().invoke(bridge, ["--once"])
    assert first.exit_code == 0, first.output
    assert "Which port <8080>?" in first.output and "sess-con" in first.output
    assert pending(sup) == 1  # still in the outbox for a chat bridge
    again = CliRunner().invoke(bridge, ["--once"])
    assert "Which port" not in again.output  # printed once
