"""Attacks of issue 13 on decisions under faults, with the real `coachloop hook` client.

- 4: a daemon killed after it decided a stop, before it replied: the client handled the
  stop again in-process, so a question was delivered twice, or a hedge recorded as
  "continue" was then delivered and the agent stopped. Now every stop carries an id
  committed with its decision, and the same stop again gets the recorded answer.
- 5: a hung daemon (accepts, never answers) cost 25 s per stop; now it is bypassed
  within a second (tests/test_hook_client.py::test_a_hung_daemon_is_bypassed_within_a_second).
"""

from __future__ import annotations

import json
import os
import socket
import threading
from pathlib import Path

import pytest

from coachloop.agents.client import MAGIC
from coachloop.agents.hook import handle
from coachloop.store import open_store
from hookd_support import HEDGED, QUESTION, fake_daemon, hook_env, run_hook, stop
from hookd_support import project_fixture as project  # noqa: F401 - a fixture
from hookd_support import short_dir_fixture as short_dir  # noqa: F401 - a fixture


def _dies_after_deciding(path: str) -> threading.Thread:
    """A daemon that takes the request, decides and records it (the real `handle`), and
    is killed before it replies: the connection closes with no answer."""

    def respond(conn: socket.socket) -> None:
        data = b""
        while chunk := conn.recv(65536):
            data += chunk
        conn.sendall(b"+")
        head, _, payload = data[len(MAGIC) :].partition(b"\n")
        handle(head.decode(), payload)  # decided and committed ...
        # ... and the process dies here: no reply

    return fake_daemon(path, respond)


@pytest.mark.parametrize(("text", "kind"), [(HEDGED, "continue"), (QUESTION, "deliver")])
def test_a_daemon_killed_after_deciding_never_doubles_the_decision(
    tmp_path: Path,
    *,
    short_dir: Path,  # noqa: F811
    project: str,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
    text: str,
    kind: str,
) -> None:
    store = str(tmp_path / "b.db")
    monkeypatch.setenv("COACHLOOP_STORE", store)  # the fake daemon's `handle` writes here
    path = str(short_dir / "d.sock")
    thread = _dies_after_deciding(path)
    env = hook_env(COACHLOOP_HOOK_SOCKET=path, COACHLOOP_STORE=store)
    done = run_hook(stop("sess-k", text, cwd=project), env)
    thread.join(10)
    assert done.returncode == 0
    with open_store(store) as opened:
        stops = [r for r in opened.timeline("sess-k") if r.kind == "stop"]
        assert [r.decision for r in stops] == [kind]  # decided once
        delivered = [e.text for e in opened.outbox_pending()]
    if kind == "continue":  # the agent got the recorded coaching, not a second decision
        assert json.loads(done.stdout) == {"decision": "block", "reason": stops[0].message}
        assert delivered == []
    else:  # the question reached the human once, and the agent stopped
        assert done.stdout == b"" and delivered == [QUESTION]


def test_the_same_stop_sent_again_gets_the_same_answer(
    tmp_path: Path,
    project: str,  # noqa: F811
) -> None:
    env = hook_env(COACHLOOP_STORE=str(tmp_path / "c.db"), COACHLOOP_HOOK_DAEMON="0")
    raw = stop("sess-r", HEDGED, cwd=project)
    first = run_hook(raw, env)
    again = run_hook(raw, env)  # a client retrying a stop whose reply it lost
    assert b'"block"' in first.stdout and again.stdout == first.stdout
    with open_store(str(tmp_path / "c.db")) as opened:
        stops = [r for r in opened.timeline("sess-r") if r.kind == "stop"]
        assert len(stops) == 1 and opened.get_session("sess-r").continues == 1
    assert os.environ.get("COACHLOOP_STORE") is None  # nothing leaked into the suite


def test_a_stop_the_store_cannot_take_is_kept_and_replayed(
    tmp_path: Path,
    project: str,  # noqa: F811
) -> None:
    """Issue 13: a corrupt store (random bytes) failed open and the stop was lost, not
    even in deliveries.log. Now it is announced there at once, kept (redacted) in the
    spill folder, and recorded when the store works again."""
    home = tmp_path / "home"
    store = tmp_path / "broken.db"
    store.write_bytes(os.urandom(4096))
    env = hook_env(COACHLOOP_HOME=str(home), COACHLOOP_STORE=str(store), COACHLOOP_HOOK_DAEMON="0")
    secret = "sk-ant-api03-AbCdEf12_34-xyzXYZ"
    lost = run_hook(stop("sess-lost", f"{QUESTION} (key {secret})", cwd=project), env)
    assert (lost.returncode, lost.stdout) == (0, b"")
    log = (home / "deliveries.log").read_text()
    assert "undecided" in log and QUESTION in log and secret not in log
    (spilled,) = (home / "spill").iterdir()
    assert secret not in spilled.read_text() and oct(spilled.stat().st_mode)[-3:] == "600"
    store.unlink()  # the user moves the broken file away: the store works again
    later = run_hook(stop("sess-next", HEDGED, cwd=project), env)
    assert b'"block"' in later.stdout
    assert list((home / "spill").iterdir()) == []
    with open_store(str(store)) as opened:
        (rec,) = [r for r in opened.timeline("sess-lost") if r.kind == "stop"]
        assert rec.decision == "deliver" and secret not in rec.text
        assert [e.text for e in opened.outbox_pending() if e.session_id == "sess-lost"]


def test_an_oversized_payload_is_cut_and_judged_not_dropped(
    tmp_path: Path,
    project: str,  # noqa: F811
) -> None:
    """Issue 13: a payload over 32 MB was dropped with only a log line. Now its long
    strings are cut to head and tail and the stop is judged: the question at the end of
    a 33 MB message reaches the human."""
    env = hook_env(COACHLOOP_STORE=str(tmp_path / "big.db"), COACHLOOP_HOOK_DAEMON="0")
    filler = 'Migrated module 1 of 9: "ok" \\ fine. ' * 900_000
    raw = stop("sess-big", f"{filler}\n\n{QUESTION}", cwd=project)
    assert len(raw) > 32 * 1024 * 1024
    done = run_hook(raw, env, timeout=120)
    assert (done.returncode, done.stdout) == (0, b"")
    with open_store(str(tmp_path / "big.db")) as opened:
        (rec,) = [r for r in opened.timeline("sess-big") if r.kind == "stop"]
        assert rec.decision == "deliver" and rec.text.endswith(QUESTION)
        assert "characters cut by coachloop" in rec.text and len(rec.text) < 200_000


def test_a_hooks_judge_finishes_inside_the_hooks_budget(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 13: a judge slower than the client's 25 s budget let the agent stop while
    the store recorded "continue". On the hook path the LLM deadline (retries included)
    is clamped under the budget; the rules decide when it passes."""
    from coachloop.agents.client import DEFAULT_TIMEOUT
    from coachloop.agents.projects import HOOK_JUDGE_BUDGET, opened

    home = Path(os.environ["COACHLOOP_HOME"])
    home.mkdir(parents=True, exist_ok=True)
    (home / "config.toml").write_text(
        'judge = "openai"\nllm_base_url = "http://127.0.0.1:9/v1"\nllm_timeout = 60\n'
    )
    monkeypatch.setenv("OPENAI_API_KEY", "test-key-not-used-0123")
    judge = opened(None).judge
    content = getattr(judge, "content", None)
    assert getattr(content, "timeout", None) == HOOK_JUDGE_BUDGET < DEFAULT_TIMEOUT
