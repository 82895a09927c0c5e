"""Helpers for the warm-daemon tests: real `coachloop serve` processes, real hook
payloads, and in-process reference replies to compare the transports against.

Every process a helper starts is stopped by the fixture that asked for it.

The fixtures `project` (a project directory, as a string) and `short_dir` (a directory
with a short path, for unix sockets) are defined here as `*_fixture`; a test module
imports those names to use them.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

BIN = Path(sys.executable).parent
COACHLOOP = str(BIN / "coachloop")

HEDGED = "I updated the login handler in src/auth.py. It should work now, probably."
EVIDENCED = (
    "Fixed the login bug in src/auth.py. Ran `pytest -q`: 42 passed in 1.31s. Committed as 3f2a9c1."
)
QUESTION = "Should the session cookie be HttpOnly, or does the SPA need to read it?"
SERVE_TOKEN = "test-serve-token-0123456789"  # what `hook_env` gives every server


class AuthConnection(http.client.HTTPConnection):
    """An HTTP connection that sends the test servers' token (and, on a POST, a JSON
    content type) unless the request names its own: what an installed hook sends."""

    def request(  # type: ignore[override]
        self,
        method: str,
        url: str,
        body: Any = None,
        headers: dict[str, str] | None = None,
        **kwargs: Any,
    ) -> None:
        given = dict(headers or {})
        given.setdefault("Authorization", f"Bearer {SERVE_TOKEN}")
        if method == "POST":
            given.setdefault("Content-Type", "application/json")
        super().request(method, url, body=body, headers=given, **kwargs)


def health(url: str, timeout: float = 5, token: str = SERVE_TOKEN) -> dict[str, Any]:
    """GET `url`/health with the token; the parsed answer."""
    request = urllib.request.Request(url + "/health", headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request, timeout=timeout) as resp:
        data: dict[str, Any] = json.loads(resp.read())
    return data


@pytest.fixture(name="project")
def project_fixture(tmp_path: Path) -> str:
    """An empty project directory, `tmp_path/project`, as a string."""
    path = tmp_path / "project"
    path.mkdir()
    return str(path)


@pytest.fixture(name="short_dir")
def short_dir_fixture() -> Iterator[Path]:
    """A directory with a short path (unix socket paths are limited to ~107 bytes)."""
    path = Path(tempfile.mkdtemp(prefix="clh-"))
    path.chmod(0o700)
    yield path
    shutil.rmtree(path, ignore_errors=True)


def _payload(event: str, sid: str, cwd: str, prompt_id: str, **fields: Any) -> bytes:
    """A Claude Code hook payload: the fields every event carries, then `fields`."""
    return json.dumps(
        {
            "session_id": sid,
            "transcript_path": f"{cwd}/.claude-transcripts/{sid}.jsonl",
            "cwd": cwd,
            "prompt_id": prompt_id,
            "permission_mode": "default",
            "hook_event_name": event,
            **fields,
        }
    ).encode()


def stop(sid: str, text: str, *, cwd: str, prompt_id: str = "p-1", active: bool = False) -> bytes:
    """A Claude Code Stop payload as Claude Code 2.1 sends it."""
    return _payload(
        "Stop",
        sid,
        cwd,
        prompt_id,
        stop_hook_active=active,
        last_assistant_message=text,
        background_tasks=[],
        session_crons=[],
    )


def prompt(sid: str, text: str, *, cwd: str, prompt_id: str = "p-1") -> bytes:
    """A Claude Code UserPromptSubmit payload."""
    return _payload("UserPromptSubmit", sid, cwd, prompt_id, prompt=text)


def conversation(sid: str, cwd: str) -> list[bytes]:
    """One session's hooks: a prompt, a hedged stop, its continuation, an evidenced stop,
    a question, and payloads no agent should send."""
    return [
        prompt(sid, "Fix the login bug", cwd=cwd),
        stop(sid, HEDGED, cwd=cwd),
        stop(sid, EVIDENCED, cwd=cwd, active=True),
        prompt(sid, "Now the cookie flags", cwd=cwd, prompt_id="p-2"),
        stop(sid, QUESTION, cwd=cwd, prompt_id="p-2"),
        b"{not json",
        b"",
        b'{"session_id": 7, "hook_event_name": ["Stop"]}',
    ]


def reference(agent: str, payloads: list[bytes], store: str) -> list[tuple[int, bytes]]:
    """What the in-process `handle()` answers to `payloads`, on the store `store`."""
    from coachloop.agents.hook import handle

    saved = os.environ.get("COACHLOOP_STORE")
    os.environ["COACHLOOP_STORE"] = store
    try:
        replies = [handle(agent, raw) for raw in payloads]
    finally:
        if saved is None:
            os.environ.pop("COACHLOOP_STORE", None)
        else:
            os.environ["COACHLOOP_STORE"] = saved
    return [(r.exit_code, r.stdout) for r in replies]


def blocks(replies: list[tuple[int, bytes]]) -> list[bool]:
    """For each reply: does it send the agent back (`"decision": "block"`)?"""
    return [bool(out.strip()) and json.loads(out).get("decision") == "block" for _, out in replies]


# What `conversation()` gets: only the hedged stop is sent back.
CONVERSATION_BLOCKS = [False, True, False, False, False, False, False, False]


def valid_reply(body: bytes) -> bool:
    """Empty, or one JSON object (what an agent accepts from a hook)."""
    if not body.strip():
        return True
    try:
        return isinstance(json.loads(body), dict)
    except ValueError:
        return False


def generated_bad_payloads(n: int, cwd: str, seed: int = 4) -> list[bytes]:
    """`n` payloads no agent should send: broken JSON, wrong types, missing fields,
    binary, deep nesting, huge strings."""
    import random

    rng = random.Random(seed)
    good = json.loads(stop("sess-fuzz", HEDGED, cwd=cwd))
    odd_values: list[Any] = [None, 0, -1, 1e308, True, "", "x" * 1000, [], {}, [1, "a"], {"a": {}}]
    out: list[bytes] = []
    for i in range(n):
        kind = i % 7
        if kind == 0:
            out.append(rng.randbytes(rng.randint(0, 300)))
        elif kind == 1:
            raw = stop(f"sess-{i}", HEDGED, cwd=cwd)
            out.append(raw[: rng.randint(0, len(raw) - 1)])
        elif kind == 2:
            body = dict(good, session_id=f"sess-{i}")
            body[rng.choice(list(body))] = rng.choice(odd_values)
            out.append(json.dumps(body).encode())
        elif kind == 3:
            body = dict(good, session_id=f"sess-{i}")
            for key in rng.sample(list(body), rng.randint(1, len(body))):
                del body[key]
            out.append(json.dumps(body).encode())
        elif kind == 4:
            depth = rng.randint(100, 5000)
            out.append(b"[" * depth + b"]" * depth)
        elif kind == 5:
            out.append(json.dumps(rng.choice(odd_values)).encode())
        else:
            size = rng.choice([10_000, 200_000, 2_000_000])
            text = rng.choice(["x", "é", "\u0000", "should work now "]) * (size // 16)
            out.append(
                json.dumps(dict(good, session_id=f"sess-{i}", last_assistant_message=text)).encode()
            )
    return out


def hook_env(**overrides: str) -> dict[str, str]:
    """The test's environment (its own COACHLOOP_HOME) with the daemon path on (whatever
    the suite's default), plus `overrides`. A daemon a hook spawns from it exits after
    60 s idle, should a test fail to stop it."""
    env = dict(os.environ)
    env.pop("COACHLOOP_HOOK_SOCKET", None)
    env["COACHLOOP_HOOK_DAEMON"] = "1"
    env["COACHLOOP_HOOK_IDLE_TIMEOUT"] = "60"
    env["COACHLOOP_SERVE_TOKEN"] = SERVE_TOKEN
    env.update(overrides)
    return env


def run_hook(
    raw: bytes, env: dict[str, str], agent: str = "claude-code", timeout: float = 30
) -> subprocess.CompletedProcess[bytes]:
    """Run the real `coachloop hook AGENT` console script."""
    return subprocess.run(
        [COACHLOOP, "hook", agent],
        check=False,
        input=raw,
        env=env,
        capture_output=True,
        timeout=timeout,
    )


@dataclass
class Serve:
    """A running `coachloop serve` subprocess."""

    proc: subprocess.Popen[bytes]
    banner: str
    socket: str | None = None
    port: int | None = None
    env: dict[str, str] = field(default_factory=dict)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 15) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return self.proc.wait(timeout)
        finally:
            if self.proc.stdout:
                self.proc.stdout.close()


def start_serve(*args: str, env: dict[str, str], ready_timeout: float = 20) -> Serve:
    """Start `coachloop serve ARGS` and wait for its banner line."""
    proc = subprocess.Popen(
        [COACHLOOP, "serve", *args],
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    assert proc.stdout is not None
    deadline = time.monotonic() + ready_timeout
    banner = b""
    while b"\n" not in banner:
        left = deadline - time.monotonic()
        if left <= 0 or proc.poll() is not None:
            proc.kill()
            proc.wait()
            raise AssertionError(f"coachloop serve did not start: {banner!r}")
        if select.select([proc.stdout], [], [], left)[0]:
            chunk = os.read(proc.stdout.fileno(), 4096)
            if not chunk:
                continue
            banner += chunk
    text = banner.decode()
    port = re.search(r"http://127\.0\.0\.1:(\d+)", text)
    sock = re.search(r"unix socket (\S+?),? ", text + " ")
    return Serve(
        proc,
        text,
        socket=sock.group(1) if sock else None,
        port=int(port.group(1)) if port else None,
        env=env,
    )


def read_all(conn: socket.socket) -> bytes:
    """Everything the peer sends until it closes."""
    chunks = []
    while chunk := conn.recv(65536):
        chunks.append(chunk)
    return b"".join(chunks)


def wait_for(predicate: Any, timeout: float = 10, interval: float = 0.02) -> Any:
    """Poll `predicate` until it returns something truthy; that value, or fail."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {predicate}")
        time.sleep(interval)


def serve_processes(socket_path: str) -> list[int]:
    """Pids of live `coachloop serve` processes for `socket_path` (from /proc)."""
    pids = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            argv = (entry / "cmdline").read_bytes().split(b"\0")
            state = (entry / "stat").read_text().split()[2]
        except OSError:
            continue
        if b"serve" in argv and socket_path.encode() in argv and state != "Z":
            pids.append(int(entry.name))
    return pids


def fake_daemon(path: str, respond: Callable[[socket.socket], None]) -> threading.Thread:
    """A one-connection daemon on the unix socket `path` that we control: it accepts one
    connection and hands it to `respond` (on a thread, returned started)."""
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen(8)
    listener.settimeout(20)

    def serve() -> None:
        with listener:
            conn, _ = listener.accept()
            with conn:
                respond(conn)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    return thread
