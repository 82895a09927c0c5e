"""Must-shows, on both backends: 32 processes stopping at once never exceed the cap and
lose no event; a writer killed mid-stream leaves a readable store holding every
acknowledged event."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from typing import Any

from coachloop.core.events import StopEvent
from coachloop.core.verdict import Verdict
from coachloop.supervisor.writes import record_stop

PROCESSES = 32

_PRELUDE = r"""
import json, sys
from coachloop.core.events import StopEvent
from coachloop.core.verdict import Verdict
from coachloop.store import open_store
from coachloop.supervisor.writes import record_stop
target, prefix = sys.argv[1], sys.argv[2]
status = Verdict("status", 0.9, "mid-work", "rules", route="continue", coaching_message="go on")
store = open_store(target, prefix=prefix)
"""

STOPPER = (
    _PRELUDE
    + r"""
i = int(sys.argv[3])
print("ready", flush=True)
sys.stdin.readline()  # everyone starts together
r = record_stop(store, StopEvent("shared", text=f"status {i}", job_id=f"job-{i}", project="/p"), status)
print(json.dumps({"id": r.event_id, "kind": r.decision.kind, "text": r.decision.text}), flush=True)
store.close()
"""
)

WRITER = (
    _PRELUDE
    + r"""
i = 0
while True:
    sid = f"crash-{i % 4}"
    r = record_stop(store, StopEvent(sid, text=f"output {i} " + "x" * 300, job_id=f"j{i}"), status)
    print(r.event_id, sid, flush=True)  # acknowledged: the transaction has committed
    i += 1
"""
)


def _spawn(script: str, spec: Any, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", script, spec.target, spec.prefix, *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=os.environ.copy(),
    )


def test_32_processes_at_once_never_exceed_the_cap_and_lose_nothing(store_spec: Any) -> None:
    procs = [_spawn(STOPPER, store_spec, str(i)) for i in range(PROCESSES)]
    try:
        for p in procs:
            assert p.stdout is not None
            line = p.stdout.readline()
            assert line.strip() == "ready", p.stderr.read() if p.stderr else line
        for p in procs:
            assert p.stdin is not None
            p.stdin.write("go\n")
            p.stdin.flush()
        results = []
        for p in procs:
            out, err = p.communicate(timeout=60)
            assert p.returncode == 0, err
            results.append(json.loads(out))
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
    kinds = [r["kind"] for r in results]
    assert kinds.count("continue") == 3
    assert kinds.count("deliver") == PROCESSES - 3
    assert all("cap reached" in r["text"] for r in results if r["kind"] == "deliver")

    store = store_spec.open()
    try:
        state = store.get_session("shared")
        assert state.continues == 3 and state.stops == PROCESSES
        timeline = store.timeline("shared")
        assert len(timeline) == PROCESSES
        assert {r.id for r in timeline} == {r["id"] for r in results}
        assert sorted(r.text for r in timeline) == sorted(f"status {i}" for i in range(PROCESSES))
        assert sum(1 for e in store.outbox_pending(1000) if e.kind == "deliver") == PROCESSES - 3
    finally:
        store.close()


def test_a_writer_killed_mid_stream_loses_no_acknowledged_event(store_spec: Any) -> None:
    proc = _spawn(WRITER, store_spec)
    acked: dict[int, str] = {}
    assert proc.stdout is not None
    deadline = time.monotonic() + 30
    try:
        while len(acked) < 400 and time.monotonic() < deadline:
            line = proc.stdout.readline()
            if not line:
                break
            if line.endswith("\n"):
                event_id, sid = line.split()
                acked[int(event_id)] = sid
    finally:
        proc.send_signal(signal.SIGKILL)  # no cleanup, no atexit, mid-transaction
        proc.wait(timeout=10)
    assert proc.returncode == -signal.SIGKILL
    assert len(acked) >= 100, proc.stderr.read() if proc.stderr else "writer died"

    if store_spec.backend == "sqlite":
        db = sqlite3.connect(store_spec.target)
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        db.close()
    store = store_spec.open()
    try:
        stored: dict[int, str] = {}
        for sid in {f"crash-{i}" for i in range(4)}:
            stored.update({r.id: r.session_id for r in store.timeline(sid)})
        missing = set(acked) - set(stored)
        assert not missing, f"acknowledged but lost: {sorted(missing)[:10]}"
        assert all(stored[i] == sid for i, sid in acked.items())
        # The store still takes writes.
        status = Verdict("question", 0.9, "asks", "rules")
        assert record_stop(
            store, StopEvent("crash-0", text="after the crash"), status
        ).event_id > max(acked)
    finally:
        store.close()


def test_a_commit_that_fails_leaves_the_store_usable(tmp_path: Any) -> None:
    """A COMMIT that fails keeps its transaction open in SQLite (here a deferred
    constraint; SQLITE_BUSY does the same): the store rolls it back, so the stop after
    it commits instead of failing with "cannot start a transaction within a transaction"."""
    import pytest

    from coachloop.store import StoreError
    from coachloop.store.sqlite import SQLiteStore

    store = SQLiteStore(tmp_path / "coachloop.db")
    db = store._db  # the store's own connection: the failure must happen inside its COMMIT
    db.execute("PRAGMA foreign_keys = ON")
    db.execute("CREATE TEMP TABLE parent (id INTEGER PRIMARY KEY)")
    db.execute(
        "CREATE TEMP TABLE child (pid INTEGER REFERENCES parent(id) DEFERRABLE INITIALLY DEFERRED)"
    )

    def orphan(state: object) -> tuple[None, str]:
        db.execute("INSERT INTO temp.child VALUES (1)")  # fails only when committed
        return None, "done"

    with pytest.raises(StoreError, match="FOREIGN KEY"):
        store.transact("s1", orphan)
    assert not db.in_transaction
    status = Verdict("status", 0.9, "mid-work", "rules", route="continue", coaching_message="go")
    result = record_stop(store, StopEvent("s1", text="step 1 of 3", project="/p"), status)
    assert result.event_id > 0
    assert [e.kind for e in store.timeline("s1")] == ["stop"]
    store.close()
