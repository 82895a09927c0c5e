"""The supervisor service: context in, one transaction, snapshots and retention around it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from coachloop import snapshots
from coachloop.config import ConfigError, home
from coachloop.core.events import HumanMessage, StopEvent
from coachloop.core.judge_input import JudgeInput
from coachloop.core.verdict import Verdict
from coachloop.snapshot_pack import pack, unpack, whole
from coachloop.store.sqlite import SQLiteStore
from coachloop.supervisor import Policy, Supervisor, lifecycle

STATUS = Verdict("status", 0.9, "mid-work", "rules", route="continue", coaching_message="go")
DONE = Verdict("completion", 0.9, "done", "rules")
ERROR = Verdict("error", 0.9, "crash", "signal")
ASK = Verdict("question", 0.9, "asks", "rules")


@pytest.fixture
def sup(tmp_path: Path) -> Iterator[Supervisor]:
    s = Supervisor(SQLiteStore(tmp_path / "c.db"), Policy(2), snapshot_root=tmp_path / "snaps")
    yield s
    s.close()


def _labels(sup: Supervisor, sid: str) -> list[str]:
    return [life.label for life in sup.reads.lifecycle(sid, 100)]


def test_process_judges_with_the_stored_context(sup: Supervisor) -> None:
    sup.on_human(HumanMessage("s1", "/do-build the parser", skill="/do-build", plan_file="plan.md"))
    seen: list[JudgeInput] = []

    def judge(item: JudgeInput) -> Verdict:
        seen.append(item)
        return STATUS

    for i in range(3):
        sup.process(StopEvent("s1", text=f"step {i}"), judge)
    assert [(j.prompt, j.skill, j.plan_file) for j in seen] == [
        ("/do-build the parser", "/do-build", "plan.md")
    ] * 3
    assert [j.text for j in seen] == ["step 0", "step 1", "step 2"]
    new = sup.context(StopEvent("brand-new", text="hi"))
    assert (new.prompt, new.skill) == (None, None)


def test_every_lifecycle_event_leaves_a_snapshot(sup: Supervisor, tmp_path: Path) -> None:
    sup.on_human(HumanMessage("s1", "go"))
    sup.on_stop(StopEvent("s1", text="a", job_id="j1"), STATUS)  # auto_continue
    sup.on_stop(StopEvent("s1", text="dup", job_id="j1"), DONE)  # drop
    sup.on_stop(StopEvent("s1", text="b"), STATUS)  # auto_continue
    sup.on_stop(StopEvent("s1", text="c"), STATUS)  # cap reached: deliver
    sup.on_stop(StopEvent("s1", text="done", job_id="j2"), DONE)  # complete
    sup.on_stop(StopEvent("s1", text="", kind="StopFailure", error="overloaded"), STATUS)  # error
    assert not (tmp_path / "snaps").exists()  # records live in the store, not in files
    assert _labels(sup, "s1") == [
        "resume",
        "auto_continue",
        "drop",
        "auto_continue",
        "deliver",
        "complete",
        "error",
    ]
    life = sup.reads.lifecycle("s1", 1)[0]
    assert "decision" not in unpack(life.body)  # kept once: in the timeline record
    last = whole(life, sup.reads.timeline("s1")[-1])
    assert last["decision"]["kind"] == "deliver" and last["state"]["status"] == "failed"
    assert last["stop"]["error"] == "overloaded"
    assert life.event_id == sup.reads.timeline("s1")[-1].id
    # its times are the record's and the row's, put back when a person reads it
    assert "saved_at" not in unpack(life.body) and last["saved_at"] == life.saved_at
    assert last["stop"]["timestamp"] == sup.reads.timeline("s1")[-1].ts


def test_lifecycle_labels() -> None:
    from coachloop.core.session import continue_with, deliver, drop

    e = StopEvent("s", text="x")
    assert lifecycle(e, STATUS, continue_with("go", "w")) == "auto_continue"
    assert lifecycle(e, STATUS, drop("dup")) == "drop"
    assert lifecycle(e, DONE, deliver("x", "w")) == "complete"
    assert lifecycle(e, STATUS, deliver("x", "cap")) == "deliver"
    assert lifecycle(StopEvent("s", kind="StopFailure"), STATUS, deliver("x", "w")) == "error"


def test_retention_cleanup_runs_at_most_once_an_hour(tmp_path: Path) -> None:
    clock = [time.time()]
    root = tmp_path / "snaps"
    store = SQLiteStore(tmp_path / "c.db")
    sup = Supervisor(store, snapshot_root=root, retention_days=7, clock=lambda: clock[0])
    stale = snapshots.save("old", "complete", {}, root=root)
    ten_days = clock[0] - 10 * 86_400
    os.utime(stale, (ten_days, ten_days))
    sup.on_stop(StopEvent("s1", text="q?"), DONE)
    assert stale.exists()  # a stop never runs maintenance
    assert sup.maintain().cleanup is not None  # the first step runs the cleanup
    assert not stale.exists()
    again = snapshots.save("old", "complete", {}, root=root)
    os.utime(again, (ten_days, ten_days))
    clock[0] += 600
    sup.on_stop(StopEvent("s1", text="q2?"), DONE)
    assert sup.maintain().cleanup is None
    assert again.exists()  # within the hour: not again
    other = Supervisor(SQLiteStore(tmp_path / "c.db"), snapshot_root=root, clock=lambda: clock[0])
    assert other.maintain().cleanup is None  # the claim is shared through the store
    clock[0] += 3600
    report = sup.maintain().cleanup
    assert report is not None and report.removed == 1 and not again.exists()
    store.close()
    other.close()


def test_every_door_to_a_session_records_and_snapshots(sup: Supervisor, tmp_path: Path) -> None:
    """Subagent and notify stops, notices, session start and end, flags and status
    changes all pass the supervisor: each leaves its record and its snapshot."""
    sup.on_start("s2", "session started (startup)", agent="codex", project="/p", cwd="/p")
    sup.on_human(HumanMessage("s2", "go"))
    sub = sup.on_stop(StopEvent("s2", text="Which DB?", kind="SubagentStop"), ASK)
    assert sub.decision.kind == "drop" and "parent agent" in sub.decision.why
    held = sup.on_stop(StopEvent("s2", text="working", agent="codex", can_block=False), STATUS)
    assert held.decision.kind == "deliver" and held.state.continues == 0
    assert "Codex cannot be sent back from this hook" in held.decision.text
    sup.on_notice("s2", "[coachloop] waits", "permission", agent="codex", project="/p", cwd="/p")
    assert sup.flag("s2", {"silent": "quiet"}) == ("silent",)
    assert sup.flag("s2", {"silent": "quiet"}) == ()  # already flagged: nothing written
    sup.set_status("s2", "abandoned", "stopped from the chat")
    sup.on_end("s2", "session ended (exit)", agent="codex")
    sup.on_end("never-seen", "session ended (exit)", agent="codex")  # not created
    assert sup.state("never-seen") is None
    kinds = [r.kind for r in sup.reads.timeline("s2")]
    assert kinds == ["status", "human", "stop", "stop", "alert", "alert", "status", "status"]
    assert _labels(sup, "s2") == [
        *("start", "resume", "drop", "deliver", "notice", "alert", "status", "end")
    ]


def test_snapshot_failure_never_loses_the_decision(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    from coachloop.supervisor import service

    def broken(*args: object) -> bytes:
        raise ValueError("cannot pack")

    monkeypatch.setattr(service, "pack", broken)
    monkeypatch.setattr(service, "pack_stop", broken)  # a stop's record
    sup = Supervisor(SQLiteStore(tmp_path / "c.db"))
    res = sup.on_stop(StopEvent("s1", text="working"), STATUS)
    assert res.decision.kind == "continue"
    sup.on_human(HumanMessage("s1", "go on"))
    assert sup.reads.get_session("s1").continues == 0
    assert caplog.text.count("could not save") == 2 and sup.reads.lifecycle("s1") == []
    sup.close()


def test_lifecycle_records_are_redacted_retained_and_exported(tmp_path: Path) -> None:
    from coachloop.snapshot_pack import export

    clock = [time.time()]
    sup = Supervisor(SQLiteStore(tmp_path / "c.db"), retention_days=1, clock=lambda: clock[0])
    secret = "sk-ant-" + "x" * 30
    sup.on_stop(StopEvent("s1", text=f"export KEY={secret}", cwd="/w"), STATUS)
    clock[0] += 2 * 86_400
    sup.on_stop(StopEvent("s1", text="Which DB?"), ASK)
    lives = sup.reads.lifecycle("s1")
    assert [life.label for life in lives] == ["auto_continue", "deliver"]
    first = unpack(lives[0].body)
    assert secret not in json.dumps(first) and first["stop"]["cwd"] == "/w"
    files = export(lives, tmp_path / "out", {e.id: e for e in sup.reads.timeline("s1")})
    assert [p.name.split("_", 1)[1] for p in files] == [
        f"{lives[0].event_id}_auto_continue.json",
        f"{lives[1].event_id}_deliver.json",
    ]
    assert json.loads(files[1].read_text())["decision"]["kind"] == "deliver"
    done = sup.maintain_all()  # retention: a bounded delete by time
    assert done.records == 1 and [x.label for x in sup.reads.lifecycle("s1")] == ["deliver"]
    sup.close()


def test_open_reads_project_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    proj = tmp_path / "proj"
    (proj / ".coachloop").mkdir(parents=True)
    (proj / ".coachloop" / "config.toml").write_text(
        "max_auto_continues = 1\n[snapshots]\nretention_days = 2\n"
    )
    sup = Supervisor.open(proj)
    assert sup.policy == Policy(1) and sup.retention_days == 2.0
    assert sup.reads.location == str(home() / "coachloop.db")  # one store for all projects
    kinds = [sup.on_stop(StopEvent("s", text=f"t{i}"), STATUS).decision.kind for i in range(2)]
    assert kinds == ["continue", "deliver"]
    sup.close()
    monkeypatch.setenv("COACHLOOP_SNAPSHOT_RETENTION_DAYS", "soon")
    with pytest.raises(ConfigError, match="retention_days"):
        Supervisor.open(proj)


def test_hook_path_imports_no_pydantic_click_rich_or_redis() -> None:
    code = (
        "import sys, coachloop.core.events, coachloop.supervisor, coachloop.store, coachloop.store.sqlite, "
        "coachloop.snapshots, coachloop.supervisor.watchdog; "
        "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in "
        "('pydantic', 'click', 'rich', 'redis'))))"
    )
    out = subprocess.run(
        [sys.executable, "-c", "import json; " + code], capture_output=True, text=True, check=True
    )
    assert json.loads(out.stdout) == []


def test_maintenance_runs_the_watchdog_and_cleans_stale_sessions(tmp_path: Path) -> None:
    clock = [1_900_000_000.0]
    sup = Supervisor(
        SQLiteStore(tmp_path / "c.db"), snapshot_root=tmp_path / "s", clock=lambda: clock[0]
    )
    sup.on_stop(StopEvent("quiet", text="working", timestamp=clock[0]), STATUS)
    clock[0] += 2 * 3600
    sup.on_stop(StopEvent("busy", text="Which DB?", timestamp=clock[0]), DONE)
    assert not [e for e in sup.reads.outbox_pending() if e.kind == "alert"]  # not in a stop
    assert [a.session_id for a in sup.maintain().alerts] == ["quiet"]
    alerts = [e for e in sup.reads.outbox_pending() if e.kind == "alert"]
    assert len(alerts) == 1 and "quiet" in alerts[0].text and "silent for 2.0 h" in alerts[0].text
    clock[0] += 600
    assert sup.maintain().alerts == []  # flagged once, not again
    clock[0] += 24 * 3600
    done = sup.maintain()
    assert done.stale is not None and done.stale.abandoned == ["quiet"]
    assert sup.reads.get_session("quiet").status == "abandoned"
    sup.close()


def test_a_record_packed_again_is_redacted_again_once_a_value_is_registered() -> None:
    from coachloop import redaction

    stop = {"cwd": "/srv/b4c0n-r3g1st3r-me-42", "kind": "Stop"}
    first = pack("s1", "auto_continue", {"stop": stop}, None)
    assert pack("s1", "auto_continue", {"stop": stop}, None) is first  # packed once
    assert unpack(first)["stop"]["cwd"] == "/srv/b4c0n-r3g1st3r-me-42"
    redaction.register("b4c0n-r3g1st3r-me-42")
    again = unpack(pack("s1", "auto_continue", {"stop": stop}, None))
    assert again["stop"]["cwd"] == f"/srv/{redaction.REDACTED}"


def test_the_records_packed_lately_and_the_states_parsed_are_bounded(tmp_path: Path) -> None:
    """`pack` keeps at most PACKED_RECORDS records, none longer than PACKED_CHARS; a
    SQLite store at most PARSED_STATES sessions' parsed states (the newest used)."""
    from coachloop import snapshot_pack
    from coachloop.store import sqlite

    for i in range(snapshot_pack.PACKED_RECORDS + 10):
        pack(f"s{i}", "auto_continue", {"stop": {"cwd": "/w"}}, None)
    assert len(snapshot_pack._PACKED) == snapshot_pack.PACKED_RECORDS
    long = pack("s1", "auto_continue", {"stop": {"cwd": "x" * snapshot_pack.PACKED_CHARS}}, None)
    assert long not in {packed for _, packed in snapshot_pack._PACKED.values()}
    with SQLiteStore(tmp_path / "c.db") as store:
        sup = Supervisor(store, snapshots_on=False)
        for i in range(sqlite.PARSED_STATES + 5):
            sup.on_stop(StopEvent(f"s{i}", text="working"), STATUS)
        assert len(store._states) == sqlite.PARSED_STATES and "s0" not in store._states
        assert store.get_session("s0").stops == 1 and "s0" in store._states
