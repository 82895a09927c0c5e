"""Shared test setup: an isolated data directory, and no real model calls.

Every test gets its own `COACHLOOP_HOME`. Model API keys are removed and the SDKs'
base URLs point at a closed local port, so a test that forgets to use the scripted
model fails fast instead of reaching a real API. A test opts in to real calls with
`@pytest.mark.allow_model_calls`.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from coachloop.store import Store

_MODEL_ENV = (
    "ANTHROPIC_API_KEY",
    "ANTHROPIC_AUTH_TOKEN",
    "OPENAI_API_KEY",
    "COACHLOOP_JUDGE",
    "COACHLOOP_MODEL",
    "COACHLOOP_LLM_BASE_URL",
)
CLOSED_URL = "http://127.0.0.1:9"


@pytest.fixture(autouse=True)
def _isolated(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COACHLOOP_HOME", str(tmp_path / "coachloop-home"))
    # Hooks run in-process unless a test switches the warm daemon on itself; a daemon a
    # test does start exits soon after the test instead of lingering for half an hour.
    monkeypatch.setenv("COACHLOOP_HOOK_DAEMON", "0")
    monkeypatch.setenv("COACHLOOP_HOOK_IDLE_TIMEOUT", "60")
    if request.node.get_closest_marker("allow_model_calls"):
        return
    for name in _MODEL_ENV:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("ANTHROPIC_BASE_URL", CLOSED_URL)
    monkeypatch.setenv("OPENAI_BASE_URL", CLOSED_URL)


# --- Store backends (supervisor/store tests) -------------------------------------------
# `store_spec` runs a test once per backend: SQLite in tmp_path, and the real Redis server
# under a unique key prefix deleted afterwards. Tests open stores with `spec.open()` (or
# hand `spec.target`/`spec.prefix` to a subprocess), or take the fixture `store`, one
# opened that way. With no server answering at COACHLOOP_TEST_REDIS_URL (default
# 127.0.0.1:6379/0) the Redis tests FAIL, so a green run always means both backends were
# exercised; COACHLOOP_SKIP_REDIS=1 skips them explicitly.

TEST_REDIS_URL = os.environ.get("COACHLOOP_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")


@dataclass(frozen=True)
class StoreSpec:
    backend: str
    target: str
    prefix: str = "coachloop"

    def open(self) -> Any:
        from coachloop.store import open_store

        return open_store(self.target, prefix=self.prefix)


def _redis_or_skip() -> Any:
    try:
        import redis

        client = redis.Redis.from_url(TEST_REDIS_URL, socket_connect_timeout=1)
        client.ping()
    except Exception as exc:  # any failure means "no usable server"
        message = (
            f"no Redis server at {TEST_REDIS_URL}: {exc} (start one: redis-server --daemonize yes)"
        )
        if os.environ.get("COACHLOOP_SKIP_REDIS") == "1":
            pytest.skip(message)
        pytest.fail(message)
    return client


@pytest.fixture(params=["sqlite", "redis"])
def store_spec(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[StoreSpec]:
    if request.param == "sqlite":
        yield StoreSpec("sqlite", str(tmp_path / "store" / "coachloop.db"))
        return
    client = _redis_or_skip()
    prefix = f"coachloop-test-{uuid.uuid4().hex[:12]}"
    try:
        yield StoreSpec("redis", TEST_REDIS_URL, prefix)
    finally:
        keys = list(client.scan_iter(match=f"{prefix}:*", count=1000))
        if keys:
            client.delete(*keys)
        client.close()


@pytest.fixture
def store(store_spec: StoreSpec) -> Iterator[Store]:
    """A store of each backend `store_spec` gives, open for the test, closed after it."""
    opened: Store = store_spec.open()
    yield opened
    opened.close()


# --- The real Codex CLI and Gemini CLI (npm) -------------------------------------------
# Installed into .cache/npm-agents by .ci/run, or here on first use; a failed install
# FAILS the tests that need them (COACHLOOP_SKIP_AGENT_CLIS=1 skips them explicitly).


@pytest.fixture(scope="session")
def agent_clis() -> dict[str, Path]:
    from agent_clis import AgentCliError, ensure

    if os.environ.get("COACHLOOP_SKIP_AGENT_CLIS") == "1":
        pytest.skip("COACHLOOP_SKIP_AGENT_CLIS=1: the Codex and Gemini CLI tests are skipped")
    try:
        return ensure()
    except AgentCliError as exc:
        pytest.fail(f"the Codex and Gemini CLIs are needed and could not be installed: {exc}")
