"""Codex CLI (hooks and `notify`) and Gemini CLI through `handle()`, on a real SQLite store."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hook_support import (
    EVIDENCE,
    HEDGE,
    QUESTION,
    call,
    decision,
    hook_log,
    project_fixture,  # noqa: F401 - a fixture
    run_hook,
    store_of,
)
from transcript_support import Chat, Rollout


def codex(event: str, session: str, cwd: Path, **fields: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "session_id": session,
        "cwd": str(cwd),
        "hook_event_name": event,
        "model": "gpt-5-codex",
        "permission_mode": "default",
        "transcript_path": None,
    }
    data.update(fields)
    return data


def codex_stop(
    session: str, cwd: Path, text: str | None, turn: str, active: bool = False
) -> dict[str, Any]:
    return codex(
        "Stop", session, cwd, turn_id=turn, stop_hook_active=active, last_assistant_message=text
    )


def notify(
    thread: str, cwd: Path, text: str | None, turn: str, prompts: list[str]
) -> dict[str, Any]:
    return {
        "type": "agent-turn-complete",
        "thread-id": thread,
        "turn-id": turn,
        "cwd": str(cwd),
        "client": "codex-tui",
        "input-messages": prompts,
        "last-assistant-message": text,
    }


def gemini(event: str, session: str, cwd: Path, **fields: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "session_id": session,
        "transcript_path": "/nonexistent/chat.json",
        "cwd": str(cwd),
        "hook_event_name": event,
        "timestamp": "2025-01-01T00:00:00Z",
    }
    data.update(fields)
    return data


def after_agent(
    session: str, cwd: Path, prompt: str, text: str, active: bool = False
) -> dict[str, Any]:
    return gemini(
        "AfterAgent", session, cwd, prompt=prompt, prompt_response=text, stop_hook_active=active
    )


# --- Codex hooks ----------------------------------------------------------------------------


def test_codex_stop_blocks_a_hedge_with_the_turn_as_job(project: Path) -> None:
    body = decision(call("codex", codex_stop("t1", project, HEDGE, "turn-1")))
    assert body is not None and body["decision"] == "block"
    assert body["reason"].startswith("[System Coach] ")
    assert call("codex", codex_stop("t1", project, EVIDENCE, "turn-1", active=True)).stdout == b""
    with store_of(project) as store:
        recs = store.timeline("t1")
        assert [(r.job_id, r.decision) for r in recs] == [
            ("turn-1", "continue"),
            ("turn-1", "deliver"),
        ]
        assert store.get_session("t1").agent == "codex"


def test_codex_a_new_turn_resets_the_cap_with_its_prompt_but_never_after_a_continuation(
    project: Path, tmp_path: Path
) -> None:
    rollout = Rollout(tmp_path / "rollout.jsonl").turn("turn-1", "fix the login bug")

    def stop(text: str, turn: str, active: bool = False) -> dict[str, Any]:
        payload = codex_stop("t1", project, text, turn, active=active)
        return {**payload, "transcript_path": str(rollout.path)}

    replies = [call("codex", stop(f"{HEDGE} {i}", "turn-1", active=i > 0)) for i in range(4)]
    assert [decision(r) is not None for r in replies] == [True, True, True, False]  # cap 3
    # the human typed again (no prompt hook ran): turn-2 is recorded with its prompt
    rollout.turn("turn-2", "now the logout bug")
    assert decision(call("codex", stop(HEDGE, "turn-2"))) is not None
    # a stop that follows a continuation is its reply, whatever its turn: no reset
    rollout.turn("turn-3", "and the signup bug")
    call("codex", stop(f"{HEDGE} again", "turn-3"))
    with store_of(project) as store:
        humans = [r for r in store.timeline("t1") if r.kind == "human"]
        assert [h.text for h in humans] == ["fix the login bug", "now the logout bug"]
        assert store.get_session("t1").continues == 2


def test_codex_a_turn_without_a_readable_rollout_records_no_empty_human_event(
    project: Path,
) -> None:
    call("codex", codex_stop("t1", project, HEDGE, "turn-1"))  # transcript_path is null
    call("codex", codex_stop("t1", project, QUESTION, "turn-2"))
    with store_of(project) as store:
        assert [r.kind for r in store.timeline("t1")] == ["stop", "stop"]


def test_codex_an_empty_turn_is_read_from_the_rollout(project: Path, tmp_path: Path) -> None:
    rollout = Rollout(tmp_path / "rollout.jsonl").turn("turn-1", "fix it")
    rollout.say("Running the tests.").shell("pytest -q", "2 passed").say(HEDGE)
    payload = {**codex_stop("t1", project, None, "turn-1"), "transcript_path": str(rollout.path)}
    body = decision(call("codex", payload))  # null last_assistant_message: the rollout says
    assert body is not None and "should work now" in body["reason"].lower()
    # the reply to the coaching said nothing: an error, delivered, never continued
    rollout.hook_prompt(body["reason"])
    again = {**payload, "stop_hook_active": True}
    assert call("codex", again).stdout == b""
    with store_of(project) as store:
        last = store.timeline("t1")[-1]
        assert (last.decision, last.verdict_type) == ("deliver", "error")


def test_codex_prompt_and_failure_hooks(project: Path) -> None:
    call(
        "codex",
        codex("UserPromptSubmit", "t1", project, turn_id="turn-1", prompt="/do-test the parser"),
    )
    failure = codex(
        "StopFailure",
        "t1",
        project,
        turn_id="turn-1",
        error="server_error",
        error_details=None,
        last_assistant_message=None,
    )
    assert call("codex", failure).stdout == b""
    with store_of(project) as store:
        state = store.get_session("t1")
        assert (state.context.skill, state.status) == ("/do-test", "failed")
        assert store.timeline("t1")[-1].why.startswith("error (server_error)")


def test_codex_notify_never_blocks_and_delivers_the_coaching(project: Path) -> None:
    raw = json.dumps(notify("th1", project, HEDGE, "turn-1", ["Fix the login bug"])).encode()
    assert call("codex-notify", raw).stdout == b""
    with store_of(project) as store:
        (entry,) = store.outbox_pending()
        assert entry.kind == "deliver" and entry.text.startswith(HEDGE)
        assert (
            "[coachloop] Codex cannot be sent back from this hook; the coaching it would have had: [System Coach]"
            in entry.text
        )
        state = store.get_session("th1")
        assert (state.continues, state.context.prompt, state.status) == (
            0,
            "Fix the login bug",
            "waiting",
        )
        assert [r.kind for r in store.timeline("th1")] == ["human", "stop"]


def test_codex_notify_delivers_a_question_and_ignores_other_types(project: Path) -> None:
    assert (
        call("codex-notify", notify("th1", project, QUESTION, "turn-1", ["pick a db"])).stdout
        == b""
    )
    assert call("codex-notify", {"type": "approval-requested", "thread-id": "th2"}).stdout == b""
    with store_of(project) as store:
        assert [(e.session_id, e.text) for e in store.outbox_pending()] == [("th1", QUESTION)]
        assert [s.session_id for s in store.list_sessions()] == ["th1"]
    assert hook_log() == ""  # an ignored type is not a failure


# --- Gemini -----------------------------------------------------------------------------------


def test_gemini_denies_a_hedge_and_records_the_prompt(project: Path) -> None:
    body = decision(call("gemini", after_agent("g1", project, "/do-build the exporter", HEDGE)))
    assert body is not None and body["decision"] == "deny"
    assert body["reason"].startswith("[System Coach] ")
    with store_of(project) as store:
        state = store.get_session("g1")
        assert (state.context.prompt, state.context.skill) == (
            "/do-build the exporter",
            "/do-build",
        )


def test_gemini_retries_keep_their_job_until_the_cap_and_a_new_prompt_resets(project: Path) -> None:
    replies = [
        call("gemini", after_agent("g1", project, "fix it", f"{HEDGE} {i}", active=i > 0))
        for i in range(4)
    ]
    assert [decision(r) is not None for r in replies] == [True, True, True, False]
    # the same prompt again is not a new human turn: the cap still holds
    assert call("gemini", after_agent("g1", project, "fix it", HEDGE)).stdout == b""
    # a new prompt is a new turn: the cap starts again
    assert (
        decision(call("gemini", after_agent("g1", project, "try the other fix", HEDGE))) is not None
    )
    with store_of(project) as store:
        stops = [r for r in store.timeline("g1") if r.kind == "stop"]
        assert [r.decision for r in stops] == ["continue"] * 3 + ["deliver", "deliver", "continue"]
        jobs = {r.job_id for r in stops[:5]}
        assert len(jobs) == 1 and stops[5].job_id not in jobs


def test_gemini_stops_are_read_from_the_chat_file(project: Path, tmp_path: Path) -> None:
    chat = Chat(tmp_path / "chat.jsonl").user("fix it").gemini(HEDGE)

    def stop(stacked: str, active: bool) -> dict[str, Any]:
        payload = after_agent("g1", project, "fix it", stacked, active=active)
        return {**payload, "transcript_path": str(chat.path)}

    body = decision(call("gemini", stop(HEDGE, False)))
    assert body is not None
    # Gemini retries: the reason as a user message, a tool call, then the answer from a
    # fresh model call: stop_hook_active false, prompt_response stacked and garbled
    chat.user(body["reason"]).shell("pytest -q", "42 passed").gemini(EVIDENCE)
    garbled = f"{HEDGE}\n{EVIDENCE} {EVIDENCE[20:]}"
    assert call("gemini", stop(garbled, False)).stdout == b""
    with store_of(project) as store:
        last = store.timeline("g1")[-1]
        assert (last.decision, last.text) == ("deliver", EVIDENCE)  # the answer alone
        assert [e.text for e in store.outbox_pending()] == [EVIDENCE]


def test_gemini_empty_response_is_an_error_never_a_retry(project: Path) -> None:
    assert call("gemini", after_agent("g1", project, "go", "[no response text]")).stdout == b""
    with store_of(project) as store:
        rec = store.timeline("g1")[-1]
        assert (rec.decision, rec.verdict_type) == ("deliver", "error")


def test_gemini_before_agent_notification_and_session_events(project: Path) -> None:
    call("gemini", gemini("SessionStart", "g1", project, source="startup"))
    call("gemini", gemini("BeforeAgent", "g1", project, prompt="refactor the cache"))
    assert (
        decision(call("gemini", after_agent("g1", project, "refactor the cache", HEDGE)))
        is not None
    )
    # our own retry reason coming back through BeforeAgent is not the human
    call("gemini", gemini("BeforeAgent", "g1", project, prompt="[System Coach] Not done yet."))
    note = gemini(
        "Notification",
        "g1",
        project,
        notification_type="ToolPermission",
        message="Allow shell?",
        details={},
    )
    assert call("gemini", note).stdout == b""
    call("gemini", gemini("SessionEnd", "g1", project, reason="exit"))
    with store_of(project) as store:
        kinds = [r.kind for r in store.timeline("g1")]
        assert kinds == ["status", "human", "stop", "alert", "status"]
        assert store.get_session("g1").status == "done"
        (entry,) = store.outbox_pending()
        assert (
            entry.text == "[coachloop] Gemini CLI is waiting for you (ToolPermission): Allow shell?"
        )


# --- agents, processes --------------------------------------------------------------------------


def test_an_unknown_agent_fails_open_and_is_logged(project: Path) -> None:
    assert call("cursor", after_agent("g1", project, "x", HEDGE)).stdout == b""
    assert "unknown agent 'cursor'" in hook_log()


def test_the_real_hook_command_for_codex_and_gemini(project: Path) -> None:
    out = run_hook("codex", json.dumps(codex_stop("t1", project, HEDGE, "turn-1")).encode())
    assert out.returncode == 0 and json.loads(out.stdout)["decision"] == "block"
    out = run_hook("gemini", json.dumps(after_agent("g1", project, "go", HEDGE)).encode())
    assert out.returncode == 0 and json.loads(out.stdout)["decision"] == "deny"
    out = run_hook("gemini", json.dumps(after_agent("g2", project, "go", QUESTION)).encode())
    assert (out.returncode, out.stdout) == (0, b"")
