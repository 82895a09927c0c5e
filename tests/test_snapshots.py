"""Session snapshots: one file per lifecycle event, never overwritten, redacted, retained."""

from __future__ import annotations

import json
import os
import threading
import time
from pathlib import Path

import pytest

from coachloop import snapshots
from coachloop.redaction import redact_value as redact
from coachloop.snapshots import SnapshotError, cleanup, list_snapshots, load, save

NOW = 1_800_000_000.0


def test_a_snapshot_is_one_json_file_per_event_under_home(tmp_path: Path) -> None:
    path = save("sess-1", "auto_continue", {"continues": 1, "text": "running"}, now=NOW)
    assert path.parent == tmp_path / "coachloop-home" / "sessions" / "sess-1"
    assert path.name == "20270115T080000.000000Z_auto_continue.json"
    data = load(path)
    assert data["session_id"] == "sess-1" and data["event"] == "auto_continue"
    assert data["continues"] == 1 and data["saved_at"] == NOW
    assert list_snapshots("sess-1") == [path]
    assert (path.stat().st_mode & 0o777) == 0o600
    for event in snapshots.LIFECYCLE:
        save("sess-1", event, {}, now=NOW + 1)
    with pytest.raises(ValueError, match="unknown snapshot event"):
        save("sess-1", "explode", {})


def test_snapshots_in_the_same_instant_never_overwrite_each_other(tmp_path: Path) -> None:
    first = save("s", "deliver", {"n": 0}, root=tmp_path, now=NOW)
    second = save("s", "deliver", {"n": 1}, root=tmp_path, now=NOW)
    assert first != second and second.name.endswith("_deliver-1.json")
    paths: list[Path] = []
    threads = [
        threading.Thread(
            target=lambda i=i: paths.append(save("s", "deliver", {"n": i}, root=tmp_path, now=NOW))
        )
        for i in range(2, 40)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    files = list_snapshots("s", tmp_path)
    assert len(files) == 40 == len(set(paths)) + 2
    assert sorted(load(p)["n"] for p in files) == list(range(40))
    assert not [p for p in (tmp_path / "s").iterdir() if p.name.startswith(".tmp-")]


def test_secrets_are_redacted() -> None:
    bot = "123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsawQ"
    text = (
        f"key sk-ant-api03-abcdefghijklmnopqrstuvwxyz and sk-proj-ABCDEFGHIJKLMNOPQRSTUV, bot {bot}, "
        "ANTHROPIC_API_KEY=sk-ant-xyzxyzxyzxyz, TELEGRAM_TOKEN=abc123, "
        "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.payload.sig, gh ghp_abcdefghijklmnopqrstuvwxyz123456"
    )
    data = {
        "text": text,
        "env": {
            "api_key": "plain",
            "bot_token": "t",
            "password": "p",
            "client_secret": "s",
            "empty_key": "",
        },
        "items": [{"Authorization": "Basic dXNlcjpwYXNz"}, "sk-ant-api03-zzzzzzzzzzzzzzzz"],
        "keep": "tests: 12 passed, see skill /do-build",
        "count": 3,
    }
    out = redact(data)
    dumped = json.dumps(out)
    for secret in (
        "abcdefghijklmnopqrstuvwxyz",
        "ABCDEFGHIJKLMNOP",
        bot,
        "xyzxyz",
        "abc123",
        "eyJhbG",
        "ghp_",
        "plain",
        '"t"',
        '"p"',
        '"s"',
        "dXNlcjpwYXNz",
        "zzzzzzzz",
    ):
        assert secret not in dumped, secret
    assert out["keep"] == data["keep"] and out["count"] == 3 and out["env"]["empty_key"] == ""
    assert (
        "ANTHROPIC_API_KEY=[REDACTED]" in out["text"]
        and "Authorization: Bearer [REDACTED]" in out["text"]
    )
    path = save("s", "error", {"stop": data})
    assert "sk-ant" not in path.read_text() and bot not in path.read_text()


def test_a_corrupt_snapshot_is_a_clear_error(tmp_path: Path) -> None:
    folder = tmp_path / "s"
    folder.mkdir()
    bad = folder / "20270101T000000.000000Z_deliver.json"
    bad.write_text('{"event": "deliver", "trunc')
    with pytest.raises(SnapshotError, match=r"20270101T000000\.000000Z_deliver\.json"):
        load(bad)
    other = folder / "x.json"
    other.write_text("[1, 2]")
    with pytest.raises(SnapshotError, match="not a coachloop snapshot"):
        load(other)
    with pytest.raises(SnapshotError, match="cannot be read"):
        load(folder / "missing.json")


def test_cleanup_removes_old_files_and_skips_nothing_it_should_keep(tmp_path: Path) -> None:
    old = save("old", "complete", {}, root=tmp_path, now=NOW)
    kept = save("live", "resume", {}, root=tmp_path, now=NOW)
    corrupt_old = tmp_path / "live" / "19990101T000000.000000Z_error.json"
    corrupt_old.write_text("{not json")
    corrupt_new = tmp_path / "live" / "20270101T000000.000000Z_error.json"
    corrupt_new.write_text("{not json")
    notes = tmp_path / "live" / "notes.txt"
    notes.write_text("not a snapshot")
    eight_days = time.time() - 8 * 86_400
    for p in (old, corrupt_old, notes):
        os.utime(p, (eight_days, eight_days))
    report = cleanup(7, root=tmp_path)
    assert (report.removed, report.folders, report.errors) == (2, 1, [])
    assert not old.exists() and not (tmp_path / "old").exists() and not corrupt_old.exists()
    assert kept.exists() and corrupt_new.exists() and notes.exists()
    assert cleanup(1, root=tmp_path, now=time.time() + 2 * 86_400).removed == 2  # configurable
    assert cleanup(7, root=tmp_path / "nowhere").removed == 0
    with pytest.raises(ValueError):
        cleanup(-1, root=tmp_path)


def test_session_ids_cannot_escape_the_snapshot_folder(tmp_path: Path) -> None:
    for sid in ("../../etc", "a/b", "..", "über session"):
        path = save(sid, "resume", {}, root=tmp_path)
        assert path.parent.parent == tmp_path, sid
    assert snapshots.session_dir("a/b", tmp_path) != snapshots.session_dir("a_b", tmp_path)
    with pytest.raises(ValueError):
        save(" ", "resume", {}, root=tmp_path)


def test_a_corrupt_snapshot_loses_nothing_else(tmp_path: Path) -> None:
    save("s", "resume", {"n": 1}, root=tmp_path, now=NOW)
    bad = tmp_path / "s" / "20270115T080000.500000Z_error.json"
    bad.write_bytes(b"\x00\xffgarbage")
    save("s", "deliver", {"n": 2}, root=tmp_path, now=NOW + 1)
    loaded: list[int] = []
    errors: list[str] = []
    for path in list_snapshots("s", tmp_path):
        try:
            loaded.append(load(path)["n"])
        except SnapshotError as exc:
            errors.append(str(exc))
    assert loaded == [1, 2] and len(errors) == 1 and bad.name in errors[0]
    report = cleanup(7, root=tmp_path)
    assert report.errors == [] and len(list_snapshots("s", tmp_path)) == 3
