"""Claude Code hooks through `handle("claude-code", raw)`, on a real SQLite store.

Every test runs in its own `COACHLOOP_HOME` with a real git project as the payload's
`cwd`; the store is the home's `coachloop.db`, for every project. A few tests run the real
`coachloop hook claude-code` process (in-process mode, no daemon).
"""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

import pytest

from coachloop.agents.payload import REPLY_LIMIT, block_reply
from coachloop.chat.delivery import deliver_to_console, log_path
from coachloop.config import home
from coachloop.config.project import project_root
from coachloop.store import UnknownSession
from hook_support import (
    EVIDENCE,
    HEDGE,
    QUESTION,
    call,
    claude,
    decision,
    hook_log,
    project_fixture,  # noqa: F401 - a fixture
    prompt,
    run_hook,
    stop,
    store_of,
    trust_project,
)

AGENT = "claude-code"


# --- Stop -------------------------------------------------------------------------------


def test_a_hedged_stop_is_blocked_with_specific_coaching(project: Path) -> None:
    reply = call(AGENT, stop("s1", project, HEDGE))
    body = decision(reply)
    assert body is not None and set(body) == {"decision", "reason"}
    assert body["decision"] == "block"
    assert body["reason"].startswith("[System Coach] ")
    assert "It should work now" in body["reason"]  # it quotes the hedge
    with store_of(project) as store:
        (rec,) = store.timeline("s1")
        assert (rec.kind, rec.decision, rec.job_id) == ("stop", "continue", "p1")
        assert rec.message == body["reason"]
        assert store.outbox_pending() == []


def test_the_fourth_status_stop_is_delivered_and_a_prompt_resets_the_count(project: Path) -> None:
    assert call(AGENT, prompt("s1", project, "fix the login bug")).stdout == b""
    replies = [
        call(AGENT, stop("s1", project, f"{HEDGE} ({i})", stop_hook_active=i > 0)) for i in range(4)
    ]
    assert [decision(r) is not None for r in replies] == [True, True, True, False]
    assert replies[3].stdout == b""
    with store_of(project) as store:
        (entry,) = store.outbox_pending()
        assert entry.kind == "deliver" and "(3)" in entry.text
        assert "Auto-continue cap reached (3 of 3" in entry.text
        assert store.get_session("s1").continues == 3
    # a human prompt resets the count: the next hedge is coached again
    assert (
        call(AGENT, prompt("s1", project, "still broken, look again", prompt_id="p2")).stdout == b""
    )
    again = decision(call(AGENT, stop("s1", project, HEDGE, prompt_id="p2")))
    assert again is not None and again["decision"] == "block"
    with store_of(project) as store:
        assert store.get_session("s1").continues == 1


def test_a_question_and_an_evidenced_completion_are_delivered_at_once(project: Path) -> None:
    assert call(AGENT, stop("s1", project, QUESTION)).stdout == b""
    assert call(AGENT, stop("s2", project, EVIDENCE)).stdout == b""
    with store_of(project) as store:
        texts = [(e.session_id, e.kind, e.text) for e in store.outbox_pending()]
        assert texts == [("s1", "deliver", QUESTION), ("s2", "deliver", EVIDENCE)]
        assert store.get_session("s2").status == "done"
    assert QUESTION in log_path().read_text(encoding="utf-8")  # the console channel


def test_the_reply_to_a_continuation_is_accepted_once_and_a_non_reply_is_dropped(
    project: Path,
) -> None:
    assert decision(call(AGENT, stop("s1", project, HEDGE))) is not None
    # the same job stopping again without stop_hook_active is not the reply: dropped
    assert call(AGENT, stop("s1", project, QUESTION)).stdout == b""
    # the reply (stop_hook_active) is judged: a question is delivered
    assert call(AGENT, stop("s1", project, QUESTION, stop_hook_active=True)).stdout == b""
    with store_of(project) as store:
        decisions = [r.decision for r in store.timeline("s1")]
        assert decisions == ["continue", "drop", "deliver"]


def test_the_transcript_is_read_only_when_last_assistant_message_is_absent(
    project: Path, tmp_path: Path
) -> None:
    transcript = tmp_path / "t.jsonl"
    line = {
        "type": "assistant",
        "message": {"id": "m1", "content": [{"type": "text", "text": QUESTION}]},
    }
    transcript.write_text("not json\n" + json.dumps(line) + "\n", encoding="utf-8")
    absent = stop("s1", project, None, transcript_path=str(transcript))
    assert call(AGENT, absent).stdout == b""
    present = stop("s2", project, HEDGE, transcript_path=str(transcript))
    assert decision(call(AGENT, present)) is not None  # the field wins over the transcript
    with store_of(project) as store:
        assert store.timeline("s1")[0].text == QUESTION
        assert store.timeline("s2")[0].text == HEDGE


def test_a_fifo_as_transcript_never_blocks(project: Path, tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    assert call(AGENT, stop("s1", project, None, transcript_path=str(fifo))).stdout == b""
    with store_of(project) as store:
        assert store.timeline("s1")[0].verdict_type == "error"  # empty output


def test_stop_failure_is_recorded_and_never_continued(project: Path) -> None:
    failure = claude(
        "StopFailure",
        "s1",
        project,
        prompt_id="p1",
        error="rate_limit",
        error_details="429 Too Many Requests",
    )
    assert call(AGENT, failure).stdout == b""
    # a later hedge of the failed session is not auto-continued either
    assert call(AGENT, stop("s1", project, HEDGE, prompt_id="p1b")).stdout == b""
    with store_of(project) as store:
        first, second = store.timeline("s1")
        assert (first.decision, first.verdict_type) == ("deliver", "error")
        assert "rate_limit: 429 Too Many Requests" in first.why
        assert second.decision == "deliver"
        assert store.get_session("s1").status == "failed"


def test_a_subagents_delivery_is_dropped_and_its_jobs_stay_apart(project: Path) -> None:
    sub = dict(agent_id="a7", agent_type="Explore", prompt_id="p1")
    hedge = claude(
        "SubagentStop", "s1", project, stop_hook_active=False, last_assistant_message=HEDGE, **sub
    )
    body = decision(call(AGENT, hedge))
    assert body is not None and body["decision"] == "block"  # the subagent is sent back
    done = claude(
        "SubagentStop", "s1", project, stop_hook_active=True, last_assistant_message=EVIDENCE, **sub
    )
    assert call(AGENT, done).stdout == b""
    # the main agent's own stop of the same prompt is not a duplicate of the subagent's job
    assert call(AGENT, stop("s1", project, QUESTION)).stdout == b""
    with store_of(project) as store:
        jobs = [(r.job_id, r.decision) for r in store.timeline("s1")]
        assert jobs == [("p1/a7", "continue"), ("p1/a7", "drop"), ("p1", "deliver")]
        assert [e.text for e in store.outbox_pending()] == [QUESTION]


def test_without_prompt_id_the_job_follows_the_last_prompt(project: Path) -> None:
    def bare_stop(text: str, active: bool = False) -> dict[str, object]:
        data = stop("s1", project, text, stop_hook_active=active)
        del data["prompt_id"]
        return data

    call(AGENT, claude("UserPromptSubmit", "s1", project, prompt="fix it"))
    assert decision(call(AGENT, bare_stop(HEDGE))) is not None
    assert call(AGENT, bare_stop(QUESTION)).stdout == b""  # same job, not the reply: dropped
    call(AGENT, claude("UserPromptSubmit", "s1", project, prompt="and now?"))
    assert call(AGENT, bare_stop(QUESTION)).stdout == b""  # a new job: delivered
    with store_of(project) as store:
        recs = [r for r in store.timeline("s1") if r.kind == "stop"]
        assert [r.decision for r in recs] == ["continue", "drop", "deliver"]
        assert recs[0].job_id == recs[1].job_id != recs[2].job_id
        assert recs[0].job_id is not None and recs[0].job_id.startswith("h-")


# --- UserPromptSubmit, Notification, SessionStart, SessionEnd -------------------------


def test_a_prompt_records_prompt_and_skill_and_prints_nothing(project: Path) -> None:
    assert call(AGENT, prompt("s1", project, "/do-build the CSV exporter")).stdout == b""
    with store_of(project) as store:
        state = store.get_session("s1")
        assert (state.context.prompt, state.context.skill, state.context.phase) == (
            "/do-build the CSV exporter",
            "/do-build",
            "build",
        )
        assert state.continues == 0 and store.outbox_pending() == []
    # the skill shapes the coaching: /do-build wants a test run
    body = decision(call(AGENT, stop("s1", project, "Implemented the exporter. Done.")))
    assert body is not None and "/do-build" in body["reason"]


def test_machine_injected_prompts_do_not_reset_the_cap(project: Path) -> None:
    call(AGENT, prompt("s1", project, "fix it"))
    for i in range(3):
        call(AGENT, stop("s1", project, f"{HEDGE} {i}", stop_hook_active=i > 0))
    call(
        AGENT, prompt("s1", project, "<task-notification>done</task-notification>", source="system")
    )
    call(AGENT, prompt("s1", project, "[System Coach] Not done yet.", prompt_id="p9"))  # our echo
    assert call(AGENT, stop("s1", project, f"{HEDGE} again", stop_hook_active=True)).stdout == b""
    with store_of(project) as store:
        assert [r.kind for r in store.timeline("s1")].count("human") == 1


def test_a_permission_prompt_is_delivered_and_never_blocked(project: Path) -> None:
    call(AGENT, prompt("s1", project, "deploy it"))
    note = claude(
        "Notification",
        "s1",
        project,
        message="Claude needs your permission to use Bash",
        notification_type="permission_prompt",
    )
    assert call(AGENT, note).stdout == b""
    ignored = claude(
        "Notification", "s1", project, message="Auth ok", notification_type="auth_success"
    )
    assert call(AGENT, ignored).stdout == b""
    with store_of(project) as store:
        (entry,) = store.outbox_pending()
        assert entry.kind == "notice"
        assert entry.text == (
            "[coachloop] Claude Code is waiting for you (permission_prompt): "
            "Claude needs your permission to use Bash"
        )
        assert store.get_session("s1").status == "waiting"
        assert [r.kind for r in store.timeline("s1")] == ["human", "alert"]


def test_session_start_records_and_session_end_closes(project: Path) -> None:
    call(AGENT, claude("SessionStart", "s1", project, source="startup", model="claude"))
    with store_of(project) as store:
        state = store.get_session("s1")
        assert (state.status, state.agent, state.project) == ("waiting", AGENT, str(project))
    call(AGENT, claude("SessionEnd", "s1", project, reason="prompt_input_exit"))
    call(AGENT, claude("SessionEnd", "never-started", project, reason="other"))
    with store_of(project) as store:
        assert store.get_session("s1").status == "done"
        assert [r.why for r in store.timeline("s1")] == [
            "session started (startup)",
            "session ended (prompt_input_exit)",
        ]
        with pytest.raises(UnknownSession):
            store.get_session("never-started")


# --- failing open ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "raw",
    [
        b"",
        b"not json",
        b"\xff\xfe\x00binary",
        b"[1, 2, 3]",
        b'{"hook_event_name": "Stop"}',
        b'{"hook_event_name": "Stop", "session_id": ""}',
        b'{"hook_event_name": "Stop", "session_id": "   "}',
        b'{"hook_event_name": "Stop", "session_id": 42}',
        b'{"session_id": "s1"}',
        b"[" * 100_000,
    ],
)
def test_bad_payloads_fail_open_with_one_log_line(project: Path, raw: bytes) -> None:
    reply = call(AGENT, raw)
    assert reply.stdout == b""
    lines = hook_log().splitlines()
    assert len(lines) == 1 and "failed open: PayloadError" in lines[0]
    assert not (project / ".coachloop").exists()  # nothing was stored anywhere


def test_a_store_error_fails_open_and_logs_without_the_payload(project: Path) -> None:
    (project / ".coachloop").mkdir()
    (project / ".coachloop" / "config.toml").write_text('[store]\nurl = "own.db"\n')
    trust_project(project)
    (project / "own.db").write_text("not a database")
    secret = "sk-ant-api03-abcdefghijklmnop"
    reply = call(AGENT, stop("s1", project, f"{HEDGE} {secret}"))
    assert reply.stdout == b""
    log = hook_log()
    assert "StoreError" in log and secret not in log and HEDGE not in log


def test_wrong_types_count_as_absent(project: Path) -> None:
    data = stop("s1", project, None, stop_hook_active="yes", transcript_path=["x"])
    data["prompt_id"] = 7
    data["last_assistant_message"] = {"text": QUESTION}
    assert call(AGENT, data).stdout == b""
    with store_of(project) as store:
        rec = store.timeline("s1")[0]
        assert (rec.job_id, rec.text, rec.verdict_type) == (None, "", "error")


def test_lone_surrogates_are_replaced_so_every_record_and_snapshot_is_written(
    project: Path,
) -> None:
    raw = json.dumps(stop("s1", project, "Use Postgres \ud800 or SQLite?")).encode()
    assert b"\\ud800" in raw
    assert call(AGENT, raw).stdout == b""
    with store_of(project) as store:
        (entry,) = store.outbox_pending()
        assert entry.text == "Use Postgres ? or SQLite?"
        assert [life.label for life in store.lifecycle("s1")] == ["deliver"]


def test_a_long_reason_is_cut_to_the_hook_output_cap() -> None:
    reason = "[System Coach] " + 'é𝄞"\\\n' * 6000
    out = block_reply(reason)
    body = json.loads(out)
    text = out.decode("utf-8")
    assert len(text) + sum(1 for ch in text if ord(ch) > 0xFFFF) <= REPLY_LIMIT
    assert body["decision"] == "block" and body["reason"].startswith("[System Coach] é𝄞")
    assert "[coachloop: message cut," in body["reason"]
    assert json.loads(block_reply("short"))["reason"] == "short"


# --- project, console ----------------------------------------------------------------------


def test_the_project_is_the_git_work_tree_of_cwd(project: Path, tmp_path: Path) -> None:
    sub = project / "src" / "pkg"
    sub.mkdir(parents=True)
    assert project_root(str(sub)) == project
    plain = tmp_path / "scratch"
    plain.mkdir()
    assert project_root(str(plain)) == plain
    assert project_root("/") is None
    assert project_root("relative/dir") is None
    assert project_root(str(tmp_path / "missing")) is None
    call(AGENT, stop("s1", sub, QUESTION))
    with store_of(project) as store:
        assert store.get_session("s1").project == str(project)


def test_without_a_project_the_users_store_is_used(tmp_path: Path) -> None:
    call(AGENT, stop("s1", "", QUESTION))
    call(AGENT, stop("s2", tmp_path / "missing", QUESTION))
    with store_of(None) as store:
        assert sorted(s.session_id for s in store.list_sessions()) == ["s1", "s2"]


def test_a_config_change_and_a_deleted_store_are_picked_up_between_calls(project: Path) -> None:
    assert decision(call(AGENT, stop("s1", project, HEDGE))) is not None
    (project / ".coachloop").mkdir()
    (project / ".coachloop" / "config.toml").write_text("max_auto_continues = 0\n")
    assert call(AGENT, stop("s2", project, HEDGE)).stdout == b""  # cap 0: delivered
    for path in home().glob("coachloop.db*"):
        path.unlink()
    assert call(AGENT, stop("s3", project, HEDGE)).stdout == b""
    with store_of(project) as store:
        assert [s.session_id for s in store.list_sessions()] == ["s3"]  # a fresh file
        assert store.timeline("s3")[0].why.startswith("auto-continue cap reached (0/0)")


def test_console_delivery_shows_each_entry_once_and_leaves_the_outbox(project: Path) -> None:
    call(AGENT, stop("s1", project, QUESTION))
    call(AGENT, stop("s2", project, EVIDENCE))
    with store_of(project) as store:
        out = io.StringIO()
        assert deliver_to_console(store, out) == 2
        assert QUESTION in out.getvalue() and "42 passed in 1.84s" in out.getvalue()
        assert deliver_to_console(store, io.StringIO()) == 0
        assert len(store.outbox_pending()) == 2  # the chat bridge still has them
        call(AGENT, stop("s3", project, QUESTION))
        later = io.StringIO()
        assert deliver_to_console(store, later) == 1 and "session s3" in later.getvalue()


# --- the real command ----------------------------------------------------------------------


def test_the_real_hook_command_blocks_a_hedge_and_lets_a_question_stop(project: Path) -> None:
    hedge = run_hook(AGENT, json.dumps(stop("s1", project, HEDGE)).encode())
    assert hedge.returncode == 0
    body = json.loads(hedge.stdout)
    assert body["decision"] == "block" and body["reason"].startswith("[System Coach]")
    question = run_hook(AGENT, json.dumps(stop("s2", project, QUESTION)).encode())
    assert (question.returncode, question.stdout) == (0, b"")
    garbage = run_hook(AGENT, b"\x00\x01 not json")
    assert (garbage.returncode, garbage.stdout) == (0, b"")
    with store_of(project) as store:
        assert [e.text for e in store.outbox_pending()] == [QUESTION]
