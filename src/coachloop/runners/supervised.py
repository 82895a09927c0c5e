"""A headless turn judged through the supervisor: `SupervisedRunner.run` -> `JudgedTurn`.

The final result of a turn is a stop of its session like any other, judged and decided
exactly once:

- When our hooks run inside the agent (installed in the project or passed as settings),
  the Stop hook has already judged and decided that very stop (Claude Code runs Stop
  hooks before it reports the result). The runner adopts the decision recorded in the
  store for this session since the turn started (same final text; for a failed turn,
  the StopFailure record) instead of recording the stop twice.
- A turn our PreToolUse hook ended on the human's request (`/stop`: no Stop hook runs,
  the result is empty) is adopted as delivered, with the stop's note.
- Otherwise the runner records the prompt as the human's message (unless `human=False`:
  e.g. a coaching message a loop sends back) and then judges and decides the result
  itself, its claims checked against the turn's record read from the agent's stream
  (`coachloop.record.claude_stream`): a failed turn is a StopFailure, never continued.

A failed model call fires Claude Code's StopFailure hook without waiting for it; when
our UserPromptSubmit hook recorded this turn's prompt (so our hooks are active), the
runner keeps the agent alive up to `hook_grace` seconds until the hook's record lands.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from coachloop.core.events import HumanMessage, StopEvent
from coachloop.runners.turn import Agent, TurnResult

if TYPE_CHECKING:
    from coachloop.core.judge_input import JudgeInput
    from coachloop.core.session import Decision
    from coachloop.core.verdict import Verdict
    from coachloop.judge.base import Judge
    from coachloop.store import EventRecord
    from coachloop.supervisor import Supervisor

__all__ = ["JudgedTurn", "SupervisedRunner"]

DecidedBy = Literal["hook", "runner"]
_POLL = 0.05


@dataclass(frozen=True, slots=True)
class JudgedTurn:
    """A turn with the verdict on its final stop and the supervisor's decision.

    `by` says who decided: our hook inside the agent, or the runner after the turn.
    `event_id` is the stop's record in the session timeline.
    """

    turn: TurnResult
    verdict: Verdict
    decision: Decision
    event_id: int
    by: DecidedBy

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready summary: the turn, the verdict, the decision."""
        from coachloop.store.records import verdict_dict

        return {
            **self.turn.to_dict(),
            "verdict": verdict_dict(self.verdict),
            "decision": self.decision.to_dict(),
            "event_id": self.event_id,
            "decided_by": self.by,
        }


def _verdict(record: EventRecord) -> Verdict:
    from coachloop.judge.schema import VERDICT_ADAPTER

    return VERDICT_ADAPTER.validate_python(record.verdict)


def _decision(record: EventRecord) -> Decision:
    from coachloop.core.session import Decision

    kind = record.decision or ("deliver" if record.kind == "status" else "drop")
    text = record.why if record.kind == "status" else record.message
    return Decision(kind, "" if kind == "drop" else text, record.why, record.notices)  # type: ignore[arg-type]


def _with_record(item: JudgeInput, turn: TurnResult, prompt: str | None) -> JudgeInput:
    """`item` with the record of `turn` read from its stream (Claude Code's stream-json,
    the SDK's messages); unchanged when the stream holds no assistant message."""
    from coachloop.record import attach, claude_stream

    if turn.is_error or not any(e.get("type") == "assistant" for e in turn.events):
        return item
    return attach(item, claude_stream(turn.events, prompt=prompt))


def _stopped(record: EventRecord) -> Verdict:
    """The verdict shown for a turn our hook ended on the human's request (`/stop`)."""
    from coachloop.core.verdict import Verdict

    return Verdict("blocker", 1.0, record.why, "signal")


def _is_error(record: EventRecord) -> bool:
    return record.verdict_type == "error"


class SupervisedRunner:
    """Runs turns of `agent` (working in `project`) and judges each through the supervisor.

    The project is resolved as our hooks resolve it (the enclosing git work tree, see
    `coachloop.config.project.project_root`), so the runner and the hooks share one
    store. `supervisor` defaults to `Supervisor.open(project)` and `judge` to the
    project's configured judge. `agent_name` is the name sessions are recorded under.
    """

    def __init__(
        self,
        agent: Agent,
        project: Path | str,
        *,
        supervisor: Supervisor | None = None,
        judge: Judge | None = None,
        agent_name: str = "claude-code",
        hook_grace: float = 5.0,
    ) -> None:
        from coachloop.config.project import project_root

        self.agent = agent
        self.workdir = Path(project).resolve()
        # the project our hooks resolve for this directory (None: the user's store)
        self.project = project_root(str(self.workdir))
        self.project_name = str(self.project or self.workdir)
        self._supervisor = supervisor
        self._judge = judge
        self.agent_name = agent_name
        self.hook_grace = hook_grace

    @property
    def supervisor(self) -> Supervisor:
        if self._supervisor is None:
            from coachloop.supervisor import Supervisor

            self._supervisor = Supervisor.open(self.project)
        return self._supervisor

    @property
    def judge(self) -> Judge:
        if self._judge is None:
            from coachloop.config import load_settings
            from coachloop.judge import make_judge

            self._judge = make_judge(load_settings(self.project))
        return self._judge

    def run(self, prompt: str, *, resume: str | None = None, human: bool = True) -> JudgedTurn:
        """Run one turn and judge its final stop (see the module docstring)."""
        since = time.time()

        def after_result(turn: TurnResult) -> None:
            if turn.is_error:
                self._await_hook(turn, since)

        turn = self.agent.run_turn(prompt, resume=resume, after_result=after_result)
        return self.decide(turn, since=since, prompt=prompt if human else None)

    def decide(self, turn: TurnResult, *, since: float, prompt: str | None = None) -> JudgedTurn:
        """The decision on `turn`'s final stop: the one our hook recorded since `since`,
        else judged and recorded now (after recording `prompt` as the human's message
        when our hooks did not)."""
        records = self._records(turn.session_id, since)
        adopted = self._adopt(turn, records)
        if adopted is not None:
            return adopted
        sup = self.supervisor
        if prompt is not None and not any(r.kind == "human" for r in records):
            sup.on_human(
                HumanMessage(
                    turn.session_id, prompt, project=self.project_name, agent=self.agent_name
                )
            )
        from coachloop.redaction import redact

        event = StopEvent(
            turn.session_id,
            text=redact(turn.result),  # the judge (maybe a remote model) never sees secrets
            agent=self.agent_name,
            project=self.project_name,
            cwd=str(self.workdir),
            kind="StopFailure" if turn.is_error else "Stop",
            job_id=turn.uuid,
            error=turn.error,
        )
        item = _with_record(sup.context(event), turn, prompt)
        verdict = self.judge.judge(item)
        result = sup.on_stop(event, verdict, item.record)
        return JudgedTurn(turn, verdict, result.decision, result.event_id, "runner")

    # -- the hook's record ------------------------------------------------------------
    def _records(self, session_id: str, since: float) -> list[EventRecord]:
        from coachloop.store import UnknownSession

        try:
            timeline = self.supervisor.reads.timeline(session_id)
        except UnknownSession:
            return []
        return [r for r in timeline if r.ts >= since]

    def _adopt(self, turn: TurnResult, records: list[EventRecord]) -> JudgedTurn | None:
        from coachloop.redaction import redact
        from coachloop.supervisor.stopping import STOPPED

        final = redact(turn.result).strip()  # the hook stored the stop redacted
        for record in reversed(records):
            if record.kind == "status" and record.source == STOPPED and not final:
                return JudgedTurn(turn, _stopped(record), _decision(record), record.id, "hook")
            if record.kind != "stop" or record.verdict is None:
                continue
            if _is_error(record) if turn.is_error else record.text.strip() == final:
                return JudgedTurn(turn, _verdict(record), _decision(record), record.id, "hook")
        return None

    def _await_hook(self, turn: TurnResult, since: float) -> None:
        """Wait (bounded) for our StopFailure hook's record when our hooks are active."""
        deadline = time.monotonic() + self.hook_grace
        while time.monotonic() < deadline:
            records = self._records(turn.session_id, since)
            if not any(r.kind == "human" for r in records):
                return  # our UserPromptSubmit hook did not run: nothing to wait for
            if any(r.kind == "stop" and _is_error(r) for r in records):
                return
            time.sleep(_POLL)
