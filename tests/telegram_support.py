"""Helpers for the Telegram bridge tests: deliveries in a real store, a bridge running in
a thread with its own event loop, and a recording agent standing in for the headless
runner (the end-to-end test uses the real runner and Claude Code).

The fixtures `api` (the local Bot API server), `project` and `sup` (a supervisor on
it) are defined here as `*_fixture`; a test module imports those names to use them.
"""

from __future__ import annotations

import asyncio
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from coachloop.chat.agent import Outcome
from coachloop.chat.config import BridgeConfig
from coachloop.chat.security import Secret
from coachloop.chat.telegram import Bridge
from coachloop.core.events import StopEvent
from coachloop.core.verdict import Verdict
from coachloop.supervisor import StopResult, Supervisor
from coachloop.testing.telegram_api import TelegramBotAPI

CHAT = 42  # the chat the tests talk in
ASK = Verdict(type="question", confidence=1.0, reason="asks the human", source="rules")
WORKING = Verdict(
    type="status",
    confidence=1.0,
    reason="progress",
    source="rules",
    route="continue",
    coaching_message="keep going",
)


@pytest.fixture(name="api")
def api_fixture() -> Iterator[TelegramBotAPI]:
    """The local Bot API server, running."""
    with TelegramBotAPI() as server:
        yield server


@pytest.fixture(name="project")
def project_fixture(tmp_path: Path) -> Path:
    """An empty project directory, `tmp_path/shop`."""
    path = tmp_path / "shop"
    path.mkdir()
    return path


@pytest.fixture(name="sup")
def sup_fixture(project: Path) -> Iterator[Supervisor]:
    """A supervisor on `project`'s store, closed afterwards."""
    supervisor = Supervisor.open(project)
    yield supervisor
    supervisor.close()


def stop(
    sup: Supervisor, session_id: str, text: str, project: Path, verdict: Verdict = ASK
) -> StopResult:
    """Record one judged stop of `session_id` in `project` (a delivery by default)."""
    event = StopEvent(
        session_id, text, project=str(project), cwd=str(project), job_id=uuid.uuid4().hex
    )
    return sup.on_stop(event, verdict)


def config(api: TelegramBotAPI, chats: dict[int, Path], **kw: Any) -> BridgeConfig:
    """A bridge configuration for the local server: fast intervals, chats allowed."""
    values: dict[str, Any] = {
        "token": Secret(api.token),
        "allowed": frozenset(chats),
        "api_url": api.base_url,
        "chats": chats,
        "min_interval": 0.05,
        "poll_timeout": 1.0,
        "outbox_interval": 0.05,
    }
    values.update(kw)
    return BridgeConfig(**values)


@dataclass
class RecordingAgent:
    """Records each turn; a new session gets the id "new-<n>". `gate`, when given, holds
    every turn until it is set."""

    calls: list[tuple[Path, str, str | None]] = field(default_factory=list)
    gate: threading.Event | None = None
    fail: bool = False

    def run_turn(
        self, project_dir: Path, prompt: str, resume: str | None, supervisor: Supervisor
    ) -> Outcome:
        self.calls.append((project_dir, prompt, resume))
        if self.gate is not None:
            self.gate.wait(10)
        if self.fail:
            raise RuntimeError("the agent binary is missing")
        return Outcome(resume or f"new-{len(self.calls)}")


class Running:
    """A bridge served in a background thread until `stop()`."""

    def __init__(self, bridge: Bridge) -> None:
        self.bridge = bridge
        self.error: BaseException | None = None
        self._ready = threading.Event()
        self._loop = asyncio.new_event_loop()
        self._stop: asyncio.Event | None = None
        self._thread = threading.Thread(target=self._main, daemon=True)

    def _main(self) -> None:
        async def serve() -> None:
            self._stop = asyncio.Event()
            await self.bridge.run(self._stop, ready=lambda _: self._ready.set())

        try:
            self._loop.run_until_complete(serve())
        except BaseException as exc:
            self.error = exc
        finally:
            self._ready.set()
            self._loop.close()

    def start(self) -> Running:
        self._thread.start()
        assert self._ready.wait(15), "the bridge did not start"
        if self.error is not None:
            raise self.error
        return self

    def stop(self) -> None:
        if self._thread.is_alive() and self._stop is not None:
            self._loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(15)
        assert not self._thread.is_alive(), "the bridge did not stop"
        if self.error is not None:
            raise self.error

    def __enter__(self) -> Running:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def pending(sup: Supervisor) -> int:
    return len(sup.reads.outbox_pending(1000))


def wait(predicate: Any, timeout: float = 10.0) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.02)
    return bool(predicate())
