"""Backend specifics: SQLite's file handling and migrations, Redis keys and retries,
and how `open_store` picks a backend."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from coachloop.core.events import StopEvent
from coachloop.core.session import SessionState, unsparse
from coachloop.core.verdict import Verdict
from coachloop.store import StoreError, default_path, open_store
from coachloop.store.migrations import MIGRATIONS
from coachloop.store.redis_keys import project_token
from coachloop.store.redis_store import RedisStore
from coachloop.store.sqlite import SQLiteStore
from coachloop.supervisor.writes import record_stop
from hook_support import trust_project

STATUS = Verdict("status", 0.9, "mid-work", "rules", route="continue", coaching_message="go")


def test_sqlite_uses_wal_and_named_migrations(tmp_path: Path) -> None:
    path = tmp_path / "db" / "coachloop.db"
    with SQLiteStore(path) as store:
        record_stop(store, StopEvent("s1", text="x"), STATUS)
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    names = [r[0] for r in db.execute("SELECT name FROM migrations ORDER BY name")]
    assert names == [name for name, _ in MIGRATIONS]
    db.close()
    SQLiteStore(path).close()  # reopening applies nothing twice
    db = sqlite3.connect(path)
    assert db.execute("SELECT count(*) FROM migrations").fetchone()[0] == len(MIGRATIONS)
    db.close()


def test_sqlite_refuses_a_database_from_a_newer_version(tmp_path: Path) -> None:
    path = tmp_path / "coachloop.db"
    SQLiteStore(path).close()
    db = sqlite3.connect(path)
    db.execute("INSERT INTO migrations VALUES ('9999_future', 0)")
    db.commit()
    db.close()
    with pytest.raises(StoreError, match="9999_future"):
        SQLiteStore(path)


@pytest.mark.parametrize(
    "content", [b"not a database, just notes\n" * 10, b"\x00\x01garbage" * 300]
)
def test_a_path_that_is_not_a_database_is_refused_and_left_alone(
    tmp_path: Path, content: bytes
) -> None:
    path = tmp_path / "notes.db"
    path.write_bytes(content)
    with pytest.raises(StoreError, match=r"notes\.db is not a SQLite database"):
        SQLiteStore(path)
    with pytest.raises(StoreError, match="not a SQLite database"):
        open_store(str(path))
    assert path.read_bytes() == content
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.db"]  # no -wal/-shm left


def test_a_directory_or_a_corrupt_database_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="is a directory"):
        SQLiteStore(tmp_path)
    path = tmp_path / "broken.db"
    good = tmp_path / "good.db"
    SQLiteStore(good).close()
    path.write_bytes(good.read_bytes()[:16] + b"\xff" * 5000)  # right header, garbage body
    with pytest.raises(StoreError, match=r"broken\.db"):
        SQLiteStore(path)


def test_one_home_store_for_every_project_unless_one_configures_its_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COACHLOOP_HOME", str(tmp_path / "home"))
    assert default_path() == tmp_path / "home" / "coachloop.db"
    (tmp_path / "proj").mkdir()
    with open_store(project=tmp_path / "proj") as store:
        assert store.location == str(tmp_path / "home" / "coachloop.db")
    assert list((tmp_path / "proj").iterdir()) == []  # nothing written in the project
    (tmp_path / "proj" / ".coachloop").mkdir()
    monkeypatch.setenv("COACHLOOP_STORE", f"sqlite://{tmp_path}/env.db")
    with open_store() as store:
        assert store.location == str(tmp_path / "env.db")
    monkeypatch.delenv("COACHLOOP_STORE")
    conf = tmp_path / "proj" / ".coachloop" / "config.toml"
    conf.write_text(f'[store]\nurl = "{tmp_path}/conf.db"\n')
    with open_store(project=tmp_path / "proj") as store:  # a repository may not choose it
        assert store.location == str(tmp_path / "home" / "coachloop.db")
    trust_project(tmp_path / "proj")
    with open_store(project=tmp_path / "proj") as store:
        assert store.location == str(tmp_path / "conf.db")
    conf.write_text('[store]\nurl = "own/sessions.db"\n')  # relative: to the project
    trust_project(tmp_path / "proj")  # changed: trusted again
    with open_store(project=tmp_path / "proj") as store:
        assert store.location == str(tmp_path / "proj" / "own" / "sessions.db")
    conf.write_text("[store\nbroken")
    with pytest.raises(StoreError, match=r"config\.toml"):
        open_store(project=tmp_path / "proj")


@pytest.mark.parametrize("store_spec", ["redis"], indirect=True)
def test_redis_keys_are_namespaced_by_prefix_project_and_session(store_spec: object) -> None:
    store = store_spec.open()  # type: ignore[attr-defined]
    assert isinstance(store, RedisStore)
    try:
        record_stop(store, StopEvent("s:1 x", text="x", project="/home/me/proj"), STATUS)
        keys = sorted(k.decode() for k in store._r.scan_iter(match=f"{store.prefix}:*"))
        tok = project_token("/home/me/proj")
        assert tok.startswith("proj-")
        assert f"{store.prefix}:{tok}:s%3A1%20x:state" in keys
        assert f"{store.prefix}:{tok}:s%3A1%20x:events" in keys
        assert f"{store.prefix}:seq:event" in keys and f"{store.prefix}:sessions" in keys
        assert all(k.startswith(store.prefix + ":") for k in keys)
        assert store.get_session("s:1 x").project == "/home/me/proj"
    finally:
        store.close()


@pytest.mark.parametrize("store_spec", ["redis"], indirect=True)
def test_redis_conflict_is_retried_on_the_fresh_state(store_spec: object) -> None:
    store, other = store_spec.open(), store_spec.open()  # type: ignore[attr-defined]
    try:
        record_stop(store, StopEvent("s1", text="a"), STATUS)
        seen: list[int] = []
        original = store.transact

        def racing_stop(session_id: str, fn: object, *, project: str = "") -> object:
            def wrapped(state: SessionState | None) -> object:
                seen.append(state.continues if state else -1)
                if len(seen) == 1:  # a concurrent writer commits between read and write
                    record_stop(other, StopEvent("s1", text="b", timestamp=2000), STATUS)
                return fn(state)  # type: ignore[operator]

            return original(session_id, wrapped, project=project)

        store.transact = racing_stop
        res = record_stop(store, StopEvent("s1", text="c", timestamp=3000), STATUS)
        assert seen == [1, 2] and res.state.continues == 3
        assert [r.text for r in store.timeline("s1")] == ["a", "b", "c"]
    finally:
        store.close()
        other.close()


def test_unreachable_redis_is_a_clear_error() -> None:
    with pytest.raises(StoreError, match="cannot reach Redis"):
        open_store("redis://127.0.0.1:9/0")


@pytest.mark.parametrize("store_spec", ["redis"], indirect=True)
def test_redis_first_writers_racing_on_project_end_up_in_one_place(store_spec: object) -> None:
    a, b = store_spec.open(), store_spec.open()  # type: ignore[attr-defined]
    try:
        b._projects["s1"] = project_token("/b")  # b decided the keys before a's write landed
        record_stop(a, StopEvent("s1", text="from a", project="/a"), STATUS)
        record_stop(b, StopEvent("s1", text="from b", project="/b"), STATUS)
        for store in (a, b):
            st = store.get_session("s1")
            assert st.project == "/a" and st.continues == 2
            assert [r.text for r in store.timeline("s1")] == ["from a", "from b"]
        keys = [k.decode() for k in a._r.scan_iter(match=f"{a.prefix}:*:state")]
        assert keys == [f"{a.prefix}:{project_token('/a')}:s1:state"]
    finally:
        a.close()
        b.close()


def test_a_project_store_is_kept_out_of_git(tmp_path: Path) -> None:
    from coachloop.store import open_store

    (tmp_path / ".coachloop").mkdir()
    (tmp_path / ".coachloop" / "config.toml").write_text('[store]\nurl = ".coachloop/own.db"\n')
    trust_project(tmp_path)
    store = open_store(project=tmp_path)
    try:
        assert store.location == str(tmp_path / ".coachloop" / "own.db")
        ignore = tmp_path / ".coachloop" / ".gitignore"
        assert ignore.read_text().splitlines()[-1] == "*"
    finally:
        store.close()


def test_opening_a_store_twice_keeps_the_first_connection_locked(tmp_path: Path) -> None:
    """A second store on the same file must not drop the first one's SQLite locks: if it
    did, another process closing its last connection would delete the WAL under us."""
    import subprocess
    import sys

    from coachloop.store.sqlite import SQLiteStore

    db = tmp_path / "c.db"
    first = SQLiteStore(db)
    second = SQLiteStore(db)
    try:
        first.claim("x", 0)
        child = (
            "from coachloop.store.sqlite import SQLiteStore\n"
            f"s = SQLiteStore({str(db)!r}); s.claim('y', 0); s.close()\n"
        )
        subprocess.run([sys.executable, "-c", child], check=True, timeout=60)
        assert (tmp_path / "c.db-wal").exists(), "the WAL was checkpointed away under an open store"
        assert first.claim("z", 0)  # still a working connection
    finally:
        second.close()
        first.close()


def test_sqlite_stop_records_live_in_their_events_rows_beside_older_ones(tmp_path: Path) -> None:
    """Migration 0010: a stop's lifecycle record is written in its own events row (no
    lifecycle row); a store that kept them in the lifecycle table still reads them, in
    the order of their events, and retention clears both kinds by their saved time."""
    import json
    import time

    from coachloop.snapshot_pack import pack, unpack
    from coachloop.supervisor import Supervisor

    path = tmp_path / "old.db"
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("CREATE TABLE migrations (name TEXT PRIMARY KEY, applied_at REAL NOT NULL)")
    for name, sql in (m for m in MIGRATIONS if m[0] < "0010"):  # the schema before 0010
        db.executescript(sql)
        db.execute("INSERT INTO migrations VALUES (?, 0)", (name,))
    db.execute(
        "INSERT INTO events (session_id, kind, ts, recorded_at, data)"
        " VALUES ('s1', 'stop', 1, 1, ?)",
        (
            json.dumps(
                {"session_id": "s1", "kind": "stop", "ts": 1, "recorded_at": 1, "text": "old"}
            ),
        ),
    )
    old = pack("s1", "auto_continue", {"stop": {"cwd": "/w"}}, 1000.0)
    db.execute(
        "INSERT INTO lifecycle (session_id, event_id, label, saved_at, body, state)"
        " VALUES ('s1', 1, 'auto_continue', 1000.0, ?, '{}')",
        (old,),
    )
    db.close()
    now = time.time()
    sup = Supervisor(SQLiteStore(path), clock=lambda: now)
    try:
        sup.on_stop(StopEvent("s1", text="Which DB?"), Verdict("question", 0.9, "asks", "rules"))
        lives = sup.reads.lifecycle("s1")
        assert [(x.label, x.event_id) for x in lives] == [("auto_continue", 1), ("deliver", 2)]
        assert unpack(lives[0].body)["stop"] == {"cwd": "/w"} and lives[1].saved_at == now
        kept = json.loads(lives[1].state or "")  # sparse: the fields at their defaults left out
        assert kept["session_id"] == "s1" and "steering" not in kept and kept["stops"] == 1
        assert unsparse(kept) == sup.reads.get_session("s1").to_dict()
        assert [x.label for x in sup.reads.lifecycle("s1", 1)] == ["deliver"]
        raw = sqlite3.connect(path)
        assert raw.execute("SELECT count(*) FROM lifecycle").fetchone()[0] == 1
        raw.close()
        with SQLiteStore(path) as store:
            assert store.trim_lifecycle(now - 1) == 1  # the old one only
            assert store.trim_lifecycle(now + 1, limit=5) == 1  # then the stop's own
            assert store.lifecycle("s1") == [] and store.trim_lifecycle(now + 1) == 0
        assert [e.text for e in sup.reads.timeline("s1")] == ["old", "Which DB?"]
    finally:
        sup.close()


def test_sqlite_a_state_another_process_changed_is_read_again(tmp_path: Path) -> None:
    """The parsed state a store keeps is only used while the stored JSON is the same."""
    path = tmp_path / "c.db"
    with SQLiteStore(path) as mine, SQLiteStore(path) as other:
        record_stop(mine, StopEvent("s1", text="working"), STATUS)
        assert mine.get_session("s1").continues == 1
        record_stop(other, StopEvent("s1", text="still working"), STATUS)
        assert mine.get_session("s1").continues == 2
        record_stop(mine, StopEvent("s1", text="and more"), STATUS)  # reads other's write
        assert other.get_session("s1").continues == 3 and mine.get_session("s1").stops == 3


def test_sqlite_copies_its_wal_from_a_thread_of_its_own(tmp_path: Path) -> None:
    """No commit pays for the checkpoint: after a few commits a store's own thread copies
    the WAL into the database file; a store that commits less starts no thread."""
    import threading
    import time

    from coachloop.store.sqlite_file import CHECKPOINT_START

    def threads() -> set[threading.Thread]:
        return {t for t in threading.enumerate() if t.name == "coachloop-wal"}

    before = threads()
    path = tmp_path / "c.db"
    with SQLiteStore(path) as store:
        empty = path.stat().st_size
        for i in range(CHECKPOINT_START - 1):
            record_stop(store, StopEvent(f"s{i}", text="x"), STATUS)
        assert threads() == before and path.stat().st_size == empty  # all in the WAL
        record_stop(store, StopEvent("last", text="x"), STATUS)
        [mine] = threads() - before
        deadline = time.monotonic() + 10
        while path.stat().st_size == empty and time.monotonic() < deadline:
            time.sleep(0.01)
        assert path.stat().st_size > empty  # the pages were copied by that thread
        assert store.get_session("last").stops == 1
    assert not mine.is_alive()
    with SQLiteStore(path) as again:
        assert len(again.list_sessions()) == CHECKPOINT_START


def test_sqlite_store_dropped_without_close_ends_its_checkpoint_thread(tmp_path: Path) -> None:
    """The checkpoint thread does not outlive a store no one closed (nor keep its file
    open): stores opened and dropped many times leak no thread."""
    import gc
    import threading
    import time

    from coachloop.store.sqlite_file import CHECKPOINT_START

    def threads() -> set[threading.Thread]:
        return {t for t in threading.enumerate() if t.name == "coachloop-wal"}

    before, started = threads(), set()
    for _ in range(3):
        store = SQLiteStore(tmp_path / "c.db")
        for i in range(CHECKPOINT_START):
            record_stop(store, StopEvent(f"s{i}", text="x"), STATUS)
        started |= threads() - before
        del store
    gc.collect()
    deadline = time.monotonic() + 5
    while any(t.is_alive() for t in started) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert len(started) == 3 and not any(t.is_alive() for t in started)


def test_sqlite_commits_stand_when_no_checkpoint_thread_can_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A process that may start no more threads still records every stop: the stop
    whose commit would start the checkpoint thread returns its decision, not an error."""
    import threading

    from coachloop.store.sqlite_file import CHECKPOINT_START

    def refused(thread: threading.Thread) -> None:
        raise RuntimeError("can't start new thread")

    with SQLiteStore(tmp_path / "c.db") as store:
        monkeypatch.setattr(threading.Thread, "start", refused)
        for i in range(CHECKPOINT_START + 2):
            assert record_stop(store, StopEvent(f"s{i}", text="x"), STATUS).event_id > 0
        monkeypatch.undo()
        assert len(store.list_sessions()) == CHECKPOINT_START + 2


def test_sqlite_retention_walks_the_events_in_order(tmp_path: Path) -> None:
    """Stops' records are cleared in event order from where the last walk stopped, a
    bounded number of rows at a time; the walk waits at the first record still kept."""
    from coachloop.store.records import Life

    def life(at: float) -> Any:
        return lambda decision, state: Life("auto_continue", b"{}", at, state="")

    with SQLiteStore(tmp_path / "c.db") as store:
        for i in range(6):
            record_stop(store, StopEvent("s1", text=f"step {i}"), STATUS, life=life(1000.0 + i))
            record_stop(store, StopEvent("s2", text=f"other {i}"), STATUS)  # no record
        record_stop(store, StopEvent("s1", text="late"), STATUS, life=life(999.0))

        def saved() -> list[float]:
            return [x.saved_at for x in store.lifecycle("s1")]

        assert store.trim_lifecycle(1003.0, limit=2) == 2
        assert saved() == [1002.0, 1003.0, 1004.0, 1005.0, 999.0]
        assert store.trim_lifecycle(1003.0) == 1  # then 1003.0 is kept: the walk waits
        assert saved() == [1003.0, 1004.0, 1005.0, 999.0]
        assert store.trim_lifecycle(2000.0) == 4 and saved() == []
        assert store.trim_lifecycle(2000.0) == 0
        assert len(store.timeline("s1")) == 7 and len(store.timeline("s2")) == 6
