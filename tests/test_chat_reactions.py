"""The human's verdict through the real bridge (python-telegram-bot against the local Bot
API, which delivers reactions only to a poller that asks for them, and in groups only to
an admin bot): 👍 closes the job as done, 👎 steers the session back with the delivered
message quoted, strangers' reactions are ignored, `/done` and `/reject` work as replies,
and every override of a verdict is kept as a correction."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from pathlib import Path

from coachloop.chat.telegram import Bridge
from coachloop.core.verdict import Verdict
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

DONE = "Added the export. Ran `pytest -q`: 14 passed in 0.8s. Commit 3f2a9c1."
COMPLETION = Verdict("completion", 0.95, "evidenced", "rules")
STRANGER = 999


def sent(api: TelegramBotAPI, text: str) -> SentMessage:
    (found,) = [m for m in api.sent if text in m.text]
    return found


def corrections(sup: Supervisor, session_id: str) -> list[dict[str, object]]:
    rows = [r for r in sup.reads.timeline(session_id) if r.kind == "correction"]
    return [{"how": r.source, "corrected": r.verdict, **json.loads(r.message)} for r in rows]


def test_thumbs_up_closes_the_job_and_a_strangers_reaction_is_ignored(
    api: TelegramBotAPI, project: Path, sup: Supervisor
) -> None:
    stop(sup, "s-done", DONE, project, COMPLETION)
    agent = RecordingAgent()
    with Running(Bridge(config(api, {CHAT: project}), agent)):
        assert wait(lambda: pending(sup) == 0)
        delivered = sent(api, "14 passed")
        api.push_reaction(CHAT, delivered.message_id, "👍", user_id=STRANGER)
        api.push_text(CHAT, "/help")  # a later update: the stranger's was handled by then
        assert wait(lambda: any("/sessions" in m.text for m in api.sent))
        assert sup.reads.get_session("s-done").outcome is None  # ignored
        api.push_reaction(CHAT, delivered.message_id, "👍")
        assert wait(lambda: any(m.text.startswith("✅") for m in api.sent))
    state = sup.reads.get_session("s-done")
    assert state.outcome == "done" and state.status == "done"
    assert all(j.status == "closed" for j in state.jobs)
    last = sup.reads.timeline("s-done")[-1]
    assert last.kind == "status" and "accepted the work (👍)" in last.why
    assert corrections(sup, "s-done") == []  # the judge delivered it: nothing to correct
    assert agent.calls == []
    assert sent(api, "✅").text == "✅ s-done done: its job is closed (👍)"
    shown = subprocess.run(
        [sys.executable, "-m", "coachloop", "show", "s-done"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert shown.returncode == 0, shown.stderr
    assert "accepted the work (👍)" in shown.stdout


def test_thumbs_down_steers_the_session_with_the_message_quoted_and_is_kept(
    api: TelegramBotAPI, project: Path, sup: Supervisor
) -> None:
    stop(sup, "s-no", DONE, project, COMPLETION)
    agent = RecordingAgent()
    with Running(Bridge(config(api, {CHAT: project}), agent)):
        assert wait(lambda: pending(sup) == 0)
        api.push_reaction(CHAT, sent(api, "14 passed").message_id, "👎")
        assert wait(lambda: len(agent.calls) == 1)
    ((directory, prompt, resume),) = agent.calls
    assert resume == "s-no" and directory == project
    assert prompt == f"The human does not accept this: “{DONE.replace('`', '')}”"  # as shown
    assert sup.reads.get_session("s-no").context.prompt == prompt  # a human message
    (kept,) = corrections(sup, "s-no")
    assert kept["type"] == "status" and kept["route"] == "continue" and kept["how"] == "👎"
    assert isinstance(kept["corrected"], dict) and kept["corrected"]["type"] == "completion"


def test_thumbs_down_quotes_the_message_reacted_to_and_corrects_its_verdict(
    api: TelegramBotAPI, project: Path, sup: Supervisor
) -> None:
    stop(sup, "s-two", DONE, project, COMPLETION)
    later = "Also added the CSV header row. Ran `pytest -q`: 15 passed in 0.9s."
    stop(sup, "s-two", later, project, Verdict("completion", 0.9, "evidenced too", "rules"))
    agent = RecordingAgent()
    with Running(Bridge(config(api, {CHAT: project}), agent)):
        assert wait(lambda: pending(sup) == 0)
        api.push_reaction(CHAT, sent(api, "14 passed").message_id, "👎")  # the older one
        assert wait(lambda: len(agent.calls) == 1)
    assert "14 passed" in agent.calls[0][1] and "15 passed" not in agent.calls[0][1]
    (kept,) = corrections(sup, "s-two")
    assert isinstance(kept["corrected"], dict) and kept["corrected"]["reason"] == "evidenced"


def test_thumbs_down_while_the_turn_runs_is_queued_for_it(
    api: TelegramBotAPI, project: Path, sup: Supervisor
) -> None:
    stop(sup, "s-busy", "Which port: 8080 or 8443?", project)
    gate = threading.Event()
    agent = RecordingAgent(gate=gate)
    with Running(Bridge(config(api, {CHAT: project}), agent)):
        assert wait(lambda: pending(sup) == 0)
        question = sent(api, "Which port")
        api.push_text(CHAT, "8080", reply_to=question.message_id)  # the turn runs, held
        assert wait(lambda: len(agent.calls) == 1)
        api.push_reaction(CHAT, question.message_id, "👎")
        assert wait(lambda: any(m.text.startswith("⏸ queued") for m in api.sent))
        queued = [q.text for q in sup.reads.get_session("s-busy").steering]
        gate.set()
        # the turn ended without taking it: the bridge starts the next turn with it
        assert wait(lambda: len(agent.calls) == 2)
    assert queued == ["The human does not accept this: “Which port: 8080 or 8443?”"]
    assert agent.calls[1][1] == f"[Human] {queued[0]}" and agent.calls[1][2] == "s-busy"
    assert sup.reads.get_session("s-busy").steering == ()


def test_in_a_group_without_admin_rights_done_and_reject_work_as_replies(
    api: TelegramBotAPI, project: Path, sup: Supervisor
) -> None:
    group = -100123
    for n in range(4):  # the cap holds: the 4th is delivered though judged "continue"
        stop(sup, "s-cap", f"Tweak {n}: it should be fine now.", project, WORKING)
    stop(sup, "s-rej", DONE, project, COMPLETION)
    agent = RecordingAgent()
    cfg = config(api, {group: project}, allowed=frozenset({group, CHAT}))
    with Running(Bridge(cfg, agent)):
        assert wait(lambda: pending(sup) == 0)
        capped = sent(api, "cap reached")
        assert api.push_reaction(group, capped.message_id, "👍") is None  # never reaches it
        api.push_text(group, "/done", user_id=CHAT, reply_to=capped.message_id)
        assert wait(lambda: any(m.text.startswith("✅") for m in api.sent))
        api.push_text(group, "/reject", user_id=CHAT, reply_to=sent(api, "14 passed").message_id)
        assert wait(lambda: len(agent.calls) == 1)
    assert sup.reads.get_session("s-cap").outcome == "done"
    (kept,) = corrections(sup, "s-cap")  # judged "continue", accepted as done
    assert (kept["type"], kept["route"], kept["how"]) == ("completion", "deliver", "/done")
    assert agent.calls[0][1].startswith("The human does not accept this: “Added the export.")
    (rejected,) = corrections(sup, "s-rej")
    assert (rejected["type"], rejected["route"], rejected["how"]) == (
        "status",
        "continue",
        "/reject",
    )


def test_the_dashboard_shows_the_job_done_the_correction_and_the_steering(
    store_spec: object, tmp_path: Path
) -> None:
    from coachloop.core.events import HumanMessage, StopEvent
    from coachloop.supervisor.feedback import Label, last_delivered
    from dashboard_support import get, html, in_process

    store = store_spec.open()  # type: ignore[attr-defined]
    try:
        sup = Supervisor(store, snapshots_on=False)
        sup.on_human(HumanMessage("s-dash", "add the export", project="/p"))
        sup.on_stop(StopEvent("s-dash", "Still on it.", project="/p"), WORKING)
        sup.steer("s-dash", "use CSV, not JSON", key="k1")
        assert sup.steer_at_stop(StopEvent("s-dash", "Working.", project="/p")) is not None
        sup.on_stop(StopEvent("s-dash", DONE, project="/p"), COMPLETION)
        stop_rec = last_delivered(sup.reads, "s-dash")
        assert stop_rec is not None
        sup.correct("s-dash", stop_rec, Label("status", "continue", "👎"))
        sup.accept("s-dash", "👍")
        page = html(get(in_process(store), "/session/s-dash"))
        listing = html(get(in_process(store), "/"))
    finally:
        store.close()
    assert "the human&#39;s messages, handed to the agent" in page
    assert "[Human] use CSV, not JSON" in page
    assert "correction by the human (👎)" in page
    assert "accepted the work (👍): job closed as done" in page
    assert 'class="status-done"' in listing  # the session row shows it done


def test_a_new_message_in_the_projects_chat_steers_its_one_running_session(
    api: TelegramBotAPI, project: Path, sup: Supervisor
) -> None:
    from coachloop.core.events import HumanMessage

    # a terminal session of the project, in the middle of a turn
    sup.on_human(HumanMessage("s-term", "refactor the cart", project=str(project)))
    agent = RecordingAgent()
    with Running(Bridge(config(api, {CHAT: project}), agent)):
        api.push_text(CHAT, "keep the public API as it is")
        assert wait(lambda: any(m.text.startswith("⏸ queued") for m in api.sent))
        assert [q.text for q in sup.reads.get_session("s-term").steering] == [
            "keep the public API as it is"
        ]
        sup.set_status("s-term", "waiting", "the turn ended")  # now idle: a new session
        api.push_text(CHAT, "write the changelog")
        assert wait(lambda: len(agent.calls) == 1)
    assert agent.calls == [(project, "write the changelog", None)]


def test_a_session_running_but_silent_for_long_is_resumed_not_queued(
    api: TelegramBotAPI, project: Path, sup: Supervisor
) -> None:
    import time

    from coachloop.core.events import HumanMessage, StopEvent
    from telegram_support import ASK

    long_ago = time.time() - 3600
    asked = StopEvent(
        "s-old", "Which port: 8080 or 8443?", project=str(project), timestamp=long_ago
    )
    sup.on_stop(asked, ASK)
    # its next turn was killed mid-way long ago: the store still says "running"
    sup.on_human(HumanMessage("s-old", "8080", project=str(project), timestamp=long_ago + 1))
    sup.steer("s-old", "left behind by the killed turn", key="k-old", running=True)
    agent = RecordingAgent()
    with Running(Bridge(config(api, {CHAT: project}), agent)):
        assert wait(lambda: pending(sup) == 0)
        api.push_text(CHAT, "use 8443 after all", reply_to=sent(api, "Which port").message_id)
        assert wait(lambda: len(agent.calls) == 2)
    assert agent.calls[0] == (project, "use 8443 after all", "s-old")
    # what the killed turn left queued is handed over once the new turn ends
    assert agent.calls[1][1] == "[Human] left behind by the killed turn"
    assert sup.reads.get_session("s-old").steering == ()
