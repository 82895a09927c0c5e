"""Upgrading a data directory made by coachloop 68975ce loses nothing.

The layout of that version: each project's sessions in `<project>/.coachloop/coachloop.db`,
stops outside a project in `$COACHLOOP_HOME/coachloop.db`. The rows in
`data/upgrade/store_68975ce.json` were written by that version's own hooks (the script
beside it says how); each database is rebuilt here with the migrations it lists (the
schema as of 68975ce: migrations are append-only) and those rows, in WAL mode as that
version kept it. Then every session, event and outbox row must arrive in the home store,
undelivered questions must reach the chat, and nothing is copied twice.
"""

from __future__ import annotations

import json
import sqlite3
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from coachloop.agents.hook import handle
from coachloop.chat.config import BridgeConfig
from coachloop.chat.ledger import Ledger, store_key
from coachloop.chat.routing import Router, open_sources
from coachloop.chat.telegram import Bridge
from coachloop.cli import cli
from coachloop.config import home
from coachloop.install.known import old_stores
from coachloop.store.migrations import MIGRATIONS
from coachloop.testing.telegram_api import TelegramBotAPI
from telegram_support import RecordingAgent, Running, config, wait

DATA = Path(__file__).parent / "data" / "upgrade" / "store_68975ce.json"
OLD_MIGRATIONS = ["0001_sessions_events_outbox", "0002_meta", "0003_dashboard_indexes"]
EVENT = "session_id, kind, ts, recorded_at, job_id, decision, verdict_type, source, why, data"
CHAT = 42


def old_layout(root: Path) -> dict[str, Path]:
    """The data directory and two projects as 68975ce left them; the files by name."""
    dump = json.loads(DATA.read_text().replace("{ROOT}", str(root)))
    files = {
        "shop": root / "shop" / ".coachloop" / "coachloop.db",
        "blog": root / "blog" / ".coachloop" / "coachloop.db",
        "home": home() / "coachloop.db",
    }
    schema = dict(MIGRATIONS)
    for name, path in files.items():
        if name != "home":  # a git work tree: the project the hooks find
            (path.parent.parent / ".git").mkdir(parents=True, exist_ok=True)
        path.parent.mkdir(parents=True, exist_ok=True)
        tables = dump[name]
        assert [m[0] for m in tables["migrations"]] == OLD_MIGRATIONS
        db = sqlite3.connect(path)
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("CREATE TABLE migrations (name TEXT PRIMARY KEY, applied_at REAL NOT NULL)")
        for migration, _ in tables["migrations"]:
            db.executescript(schema[migration])
        for table, content in tables.items():
            for row in content:
                marks = ",".join("?" * len(row))
                db.execute(f"INSERT INTO {table} VALUES ({marks})", row)
        db.commit()
        db.close()
    return files


def rows(path: Path) -> dict[str, Any]:
    """What must survive: sessions by id, events and outbox rows as multisets of their
    content (an outbox row with the content of the event it points to)."""
    db = sqlite3.connect(path)
    try:
        events = {r[0]: r[1:] for r in db.execute(f"SELECT id, {EVENT} FROM events")}
        outbox = [
            (*r[:5], events.get(r[5]))
            for r in db.execute(
                "SELECT session_id, kind, text, created_at, sent_at, event_id FROM outbox"
            )
        ]
        sessions = {
            r[0]: json.loads(r[1]) for r in db.execute("SELECT session_id, state FROM sessions")
        }
        return {"sessions": sessions, "events": Counter(events.values()), "outbox": Counter(outbox)}
    finally:
        db.close()


def union(parts: list[dict[str, Any]]) -> dict[str, Any]:
    total: dict[str, Any] = {"sessions": {}, "events": Counter(), "outbox": Counter()}
    for part in parts:
        total["sessions"].update(part["sessions"])
        total["events"] += part["events"]
        total["outbox"] += part["outbox"]
    return total


def test_upgrade_merges_every_row_once_and_keeps_the_old_files(tmp_path: Path) -> None:
    files = old_layout(tmp_path)
    each = {name: rows(path) for name, path in files.items()}
    before = union(list(each.values()))
    assert len(before["sessions"]) == 4 and sum(before["outbox"].values()) == 4

    res = CliRunner().invoke(cli, ["upgrade", str(tmp_path / "shop"), str(tmp_path / "blog")])
    assert res.exit_code == 0, res.output
    assert "shop: merged 2 sessions, 4 events and 2 outbox rows (2 undelivered" in res.output
    assert "blog: merged 1 sessions, 1 events and 1 outbox rows (0 undelivered" in res.output
    after = rows(files["home"])
    assert after["events"] == before["events"]  # every event, none twice
    assert after["outbox"] == before["outbox"]  # sent or not, pointing at its own event
    assert after["sessions"].keys() == before["sessions"].keys()
    for sid, state in before["sessions"].items():
        assert after["sessions"][sid] == state  # projects were recorded: kept as they were
    for name in ("shop", "blog"):  # never deleted: set aside, still complete
        old = files[name]
        assert not old.exists() and old.with_name("coachloop.db.merged").exists()
        assert rows(old.with_name("coachloop.db.merged")) == each[name]

    again = CliRunner().invoke(cli, ["upgrade", str(tmp_path / "shop")])
    assert "nothing to merge" in again.output
    assert rows(files["home"]) == after  # idempotent

    # The undelivered rows (the shop's question and blocker, the home's question) reach
    # the chat through a bridge that maps no project; the blog's, sent before, does not.
    with TelegramBotAPI() as api:
        bridge = Bridge(config(api, {}, allowed=frozenset({CHAT})), RecordingAgent())
        with Running(bridge):
            assert wait(lambda: len(api.sent) >= 3)
        sent = sorted(m.text.split("\n\n", 1)[1] for m in api.sent)
    waiting = sorted(o[2] for o in before["outbox"] if o[4] is None)
    assert sent == waiting and len(sent) == 3


def test_a_reply_to_a_question_sent_from_an_old_store_finds_its_session(tmp_path: Path) -> None:
    files = old_layout(tmp_path)
    cfg = BridgeConfig(state_path=tmp_path / "bridge.db")
    ledger = Ledger(cfg.ledger_path)  # the old bridge sent s-blog-1's question as message 7
    ledger.note_message(CHAT, 7, "s-blog-1", store_key(str(files["blog"])))
    assert CliRunner().invoke(cli, ["upgrade", str(tmp_path / "blog")]).exit_code == 0
    sources = open_sources(cfg)
    try:
        found = Router(cfg, ledger, sources).replied_session(CHAT, 7)
        assert found is not None and found[0] == "s-blog-1"
        assert found[1].supervisor.reads.location == str(files["home"])
    finally:
        ledger.close()
        for source in sources:
            source.supervisor.close()


def test_the_first_hook_of_a_project_merges_its_old_store(tmp_path: Path) -> None:
    files = old_layout(tmp_path)
    before = union([rows(files["shop"]), rows(files["home"])])
    payload = {
        "hook_event_name": "Stop",
        "session_id": "s-new",
        "cwd": str(tmp_path / "shop"),
        "last_assistant_message": "Which payment provider should the cart use?",
    }
    handle("claude-code", json.dumps(payload).encode())
    after = rows(files["home"])
    assert set(after["sessions"]) == {*before["sessions"], "s-new"}
    assert after["events"] - before["events"] == Counter(
        {k: v for k, v in after["events"].items() if k[0] == "s-new"}
    )
    assert not files["shop"].exists() and files["blog"].exists()  # only the hook's project
    sessions = CliRunner().invoke(cli, ["sessions", "--json", "--project", str(tmp_path / "blog")])
    assert [r["session"] for r in json.loads(sessions.output)["sessions"]] == ["s-blog-1"]
    assert not files["blog"].exists()  # reading with --project merged it too


def test_a_warm_daemon_of_the_previous_version_is_not_reused(tmp_path: Path) -> None:
    """The socket's name (the fingerprint) of 68975ce, whose daemon would write into the
    project's old store, differs from this version's for the same environment."""
    import sys

    from coachloop import __version__
    from coachloop.agents.client import fingerprint, home_dir

    env = {"COACHLOOP_HOME": str(tmp_path / "h"), "COACHLOOP_JUDGE": "rules"}
    parts = [home_dir(env), sys.prefix, __version__, "COACHLOOP_JUDGE=rules"]  # 68975ce's
    digest = 0xCBF29CE484222325
    for byte in "\0".join(parts).encode("utf-8", "surrogateescape"):
        digest = ((digest ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    assert fingerprint(env) != f"{digest:016x}"


def test_the_bridge_merges_the_old_stores_of_the_projects_the_agents_know(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No `coachloop upgrade`, no chat mapped: Claude Code knows the shop, Codex the blog
    (their own files); the bridge's start merges both, and sends what waited."""
    files = old_layout(tmp_path)
    waiting = sorted(
        o[2] for o in union([rows(p) for p in files.values()])["outbox"] if o[4] is None
    )
    user = tmp_path / "user"
    (user / ".codex").mkdir(parents=True)
    monkeypatch.setenv("HOME", str(user))
    for name in ("CLAUDE_CONFIG_DIR", "CODEX_HOME", "GEMINI_CLI_TRUSTED_FOLDERS_PATH"):
        monkeypatch.delenv(name, raising=False)
    claude = {"projects": {str(tmp_path / "shop" / "src"): {}, "relative/dir": {}}}
    (user / ".claude.json").write_text(json.dumps(claude))
    (tmp_path / "shop" / "src").mkdir()
    (user / ".codex" / "config.toml").write_text(
        f'[projects."{tmp_path / "blog"}"]\ntrust_level = "trusted"\n'
    )
    assert old_stores() == [tmp_path / "blog", tmp_path / "shop"]
    with TelegramBotAPI() as api:
        bridge = Bridge(config(api, {}, allowed=frozenset({CHAT})), RecordingAgent())
        with Running(bridge):
            assert wait(lambda: len(api.sent) >= 3)
        sent = sorted(m.text.split("\n\n", 1)[1] for m in api.sent)
    assert sent == waiting
    assert not files["shop"].exists() and not files["blog"].exists()
    scan = CliRunner().invoke(cli, ["upgrade", "--scan"])
    assert scan.output == "No project the agents know has a store from an earlier version.\n"


def test_an_unreadable_old_store_is_left_alone_and_the_hook_still_records(tmp_path: Path) -> None:
    project = tmp_path / "shop"
    (project / ".git").mkdir(parents=True)
    (project / ".coachloop").mkdir()
    old = project / ".coachloop" / "coachloop.db"
    old.write_text("my notes, not a database\n")
    payload = {
        "hook_event_name": "Stop",
        "session_id": "s1",
        "cwd": str(project),
        "last_assistant_message": "Which payment provider should the cart use?",
    }
    handle("claude-code", json.dumps(payload).encode())
    assert set(rows(home() / "coachloop.db")["sessions"]) == {"s1"}  # the stop counted
    assert old.read_text() == "my notes, not a database\n"  # untouched, not renamed
    res = CliRunner().invoke(cli, ["upgrade", str(project)])
    assert res.exit_code == 2 and "not merged" in res.output and "not a readable" in res.output


def test_a_store_written_by_954f455_keeps_and_shows_every_lifecycle_record(
    tmp_path: Path,
) -> None:
    """A store of migrations 0001-0008 (stops' records in the lifecycle table, their time
    and stop in the body) migrates to 0011 keeping every record: listed in event order
    with the records written since, exported by `show --snapshot`, shown by the
    dashboard; retention clears both kinds by their time, and only those."""
    import time

    from coachloop.core.events import StopEvent
    from coachloop.core.verdict import Verdict
    from coachloop.dashboard.data import open_data
    from coachloop.snapshot_pack import name, pack
    from coachloop.store.sqlite import SQLiteStore
    from coachloop.supervisor import Supervisor

    path, old = tmp_path / "c.db", 1_700_000_000.0
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE migrations (name TEXT PRIMARY KEY, applied_at REAL NOT NULL)")
    for migration, sql in MIGRATIONS[:7]:  # what 954f455 knew
        db.executescript(sql)
        db.execute("INSERT INTO migrations VALUES (?, ?)", (migration, old))
    state = {"session_id": "s1", "status": "running", "stops": 2, "last_stop_id": "h2"}
    db.execute(
        "INSERT INTO sessions (session_id, project, agent, status, continues, created_at,"
        " updated_at, state) VALUES ('s1', '', '', 'running', 2, ?, ?, ?)",
        (old, old + 1, json.dumps(state)),
    )
    for i in range(2):
        data = {"session_id": "s1", "kind": "stop", "ts": old + i, "recorded_at": old + i}
        db.execute(
            f"INSERT INTO events ({EVENT}) VALUES ('s1', 'stop', ?, ?, NULL, 'continue', NULL,"
            " 'rules', 'working', ?)",
            (old + i, old + i, json.dumps({**data, "text": f"old step {i}"})),
        )
        stop = {"session_id": "s1", "timestamp": old + i, "stop_id": f"h{i + 1}"}
        db.execute(
            "INSERT INTO lifecycle (session_id, event_id, label, saved_at, body, state)"
            " VALUES ('s1', ?, 'auto_continue', ?, ?, ?)",
            (i + 1, old + i, pack("s1", "auto_continue", {"stop": stop}, old + i), "{}"),
        )
    db.commit()
    db.close()

    now = time.time()
    status = Verdict("status", 0.9, "mid-work", "rules", route="continue", coaching_message="go")
    sup = Supervisor(SQLiteStore(path), clock=lambda: now)
    sup.on_stop(StopEvent("s1", text="new step", stop_id="h3"), status)
    lives = sup.reads.lifecycle("s1")
    sup.close()
    assert [(x.event_id, x.saved_at) for x in lives] == [(1, old), (2, old + 1), (3, now)]

    folder = tmp_path / "snaps"
    out = CliRunner().invoke(cli, ["show", "s1", "--store", str(path), "--snapshot", str(folder)])
    assert out.exit_code == 0, out.output
    files = [json.loads(f.read_text()) for f in sorted(folder.iterdir())]
    assert [f["stop"]["text"] for f in files] == ["old step 0", "old step 1", "new step"]
    assert [f["saved_at"] for f in files] == [old, old + 1, now]
    assert [f["stop"]["timestamp"] for f in files][:2] == [old, old + 1]
    assert files[0]["stop"]["stop_id"] == "h1" and files[2]["state"]["last_stop_id"] == "h3"

    data = open_data(SQLiteStore(path))
    try:
        names = data.timeline("s1", before=None, limit=10).header.snapshots
        assert names == [name(x) for x in lives]
        shown = [data.snapshot("s1", n) for n in names]
        assert [s["stop"]["text"] for s in shown if s] == ["old step 0", "old step 1", "new step"]
    finally:
        data.close()

    with SQLiteStore(path) as store:
        assert store.trim_lifecycle(old + 1) == 1  # the oldest only
        assert store.trim_lifecycle(now) == 1 and store.trim_lifecycle(now) == 0
        assert [x.event_id for x in store.lifecycle("s1")] == [3]
        assert store.trim_lifecycle(now + 1) == 1 and store.lifecycle("s1") == []
        assert len(store.timeline("s1")) == 3  # the events stay


# Every migration name a released coachloop may have recorded in a store: an entry renamed,
# dropped or moved would make that store refused as "written by a newer version".
RELEASED = [
    "0001_sessions_events_outbox",
    "0002_meta",
    "0003_dashboard_indexes",
    "0004_home_merged_stores",
    "0006_lifecycle_activity",
    "0007_lifecycle_records",
    "0008_lifecycle_state",
    "0009_fewer_indexes_per_stop",
    "0010_stop_lifecycle_in_events",
    "0011_stop_lifecycle_trimmed_in_order",
    "0012_compact_rows",
    "0013_forgotten_sessions",
]


def test_migrations_are_only_ever_appended() -> None:
    names = [name for name, _ in MIGRATIONS]
    assert names[: len(RELEASED)] == RELEASED
    assert names == sorted(set(names))  # named, in order, each once
