"""Shared helpers for the hook tests: payload builders, calls, and reading the store.

The fixture `project` (a git work tree, `make_project`) is defined here as
`project_fixture`; a test module imports that name to use it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from coachloop.agents.hook import HookReply, handle
from coachloop.store import Store, open_store

BIN = Path(sys.executable).parent
HEDGE = "I fixed the login bug. It should work now."
QUESTION = "Should I use Postgres or SQLite for the session store?"
EVIDENCE = (
    "Fixed the login bug in auth/session.py (commit 3f2a9c1).\n\n$ pytest -q\n42 passed in 1.84s"
)


def trust_project(project: Path) -> None:
    """What `coachloop trust PROJECT --yes` does: the project's config, as it is now,
    may choose the judge and the store."""
    from coachloop.config.trust import record

    path = project / ".coachloop" / "config.toml"
    record(path, path.read_text(encoding="utf-8"))


def make_project(root: Path, name: str = "proj") -> Path:
    """A git work tree (a real `git init`) to act as the agent's project."""
    project = root / name
    project.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    return project


@pytest.fixture(name="project")
def project_fixture(tmp_path: Path) -> Path:
    """A git work tree, `tmp_path/proj`."""
    return make_project(tmp_path)


def claude(event: str, session: str = "s1", cwd: Path | str = "", **fields: Any) -> dict[str, Any]:
    """A Claude Code hook payload (the common fields, then `fields`)."""
    data: dict[str, Any] = {
        "session_id": session,
        "transcript_path": "/nonexistent/transcript.jsonl",
        "cwd": str(cwd),
        "permission_mode": "default",
        "hook_event_name": event,
    }
    data.update(fields)
    return data


def prompt(
    session: str, cwd: Path, text: str, prompt_id: str = "p1", **extra: object
) -> dict[str, object]:
    """A Claude Code UserPromptSubmit payload."""
    return claude("UserPromptSubmit", session, cwd, prompt=text, prompt_id=prompt_id, **extra)


def stop(
    session: str, cwd: Path, text: str | None, prompt_id: str = "p1", **fields: Any
) -> dict[str, Any]:
    """A Claude Code Stop payload; `text` None leaves `last_assistant_message` out."""
    extra: dict[str, Any] = {"prompt_id": prompt_id, "stop_hook_active": False}
    if text is not None:
        extra["last_assistant_message"] = text
    extra.update(fields)
    return claude("Stop", session, cwd, **extra)


def call(agent: str, data: dict[str, Any] | bytes) -> HookReply:
    """`handle()` with `data` encoded as JSON (bytes are passed as they are)."""
    raw = data if isinstance(data, bytes) else json.dumps(data).encode()
    reply = handle(agent, raw)
    assert reply.exit_code == 0
    return reply


def decision(reply: HookReply) -> dict[str, Any] | None:
    """The reply's JSON object, None when it printed nothing."""
    if not reply.stdout:
        return None
    body = json.loads(reply.stdout)
    assert isinstance(body, dict)
    return body


def store_of(project: Path | None) -> Store:
    """The store the hook writes for `project` (the user's store when None)."""
    return open_store(project=project)


def hook_log() -> str:
    """The hook's failure log ('' when nothing failed)."""
    path = Path(os.environ["COACHLOOP_HOME"]) / "logs" / "hook.log"
    return path.read_text(encoding="utf-8") if path.exists() else ""


def run_hook(
    agent: str, stdin: bytes, *args: str, timeout: float = 60
) -> subprocess.CompletedProcess[bytes]:
    """The real `coachloop hook AGENT` process, in-process mode (no daemon)."""
    env = dict(os.environ, COACHLOOP_HOOK_DAEMON="0")
    return subprocess.run(
        [str(BIN / "coachloop"), "hook", agent, *args],
        input=stdin,
        capture_output=True,
        env=env,
        timeout=timeout,
        check=False,
    )
