"""Agent turns started from the chat, run in the background.

Polling must never wait for an agent: `Turns.submit` schedules the turn and returns at
once. Turns of one session run one after another (an agent session cannot be resumed
twice at the same time); turns of different sessions run in parallel, in worker threads
(`ChatAgent.run_turn` blocks). `stop(session)` drops the session's queued turns; `cancel`
ends its running turn when the agent offers `cancel` (the headless runner does).
When a turn ends, messages queued for its session that the agent never took start its
next turn, and `on_done(request, outcome, error)` runs on the event loop.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path

from coachloop.chat.agent import ChatAgent, TurnOutcome
from coachloop.redaction import redact
from coachloop.supervisor import Supervisor

log = logging.getLogger("coachloop.chat.turns")


@dataclass(frozen=True, slots=True)
class TurnRequest:
    """One turn to run: `resume` None starts a new session in `project_dir`."""

    chat_id: int
    project_dir: Path
    prompt: str
    resume: str | None
    store: str  # the store key of the session's source
    supervisor: Supervisor  # the bridge's supervisor of that store
    reply_to: int | None = None  # the human's message
    ack: int | None = None  # the bridge's acknowledgement, mapped to the session later


OnDone = Callable[[TurnRequest, TurnOutcome | None, BaseException | None], Awaitable[None]]


class Turns:
    """Background turns with per-session ordering (see the module docstring)."""

    def __init__(self, agent: ChatAgent, on_done: OnDone, *, workers: int = 4) -> None:
        self.agent = agent
        self.on_done = on_done
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="coachloop-turn")
        self._locks: dict[str, asyncio.Lock] = {}
        self._queued: dict[str, set[asyncio.Task[None]]] = {}
        self._running: set[str] = set()
        self._ran: set[str] = set()  # sessions whose turns this bridge ran
        self._tasks: set[asyncio.Task[None]] = set()
        self._new = itertools.count(1)

    def submit(self, request: TurnRequest) -> asyncio.Task[None]:
        """Schedule `request`; returns its task (already running in the background)."""
        key = request.resume or f"new-{next(self._new)}"
        task = asyncio.get_running_loop().create_task(self._run(key, request))
        self._tasks.add(task)
        self._queued.setdefault(key, set()).add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def running(self, session_id: str) -> bool:
        """True while a turn of `session_id` runs."""
        return session_id in self._running

    def busy(self, session_id: str) -> bool | None:
        """Whether a turn of `session_id` runs, as far as this bridge knows: True while
        one runs, False once a turn it ran has ended, None for a session it never ran
        (a terminal session: the store's status tells)."""
        if session_id in self._running:
            return True
        return False if session_id in self._ran else None

    def queued(self, session_id: str) -> int:
        """Turns of `session_id` waiting behind a running one."""
        return len(self._queued.get(session_id, ()))

    def cancel(self, session_id: str) -> bool:
        """End the session's running turn, when the agent can (`ChatAgent` `cancel`)."""
        cancel = getattr(self.agent, "cancel", None)
        if cancel is None or session_id not in self._running:
            return False
        try:
            return bool(cancel(session_id))
        except Exception:
            log.exception("cancelling the turn of %s", session_id)
            return False

    def stop(self, session_id: str) -> int:
        """Cancel the session's queued turns; returns how many were dropped."""
        tasks = self._queued.pop(session_id, set())
        for task in tasks:
            task.cancel()
        return len(tasks)

    async def _run(self, key: str, request: TurnRequest) -> None:
        lock = self._locks.setdefault(key, asyncio.Lock())
        async with lock:
            me = asyncio.current_task()
            queued = self._queued.get(key, set())
            if me is not None:
                queued.discard(me)
            self._running.add(key)
            outcome: TurnOutcome | None = None
            error: BaseException | None = None
            try:
                loop = asyncio.get_running_loop()
                outcome = await loop.run_in_executor(
                    self._pool,
                    self.agent.run_turn,
                    request.project_dir,
                    request.prompt,
                    request.resume,
                    request.supervisor,
                )
            except Exception as exc:
                error = exc
                log.warning("agent turn in %s failed: %s", request.project_dir, redact(str(exc)))
            finally:
                self._running.discard(key)
                self._ran.add(key)
                if outcome is not None and outcome.session_id:
                    self._ran.add(outcome.session_id)
            self._leftovers(request, outcome)
            try:
                await self.on_done(request, outcome, error)
            except Exception:
                log.exception("after the agent turn in %s", request.project_dir)

    def _leftovers(self, request: TurnRequest, outcome: TurnOutcome | None) -> None:
        """Messages queued for the session while its turn ran that the agent never took
        (no hook took them; or they came after its last stop): they start the next turn.
        Runs on the event loop right after the turn is marked ended, so a message either
        was queued before (taken here) or finds the session idle (resumed directly)."""
        sid = outcome.session_id if outcome is not None and outcome.session_id else request.resume
        if sid is None:
            return
        try:
            if request.supervisor.stop_now(sid, "on its own, before the stop") is not None:
                return  # a /stop no hook consumed: the turn is over; nothing more runs
            taken = request.supervisor.steer_mid_turn(sid, "after the turn ended")
        except Exception:
            log.exception("taking the queued messages of %s", sid)
            return
        if taken.text:
            self.submit(replace(request, prompt=taken.text, resume=sid, ack=None))

    async def close(self, timeout: float = 5.0) -> None:
        """Cancel queued turns and wait up to `timeout` seconds for running ones; a turn
        still running then is left to finish in its worker thread."""
        for tasks in self._queued.values():
            for task in tasks:
                task.cancel()
        pending = [t for t in self._tasks if not t.done()]
        if pending:
            await asyncio.wait(pending, timeout=timeout)
        if self._running:
            log.warning(
                "%d agent turn(s) still running; the process exits when they end",
                len(self._running),
            )
        self._pool.shutdown(wait=False, cancel_futures=True)
