"""The duel: turns of a fresh player and an evidence-bound coach, until a named outcome.

Before turn 1 the orchestrator copies the project into a workspace it owns
(`<root>/workspace`, see `workdir`), where every player works, and records the
baseline (the test suite as it stands: `baseline`). Turn N: the player works
(requirements, last decision); the orchestrator snapshots the workspace before and
after, reads and validates the report, gathers the evidence (clean test run, the suite
against the baseline, coverage, diff, claims), checks what the player touched outside
the workspace (`reach`), asks the coach, validates its answer, enforces the evidence
(an approval with blocking findings becomes feedback) and writes decision.json. An
approved workspace's changes are applied to the project (unless the project changed
meanwhile under them: `DuelResult.conflicts`). The run ends with an `outcome`:

- approved: the recorded decision is an approval (exit code 0, the only success);
- stalled: the same feedback `stall_turns` (3) turns running;
- max_turns: no approval within `max_turns`;
- error: the player could not start, the coach gave no valid answer, or an internal
  failure; the decision recorded for such a turn is feedback, never an approval.

The run report (`duel.json`) is rewritten after every turn.
"""

from __future__ import annotations

import contextlib
import logging
import re
import shlex
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal

from coachloop.duel import baseline, testcmd, workdir, workspace
from coachloop.duel.baseline import Baseline
from coachloop.duel.coaches import CoachContext, CoachError, CoachReply, DuelCoach
from coachloop.duel.decision import (
    CoachDecision,
    DecisionError,
    enforce,
    invalid_answer,
    parse_answer,
)
from coachloop.duel.evidence import TurnEvidence, gather
from coachloop.duel.files import Coordination, ReportRead, default_root, default_task_id
from coachloop.duel.players import Player, PlayerRun, PlayerUnavailable, TurnInput
from coachloop.duel.reach import Guard
from coachloop.duel.testcmd import TestCommand
from coachloop.duel.tools import CoachTools

__all__ = ["EXIT_CODES", "DuelConfig", "DuelResult", "DuelTurn", "Outcome", "run_duel"]

log = logging.getLogger(__name__)

Outcome = Literal["approved", "max_turns", "stalled", "error"]
EXIT_CODES: dict[str, int] = {"approved": 0, "max_turns": 1, "stalled": 3, "error": 4}


@dataclass(frozen=True, slots=True)
class DuelConfig:
    """One duel's settings; `task_id` and `root` default as in `files`."""

    project: Path
    requirements: Path
    task_id: str | None = None
    root: Path | None = None
    max_turns: int = 5
    test_command: TestCommand | None = None  # None: detected
    test_timeout: float = 300.0
    coverage: bool = True
    stall_turns: int = 3
    baseline: bool = True  # hold each turn to the suite's baseline (off only to measure it)


@dataclass(frozen=True, slots=True)
class DuelTurn:
    """Everything about one turn, for the report."""

    turn: int
    player: PlayerRun
    evidence: TurnEvidence
    decision: CoachDecision
    coach_reply: CoachReply | None
    coach_seconds: float
    seconds: float
    error: str | None = None


@dataclass(slots=True)
class DuelResult:
    """The duel's outcome and its turns."""

    task_id: str
    root: Path
    player: str
    coach: str
    outcome: Outcome = "error"
    reason: str = ""
    turns: list[DuelTurn] = field(default_factory=list)
    started_at: str = field(default_factory=lambda: datetime.now(UTC).isoformat())
    seconds: float = 0.0
    workspace: Path | None = None
    baseline: Baseline | None = None
    applied: tuple[str, ...] = ()  # project paths the approved work changed
    conflicts: tuple[str, ...] = ()  # paths that kept the approved work from being applied

    @property
    def exit_code(self) -> int:
        return EXIT_CODES[self.outcome]


_NOISE = re.compile(r"0x[0-9a-f]+|\bin \d+(?:\.\d+)?\s?s\b|\d+\.\d+s\b", re.I)


def feedback_key(decision: CoachDecision) -> str:
    """What makes two feedback decisions "the same": their items' severities and issues,
    ignoring case, spacing, addresses and durations."""
    parts = sorted(
        f"{i.severity}:{_NOISE.sub('', ' '.join(i.issue.lower().split()))}" for i in decision.items
    )
    return "|".join(parts) or _NOISE.sub("", " ".join(decision.rationale.lower().split()))


def _exclusions(project: Path, root: Path) -> tuple[str, ...]:
    out = [".coachloop"]
    with contextlib.suppress(ValueError):
        out.append(root.resolve().relative_to(project).as_posix())
    return tuple(out)


_IN_WORKSPACE = (".coachloop",)


@dataclass(frozen=True, slots=True)
class _Setup:
    """What every turn of one duel shares."""

    config: DuelConfig
    files: Coordination
    tools: CoachTools
    player: Player
    coach: DuelCoach
    start: workspace.Snapshot
    requirements: Path
    requirements_text: str
    space: workdir.Workspace
    guard: Guard
    baseline: Baseline | None


def _prepare(config: DuelConfig, files: Coordination, player: Player, coach: DuelCoach) -> _Setup:
    project = config.project.resolve()
    requirements = config.requirements.resolve()
    exclude = _exclusions(project, files.root)
    # Detected on the project, before any player: the player cannot choose the runner.
    command = config.test_command or testcmd.detect(project)
    if command is None:  # approval needs the tests to run: no turn could ever be approved
        raise ValueError(
            f"no test command configured or detected in {project}: pass --test-cmd CMD "
            "(with --test-report FILE.xml for runners other than pytest, vitest and jest)"
        )
    try:
        space = workdir.create(project, files.root / "workspace", exclude)
    except (OSError, RuntimeError) as exc:
        raise ValueError(f"cannot create the duel's workspace: {exc}") from exc
    tools = CoachTools(
        space.path,
        test_command=command,
        timeout=config.test_timeout,
        base=space.base,
        exclude=_IN_WORKSPACE,
    )
    start = workspace.take_snapshot(space.path, _IN_WORKSPACE, walk=True)
    base = baseline.record(tools, tuple(start.files)) if config.baseline else None
    if base is not None:
        files.write_json(files.root / "baseline.json", base.to_json())
    guard = Guard(
        project=project,
        workspace_dir=space.path,
        root=files.root,
        requirements=requirements,
        links=space.links,
        exclude=exclude,
    )
    text = requirements.read_text(encoding="utf-8", errors="replace")
    return _Setup(
        config, files, tools, player, coach, start, requirements, text, space, guard, base
    )


def run_duel(
    config: DuelConfig,
    player: Player,
    coach: DuelCoach,
    *,
    on_turn: Callable[[DuelTurn], None] | None = None,
    on_step: Callable[[str], None] | None = None,
) -> DuelResult:
    """Run the duel (see the module docstring). Raises ValueError before the first turn
    for unusable settings (missing requirements, a task id already used, no test
    command). `on_turn` gets each finished turn; `on_step` a line naming what runs now
    (for a progress display). A player that could not run at all ends the duel at once
    with the reason (`cannot_play`)."""
    from coachloop.duel.report import write_report

    project = config.project.resolve()
    requirements = config.requirements.resolve()
    if not requirements.is_file():
        raise ValueError(f"requirements file not found: {config.requirements}")
    if config.max_turns < 1:
        raise ValueError("max_turns must be at least 1")
    task_id = config.task_id or default_task_id(requirements)
    root = (config.root or default_root(project, task_id)).resolve()
    files = Coordination(root, task_id)
    if files.used() or (root / "workspace").exists():
        raise ValueError(f"{root} already holds a duel; use another --task-id or --root")
    result = DuelResult(task_id, root, player.name, coach.name)
    started = time.monotonic()
    setup = _prepare(config, files, player, coach)
    result.workspace, result.baseline = setup.space.path, setup.baseline
    keys: list[str] = []
    try:
        for turn in range(1, config.max_turns + 1):
            record = _turn(setup, turn, on_step or (lambda _: None))
            result.turns.append(record)
            if on_turn is not None:
                on_turn(record)
            if record.error is not None:
                result.outcome, result.reason = "error", record.error
                break
            cannot = cannot_play(record)
            if cannot is not None:  # more turns would fail the same way
                result.outcome, result.reason = "error", cannot
                break
            if record.decision.decision == "approve":
                result.outcome, result.reason = "approved", record.decision.rationale
                now = workspace.take_snapshot(setup.space.path, _IN_WORKSPACE, walk=True)
                applied, conflicts = workdir.apply(setup.space, setup.start, now)
                result.applied, result.conflicts = tuple(applied), tuple(conflicts)
                break
            keys.append(feedback_key(record.decision))
            recent = keys[-config.stall_turns :]
            if len(recent) == config.stall_turns and len(set(recent)) == 1:
                result.outcome = "stalled"
                result.reason = f"the same feedback {config.stall_turns} turns running"
                break
        else:
            result.outcome = "max_turns"
            result.reason = f"no approval within {config.max_turns} turn(s)"
    except PlayerUnavailable as exc:
        result.outcome, result.reason = "error", str(exc)
    except Exception as exc:  # an internal failure ends the duel, never approves
        log.exception("duel failed")
        result.outcome, result.reason = "error", f"internal error: {exc!r}"
    result.seconds = time.monotonic() - started
    write_report(files, result)
    return result


def cannot_play(record: DuelTurn) -> str | None:
    """Why the player could not work at all this turn (it failed to run, e.g. not logged
    in, and left no report and no change), or None when it worked, however badly."""
    run, evidence = record.player, record.evidence
    if run.error is None or evidence.report is not None or evidence.changed_this_turn:
        return None
    return f"the player could not run: {run.error}"


def _tool_args(tools: CoachTools) -> tuple[str, ...]:
    """The coach tools' command-line arguments: the workspace, and the runner chosen
    before turn 1 (not whatever the player's files would now make it)."""
    args: tuple[str, ...] = ("--project", str(tools.project))
    if tools.command is not None:
        args += ("--test-cmd", shlex.join(tools.command.argv))
        if tools.command.report:
            args += ("--test-report", tools.command.report)
    return args


def _turn(setup: _Setup, turn: int, step: Callable[[str], None]) -> DuelTurn:
    began = time.monotonic()
    step(f"turn {turn}: the player ({setup.player.name}) works")
    files, tools = setup.files, setup.tools
    project = tools.project
    files.prepare(turn)
    previous = files.decision_path(turn - 1) if turn > 1 else None
    outside = setup.guard.state()
    before = workspace.take_snapshot(project, _IN_WORKSPACE, walk=True)
    run = setup.player.play(
        TurnInput(
            turn, files.task_id, project, setup.requirements, files.report_path(turn), previous
        )
    )
    after = workspace.take_snapshot(project, _IN_WORKSPACE, walk=True)
    step(f"turn {turn}: running the tests and checking the work")
    read: ReportRead = files.read_report(turn)
    evidence = gather(
        tools,
        turn=turn,
        read=read,
        player=run,
        changed_this_turn=workspace.changed(before, after),
        changed_since_start=workspace.changed(setup.start, after),
        files_now=tuple(sorted(after.files)),
        coverage=setup.config.coverage,
        base=setup.baseline,
        requirements=setup.requirements_text,
        links=setup.space.links,
    )
    reach = setup.guard.check(outside, allowed=[files.report_path(turn)])
    evidence = replace(evidence, reach=tuple(reach))
    context = CoachContext(
        turn,
        setup.config.max_turns,
        files.task_id,
        project,
        setup.requirements_text,
        evidence,
        tool_args=_tool_args(tools),
    )
    coach = setup.coach
    step(f"turn {turn}: the coach ({coach.name}) decides")
    coach_began = time.monotonic()
    reply: CoachReply | None = None
    error: str | None = None
    try:
        reply = coach.decide(context)
        answer = parse_answer(reply.raw)
        decision = enforce(
            answer, evidence.blockers(), task_id=files.task_id, turn=turn, coach=coach.name
        )
    except (CoachError, DecisionError) as exc:
        error = f"coach: {exc}"
        decision = invalid_answer(str(exc), task_id=files.task_id, turn=turn, coach=coach.name)
    coach_seconds = time.monotonic() - coach_began
    files.write_decision(turn, decision.to_json())
    return DuelTurn(
        turn, run, evidence, decision, reply, coach_seconds, time.monotonic() - began, error
    )
