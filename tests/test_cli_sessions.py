"""`coachloop sessions` and `coachloop show`, through click's runner."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from coachloop.cli import cli
from coachloop.core.events import HumanMessage, StopEvent
from coachloop.core.verdict import Verdict
from coachloop.store import open_store
from coachloop.supervisor import Supervisor
from coachloop.supervisor.writes import record_stop

STATUS = Verdict(
    "status",
    0.9,
    "no evidence",
    "rules",
    route="continue",
    coaching_message="[System Coach] Run the tests and paste the summary.",
)
DONE = Verdict("completion", 0.95, "tests shown", "llm")


def populate(sup: Supervisor, sid: str = "sess-42", project: str = "/work/app") -> None:
    sup.on_human(
        HumanMessage(sid, "/do-build the parser", skill="/do-build", project=project, agent="codex")
    )
    for i in range(4):
        sup.on_stop(
            StopEvent(sid, text=f"It should work now {i}", project=project, agent="codex"), STATUS
        )
    sup.on_stop(StopEvent(sid, text="12 passed in 0.3s, commit abc1234", project=project), DONE)


def invoke(*args: str, env: dict[str, str] | None = None) -> Any:
    return CliRunner().invoke(cli, list(args), env=env, catch_exceptions=False)


def test_no_store_yet_lists_nothing_and_creates_nothing(tmp_path: Path) -> None:
    res = invoke("sessions")
    assert res.exit_code == 0 and "No sessions recorded yet." in res.output
    assert json.loads(invoke("sessions", "--json").output) == {"sessions": []}
    assert not (tmp_path / "coachloop-home" / "coachloop.db").exists()
    res = invoke("show", "abc")
    assert res.exit_code == 2 and "unknown session 'abc'" in res.output


def test_sessions_table_and_json() -> None:
    sup = Supervisor.open()
    populate(sup)
    sup.on_human(HumanMessage("other", "hi", project="/work/lib", agent="gemini"))
    sup.close()
    res = invoke("sessions")
    assert res.exit_code == 0, res.output
    for cell in ("sess-42", "codex", "/work/app", "done", "3/3", "completion", "other", "gemini"):
        assert cell in res.output
    rows = json.loads(invoke("sessions", "--json").output)["sessions"]
    row = next(r for r in rows if r["session"] == "sess-42")
    assert row == row | {
        "agent": "codex",
        "project": "/work/app",
        "status": "done",
        "continues": 3,
        "cap": 3,
        "last_verdict": "completion",
    }
    assert 0 <= row["age_seconds"] < 60 and 0 <= row["idle_seconds"] < 60
    assert [r["session"] for r in rows] == ["other", "sess-42"]


def test_show_prints_the_timeline_with_verdicts_and_coaching() -> None:
    sup = Supervisor.open()
    populate(sup)
    sup.close()
    res = invoke("show", "sess-42")
    assert res.exit_code == 0, res.output
    out = res.output
    assert "Session sess-42 (codex, /work/app)" in out and "skill /do-build" in out
    assert "human   (prompt) /do-build the parser" in out
    assert out.count("-> continue") == 3 and "coaching: [System Coach] Run the tests" in out
    assert "auto-continue cap reached (3/3)" in out and "completion (0.95, llm) -> deliver" in out
    data = json.loads(invoke("show", "sess-42", "--json").output)
    assert data["session"]["continues"] == 3 and data["session"]["context"]["skill"] == "/do-build"
    kinds = [(e["kind"], e["decision"]) for e in data["events"]]
    assert kinds == [("human", None)] + [("stop", "continue")] * 3 + [("stop", "deliver")] * 2
    assert data["events"][1]["verdict"]["type"] == "status" and data["jobs"] == []
    assert data["events"][1]["message"].startswith("[System Coach]")
    assert (
        len(json.loads(invoke("show", "sess-42", "--json", "--limit", "2").output)["events"]) == 2
    )


def test_unknown_session_exits_2_with_a_clear_message() -> None:
    sup = Supervisor.open()
    populate(sup)
    sup.close()
    res = invoke("show", "nope")
    assert res.exit_code == 2
    assert "Error: unknown session 'nope'" in res.output and "coachloop.db" in res.output


def test_a_store_that_is_not_a_database_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("my notes, not a database\n")
    for args in (("sessions", "--store", str(path)), ("show", "x", "--store", str(path))):
        res = invoke(*args)
        assert res.exit_code == 2 and "is not a SQLite database" in res.output
    assert path.read_text() == "my notes, not a database\n"


def test_one_home_store_and_the_project_filter(tmp_path: Path) -> None:
    proj = tmp_path / "proj"
    sup = Supervisor.open(proj)
    populate(sup, "in-project", project=str(proj))
    populate(sup, "in-sub", project=str(proj / "sub"))
    sup.close()
    shared = Supervisor.open()
    populate(shared, "elsewhere", project="/somewhere/else")
    shared.close()
    rows = json.loads(invoke("sessions", "--json", "--project", str(proj)).output)["sessions"]
    assert sorted(r["session"] for r in rows) == ["in-project", "in-sub"]
    assert invoke("show", "in-project", "--project", str(proj)).exit_code == 0
    rows = json.loads(invoke("sessions", "--json").output)["sessions"]
    assert sorted(r["session"] for r in rows) == ["elsewhere", "in-project", "in-sub"]
    assert not (proj / ".coachloop").exists()


def test_watchdog_and_cleanup_flags() -> None:
    store = open_store()
    old = time.time() - 2 * 3600
    record_stop(store, StopEvent("quiet", text="working", timestamp=old), STATUS)
    store.close()
    data = json.loads(invoke("sessions", "--json", "--watchdog", "--cleanup").output)
    assert data["alerts"] == [{"session": "quiet", "conditions": ["silent"]}]
    assert data["cleanup"]["abandoned"] == [] and data["sessions"][0]["flags"] == ["silent"]
    res = invoke("sessions", "--watchdog")
    assert "Watchdog: 0 new alert(s)." in res.output and "silent" in res.output


def test_show_reads_any_backend(store_spec: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COACHLOOP_REDIS_PREFIX", store_spec.prefix)
    store = store_spec.open()
    populate(Supervisor(store, snapshots_on=False), "anywhere")
    store.close()
    res = invoke("show", "anywhere", "--store", store_spec.target, "--json")
    assert res.exit_code == 0, res.output
    assert len(json.loads(res.output)["events"]) == 6
    res = invoke("sessions", "--store", store_spec.target, "--json")
    assert [r["session"] for r in json.loads(res.output)["sessions"]] == ["anywhere"]
    assert os.environ["COACHLOOP_REDIS_PREFIX"] == store_spec.prefix
