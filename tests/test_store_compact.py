"""What a SQLite store keeps compact, and reads back whole: a state's fields at their
defaults left out (sessions and a stop's record), a delivery's message as the tail after its
text, a stop's context without its defaults; records an older version stored (spaced JSON,
whole states and contexts) read as they did."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest

from coachloop.core.events import StopEvent
from coachloop.core.session import (
    Context,
    JobMark,
    SessionState,
    Steer,
    evolve,
    sparse,
    unsparse,
)
from coachloop.core.verdict import Verdict
from coachloop.snapshot_pack import STOP_CONTEXT, pack, pack_stop, stop_context, unpack, whole
from coachloop.store.records import EVENT_COLUMNS, EventRecord, Life, event_data, event_json
from coachloop.store.sqlite import SQLiteStore
from coachloop.supervisor import Supervisor
from coachloop.supervisor.writes import record_stop

ASK = Verdict("question", 0.9, "asks", "rules")
STATUS = Verdict("status", 0.9, "mid-work", "rules", route="continue", coaching_message="go on")


def _record(text: str, message: str) -> EventRecord:
    return EventRecord(7, "s1", "stop", 1.5, 2.5, text, "job", "rules", {"type": "x"}, "deliver",
                       "why", message, ("a note",))  # fmt: skip


@pytest.mark.parametrize(
    ("text", "message", "tail"),
    [
        ("Which DB?", "Which DB?", ""),  # a delivery: the text itself
        ("Done.", "Done.\n\n[coachloop] capped", "\n\n[coachloop] capped"),  # with a note
        ("Working.", "go on", None),  # coaching: kept whole
        ("", "", None),
        ("", "a notice", None),
    ],
)
def test_a_record_is_stored_compact_and_read_back_whole(
    text: str, message: str, tail: str | None
) -> None:
    rec = _record(text, message)
    stored = event_json(rec)
    data = json.loads(stored)
    assert ": " not in stored.replace(text, "").replace(message, "") and "id" not in data
    assert not set(data) & set(EVENT_COLUMNS)  # the row's columns hold them
    if tail is None:
        assert data.get("message", "") == message and "more" not in data
    else:  # the text is not stored twice
        assert "message" not in data and data["more"] == tail
    expected = rec.to_dict()
    del expected["id"]
    columns = [expected[c] for c in EVENT_COLUMNS]
    read = event_data(stored, columns)
    assert read == expected and list(read) == list(expected)
    with pytest.raises(ValueError, match="columns"):
        event_data(stored)
    spaced = json.dumps(expected)  # what an older version stored
    assert event_data(spaced) == expected and event_data(spaced, columns) == expected
    older = {**expected}  # what 0012 stored: compact, every field, the message's tail
    if tail is not None:
        older = {("more" if k == "message" else k): (tail if k == "message" else v)
                 for k, v in expected.items()}  # fmt: skip
    assert event_data(json.dumps(older)) == expected
    assert list(event_data(json.dumps(older))) == list(expected)
    assert EventRecord.from_dict({**read, "id": 7}) == rec


def test_a_state_is_kept_sparse_and_read_whole() -> None:
    state = SessionState.new("s1", 100.0, agent="codex", project="/p")
    state = evolve(state, jobs=(JobMark("j1", "continued"),), continues=2, last_human_at=0.0)
    kept = sparse(state.to_dict())
    assert kept["session_id"] == "s1" and next(iter(kept)) == "session_id"
    assert "steering" not in kept and "status" not in kept and "cwd" not in kept
    assert kept["last_human_at"] == 0.0  # not the default (None), though it compares false
    assert SessionState.from_dict(json.loads(json.dumps(kept))) == state
    assert unsparse(kept) == state.to_dict() and list(unsparse(kept)) == list(state.to_dict())
    old = json.loads(json.dumps(state.to_dict()))  # a whole state, as older stores kept it
    assert unsparse(old) == old
    assert unsparse({"stops": 3}, "s9") == SessionState("s9", stops=3).to_dict()
    full = SessionState("s2", "a", "p", "/c", "failed", 1, Context("x", "y", "z", "w"),
                        (JobMark("j"),), "fp", 2, 1.0, "e", "v", "d", 3, 1.0, 2.0, 3.0, 4.0,
                        "sig", 5, ("f",), (Steer("k", "t"),), ("k",), "n", "o", "id", "r")  # fmt: skip
    for st in (state, full, SessionState("", stops=2), SessionState("s3", created_at=0)):
        assert st.sparse_dict() == sparse(st.to_dict())
        assert list(st.sparse_dict()) == list(sparse(st.to_dict()))
    assert len(full.sparse_dict()) == len(full.to_dict())


def test_evolve_is_dataclasses_replace() -> None:
    state = SessionState.new("s1", 5.0, agent="gemini")
    changes = {"stops": 4, "flags": ("stale",), "status": "done", "last_reply": "x"}
    assert evolve(state, **changes) == replace(state, **changes)  # type: ignore[arg-type]
    assert evolve(state) == state and evolve(state) is not state
    with pytest.raises(TypeError, match="no field 'nope'"):
        evolve(state, **{"nope": 1})
    with pytest.raises(TypeError, match="SessionState"):
        evolve(Context(), **{"prompt": "x"})


def test_evolve_is_type_checked_as_replace(tmp_path: Path) -> None:
    """mypy checks every `evolve` call as `dataclasses.replace`: a field named wrong, or a
    value of the wrong type, fails `mypy --strict` (tests/test_quality.py)."""
    from mypy import api

    code = (
        "from coachloop.core.session import SessionState, evolve\n"
        "ok: SessionState = evolve(SessionState('s'), status='done', continues=2)\n"
        "evolve(SessionState('s'), stauts='done')\n"
        "evolve(SessionState('s'), continues='3')\n"
    )
    options = ["--config-file", "", "--strict", "--no-error-summary"]  # not the project's files
    out, err, status = api.run([*options, "--cache-dir", str(tmp_path), "-c", code])
    assert status == 1, err
    errors = [line.split(": error: ")[0] for line in out.splitlines() if ": error: " in line]
    assert errors == ["<string>:3", "<string>:4"], out


def test_a_stop_record_reads_back_as_an_older_version_stored_it(tmp_path: Path) -> None:
    """`whole` gives the same record for a stop stored now (sparse context and state) as for
    the same stop stored the older way (every field of its context and state, spaced)."""
    now = 1_800_000_000.0
    sup = Supervisor(SQLiteStore(tmp_path / "s.db"), clock=lambda: now)
    try:
        sup.on_stop(StopEvent("s1", text="Working on it.", agent="codex", cwd="/w"), STATUS)
        event = StopEvent("s1", text="Which DB?", agent="codex", project="/p", job_id="j2",
                          transcript_path="/t.jsonl", can_block=False, timestamp=now)  # fmt: skip
        sup.on_stop(event, ASK)
        life = sup.reads.lifecycle("s1")[-1]
        rec = sup.reads.timeline("s1")[-1]
        state = sup.reads.get_session("s1")
    finally:
        sup.close()
    stop = {n: getattr(event, n) for n in STOP_CONTEXT}
    body = pack("s1", life.label, {"stop": stop}, None)
    older = Life(life.label, body, life.saved_at, life.event_id, "s1", json.dumps(state.to_dict()))
    assert len(life.body) < len(body) and len(life.state or "") < len(older.state or "")
    new, old = whole(life, rec), whole(older, rec)
    assert new == old and json.dumps(new) == json.dumps(old)  # same keys, same order
    assert new["stop"]["transcript_path"] == "/t.jsonl" and new["stop"]["can_block"] is False
    assert new["stop"]["session_id"] == "s1" and new["state"]["status"] == "waiting"


def test_rows_an_older_version_wrote_read_as_before(tmp_path: Path) -> None:
    """A timeline record and a session state stored spaced and whole still read."""
    path = tmp_path / "old.db"
    SQLiteStore(path).close()
    state = SessionState.new("s1", 10.0, agent="codex")
    rec = EventRecord(0, "s1", "stop", 10.0, 10.0, "Which DB?", message="Which DB?",
                      decision="deliver", source="rules")  # fmt: skip
    data = rec.to_dict()
    del data["id"]
    db = sqlite3.connect(path)
    db.execute(
        "INSERT INTO sessions (session_id, project, agent, status, created_at, updated_at, state)"
        " VALUES ('s1', '', 'codex', 'running', 10, 10, ?)",
        (json.dumps(state.to_dict()),),
    )
    db.execute(
        "INSERT INTO events (session_id, kind, ts, recorded_at, decision, data)"
        " VALUES ('s1', 'stop', 10, 10, 'deliver', ?)",
        (json.dumps(data),),
    )
    db.commit()
    db.close()
    with SQLiteStore(path) as store:
        assert store.get_session("s1") == state
        assert store.timeline("s1") == [replace(rec, id=1)]
        store.transact("s1", lambda st: (None, None))  # nothing written: still the old row
    with SQLiteStore(path) as store:
        record_stop(store, StopEvent("s1", text="Which table?", agent="codex"), ASK)
        assert [e.message for e in store.timeline("s1")] == ["Which DB?", "Which table?"]
        assert store.get_session("s1").stops == 1


def test_a_stop_record_is_packed_once_per_context_until_a_value_is_registered() -> None:
    from coachloop import redaction, snapshot_pack

    event = StopEvent("s1", text="one", cwd="/srv/st0p-c0ntext-r3g1ster-7")
    first = pack_stop(event, "deliver")
    assert first == pack(None, "deliver", {"stop": stop_context(event)}, None)
    assert "session_id" not in unpack(first)  # its row names the session
    assert pack_stop(replace(event, text="two"), "deliver") is first  # its text is not in it
    # nor its session: another session's stop in the same context reuses the record
    assert pack_stop(replace(event, session_id="s2", text="three"), "deliver") is first
    back = whole(Life("deliver", first, 5.0, 9, "s2"))
    assert back["session_id"] == back["stop"]["session_id"] == "s2"
    assert unpack(pack_stop(event, "complete"))["event"] == "complete"
    assert unpack(pack_stop(replace(event, job_id="j"), "deliver"))["stop"]["job_id"] == "j"
    redaction.register("st0p-c0ntext-r3g1ster-7")
    assert unpack(pack_stop(event, "deliver"))["stop"]["cwd"] == f"/srv/{redaction.REDACTED}"
    for i in range(snapshot_pack.PACKED_RECORDS + 5):
        pack_stop(StopEvent("b", cwd=f"/srv/b{i}"), "deliver")
    assert len(snapshot_pack._STOPS) == snapshot_pack.PACKED_RECORDS


# The defaults sparse rows were written against (e7d7b92). A stored state or stop context
# leaves a field at its default out, so changing one of these rereads every stored row
# with the new value: keep them, or add a migration that writes the old ones in first.
# (A new field may be added: rows without it read its default, as rows always did.)
STATE_DEFAULTS = {
    "session_id": "", "agent": "", "project": "", "cwd": "", "status": "running",
    "continues": 0, "context": {"prompt": None, "skill": None, "phase": None, "plan_file": None},
    "jobs": [], "last_continued": None, "error_run": 0, "error_since": None, "last_error": None,
    "last_verdict": None, "last_decision": None, "stops": 0, "created_at": 0.0,
    "updated_at": 0.0, "run_started_at": 0.0, "last_human_at": None, "tool_signature": None,
    "tool_repeats": 0, "flags": [], "steering": [], "steered": [], "stop_requested": None,
    "outcome": None, "last_stop_id": None, "last_reply": None,
}  # fmt: skip
STOP_DEFAULTS = {
    "agent": "claude-code", "project": "", "cwd": "", "kind": "Stop", "job_id": None,
    "error": None, "transcript_path": None, "skill": None, "phase": None, "plan_file": None,
    "stop_hook_active": False, "can_block": True,
}  # fmt: skip


def test_the_defaults_sparse_rows_leave_out_never_change() -> None:
    now = SessionState("").to_dict()
    assert {k: now[k] for k in STATE_DEFAULTS} == STATE_DEFAULTS
    assert {k: type(now[k]) for k in STATE_DEFAULTS} == {
        k: type(v) for k, v in STATE_DEFAULTS.items()
    }  # 0 is not 0.0: a sparse row keeps a value of another type
    context = stop_context(StopEvent("s", timestamp=1.0))
    assert context == {}  # every field at its default: left out
    life = Life("deliver", pack("s", "deliver", {"stop": {}}, None), 1.0, 1, "s", None)
    filled = whole(life)["stop"]
    assert {k: filled[k] for k in STOP_DEFAULTS} == STOP_DEFAULTS
