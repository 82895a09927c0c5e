"""Attacks of issue 13 on secrets and files, through the real `coachloop hook` process.

- 3: credentials an agent prints are redacted at the door, before the judge, the store,
  the snapshots, `deliveries.log` and the chat outbox; `coachloop show` prints none.
- 3: the data directory is 0700 and every file in it 0600.
- 8: a FIFO planted at `deliveries.log` does not block the hook; terminal escape
  sequences in an agent's message never reach `deliveries.log` or `coachloop show`.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import time
from pathlib import Path

import pytest

from hook_support import BIN, make_project, run_hook, stop, store_of

SECRETS = {
    "sk-ant-api03-AbCdEf12_34-xyzXYZ": "AbCdEf12_34",
    "ghp_aBcD1234EfGh5678IjKl9012MnOp3456QrSt": "aBcD1234EfGh5678",
    "github_pat_11ABCDEFG0abcdefghij_Zz9Yx8Wv7": "11ABCDEFG0abc",
    "ASIAY34FZKBOKMUTVV7A": "Y34FZKBOKMUTVV7A",
    "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY": "wJalrXUtnFEMI",
    "xoxb-123456789012-1234567890123-AbCdEfGhIjKl": "1234567890123-AbC",
    "sk_live_4eC39HqLyjWDarjtT1zdp7dc": "4eC39HqLyjW",
    "glpat-xY7zAbCdEf12GhIjKl34": "xY7zAbCdEf12",
    "AIzaSyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStUvW": "SyA1b2C3d4E5",
    "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N": "dozjgNryP4J3",
    "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA7x\n-----END RSA PRIVATE KEY-----": "MIIEpA",
    "password: hunter2!": "hunter2",
    "postgres://app:s3cretPass@db.example.com/app": "s3cretPass",
}
ESCAPES = "\x1b[2J\x1b]0;pwned\x07\x1b]52;c;Y2xpcA==\x07"


def _message() -> str:
    lines = "\n".join(f"- {text}" for text in SECRETS)
    return f"Should I rotate these credentials I found?{ESCAPES}\n{lines}\nWhich first?"


def _files(root: Path) -> list[Path]:
    return [p for p in root.rglob("*") if p.is_file() and not p.is_symlink()]


def _leaks(root: Path) -> list[str]:
    found = []
    for path in _files(root):
        data = path.read_bytes()
        found += [f"{path.name}: {s}" for s in SECRETS.values() if s.encode() in data]
        if path.suffix in (".log", ".json") and (b"\x1b]" in data or b"\x1b[" in data):
            found.append(f"{path.name}: escape sequence")  # printed or read on terminals
    return found


def test_secrets_an_agent_prints_are_redacted_before_store_log_snapshot_and_outbox(
    tmp_path: Path,
) -> None:
    project = make_project(tmp_path)
    home = Path(os.environ["COACHLOOP_HOME"])
    done = run_hook("claude-code", json.dumps(stop("s1", project, _message())).encode())
    assert done.returncode == 0, done.stderr
    from coachloop.snapshot_pack import whole

    with store_of(project) as store:
        (entry,) = store.outbox_pending()  # a question: delivered to the human
        assert "[REDACTED]" in entry.text
        timeline = {e.id: e for e in store.timeline("s1")}
        lives = store.lifecycle("s1")
        records = [json.dumps(whole(life, timeline[life.event_id])) for life in lives]
    assert records and all("[REDACTED]" in r for r in records)  # packed: read unpacked
    assert not [s for s in SECRETS.values() for r in records if s in r]
    assert (home / "deliveries.log").exists()
    assert _leaks(home) == [] and _leaks(project) == []
    shown = subprocess.run(
        [str(BIN / "coachloop"), "show", "s1", "--project", str(project), "--full"],
        capture_output=True,
        check=False,
    )
    assert shown.returncode == 0, shown.stderr
    assert b"[REDACTED]" in shown.stdout and b"\x1b" not in shown.stdout
    assert not [s for s in SECRETS.values() if s.encode() in shown.stdout]


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_the_data_directory_is_0700_and_every_file_0600(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    home = Path(os.environ["COACHLOOP_HOME"])
    done = run_hook("claude-code", json.dumps(stop("s1", project, _message())).encode())
    assert done.returncode == 0
    run_hook("claude-code", b"not json at all")  # a failure: the hook log
    assert (home / "logs" / "hook.log").exists()
    for root in (home,):
        assert _mode(root) == 0o700, root
        for path in root.rglob("*"):
            if path.is_dir():
                assert _mode(path) == 0o700, path
            elif path.name != ".gitignore":
                assert _mode(path) == 0o600, path


def test_an_old_world_readable_store_is_tightened(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    data = Path(os.environ["COACHLOOP_HOME"])
    run_hook("claude-code", json.dumps(stop("s1", project, "Done.")).encode())
    os.chmod(data, 0o755)
    os.chmod(data / "coachloop.db", 0o644)
    run_hook("claude-code", json.dumps(stop("s2", project, "Done.")).encode())
    assert _mode(data) == 0o700 and _mode(data / "coachloop.db") == 0o600


def test_a_fifo_at_the_delivery_log_does_not_block_the_hook(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    home = Path(os.environ["COACHLOOP_HOME"])
    home.mkdir(parents=True)
    os.mkfifo(home / "deliveries.log")
    started = time.monotonic()
    done = run_hook(
        "claude-code",
        json.dumps(stop("s1", project, "Which DB should I use?")).encode(),
        timeout=30,
    )
    assert done.returncode == 0 and time.monotonic() - started < 20
    with store_of(project) as store:
        assert len(store.outbox_pending()) == 1  # the delivery itself is not lost
    assert stat.S_ISFIFO((home / "deliveries.log").stat().st_mode)


@pytest.mark.parametrize("agent_text", [f"Build finished.{ESCAPES} Should I deploy?"])
def test_escape_sequences_never_reach_the_delivery_log(tmp_path: Path, agent_text: str) -> None:
    project = make_project(tmp_path)
    home = Path(os.environ["COACHLOOP_HOME"])
    run_hook("claude-code", json.dumps(stop("s1", project, agent_text)).encode())
    log = (home / "deliveries.log").read_bytes()
    assert b"Should I deploy?" in log and b"\x1b" not in log and b"\x07" not in log
