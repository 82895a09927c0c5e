"""`coachloop duel REQUIREMENTS.md`: the player/coach loop in the current project.

Exit codes: 0 approved (the only success), 1 max_turns, 3 stalled, 4 error (including
settings that prevent the duel from starting); 2 is click's usage error.
"""

from __future__ import annotations

import json
from pathlib import Path

import click

__all__ = ["duel"]


@click.command()
@click.argument("requirements", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--player",
    default="claude-code",
    show_default=True,
    help="claude-code, or a command line run in the workspace each turn; it gets "
    "COACHLOOP_TURN, COACHLOOP_TASK_ID, COACHLOOP_REQUIREMENTS, COACHLOOP_FEEDBACK (the "
    "last decision.json, if any), COACHLOOP_REPORT (where to write report.json) and "
    "COACHLOOP_REPORT_SCHEMA.",
)
@click.option(
    "--coach",
    default="rules",
    show_default=True,
    help="rules (offline) | claude-code | anthropic[:MODEL] | openai[:MODEL].",
)
@click.option("--max-turns", default=5, show_default=True, type=click.IntRange(1, 100))
@click.option("--task-id", default=None, help="Default: REQUIREMENTS stem + UTC timestamp.")
@click.option(
    "--root",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Coordination root. Default: .coachloop/duel/TASK_ID/ in the project.",
)
@click.option(
    "--project",
    type=click.Path(file_okay=False, exists=True, path_type=Path),
    default=Path("."),
    show_default=True,
    help="The project to change.",
)
@click.option(
    "--test-cmd",
    envvar="COACHLOOP_TEST_COMMAND",
    default=None,
    help="The project's test command (default: detected).",
)
@click.option(
    "--test-report",
    default=None,
    help="The JUnit XML file the --test-cmd writes (relative to the project); needed "
    "for runners other than pytest, vitest and jest, whose results are otherwise unverified.",
)
@click.option("--test-timeout", default=300.0, show_default=True, type=float)
@click.option("--player-timeout", default=1800.0, show_default=True, type=float)
@click.option("--no-coverage", is_flag=True, help="Skip the coverage run.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
def duel(  # noqa: PLR0917 - click passes every option as an argument
    requirements: Path,
    player: str,
    coach: str,
    max_turns: int,
    task_id: str | None,
    root: Path | None,
    project: Path,
    test_cmd: str | None,
    test_report: str | None,
    test_timeout: float,
    player_timeout: float,
    no_coverage: bool,
    as_json: bool,
) -> None:
    """Run a fresh player on REQUIREMENTS each turn until the coach approves its work,
    with approval enforced by tests, diff and the player's claims checked in code.

    The player works in a copy of the project (under the duel's root); the test suite
    as it stood before turn 1 is the contract, and approved work is applied back."""
    from rich.console import Console

    from coachloop.duel import report, testcmd
    from coachloop.duel.coaches import CoachError, make_coach
    from coachloop.duel.orchestrator import EXIT_CODES, DuelConfig, DuelTurn, run_duel
    from coachloop.duel.players import ClaudeCodePlayer, CommandPlayer, Player

    def fail(message: str) -> None:
        if as_json:
            click.echo(json.dumps({"outcome": "error", "reason": message}))
        else:
            click.echo(f"error: {message}", err=True)
        raise SystemExit(EXIT_CODES["error"])

    try:
        chosen_coach = make_coach(coach, project.resolve())
        command = testcmd.from_string(test_cmd, test_report) if test_cmd else None
        chosen_player: Player = (
            ClaudeCodePlayer(timeout=player_timeout)
            if player == "claude-code"
            else CommandPlayer(player, timeout=player_timeout)
        )
    except (CoachError, ValueError) as exc:
        fail(str(exc))
        return
    config = DuelConfig(
        project=project,
        requirements=requirements,
        task_id=task_id,
        root=root,
        max_turns=max_turns,
        test_command=command,
        test_timeout=test_timeout,
        coverage=not no_coverage,
    )
    from coachloop.cli.render import emit, progress

    if player == "claude-code" and not as_json:
        from coachloop.runners.claude_env import ClaudeNotFound, describe_claude, find_claude

        try:
            click.echo(f"player: Claude Code {describe_claude(find_claude())}", err=True)
        except ClaudeNotFound as exc:
            fail(str(exc))

    def on_turn(record: DuelTurn) -> None:
        if as_json:
            return
        d = record.decision
        blocking = [f for f in record.evidence.findings() if f.blocking]
        found = f", {len(blocking)} integrity/reach finding(s)" if blocking else ""
        lines = [
            f"turn {record.turn}: tests {record.evidence.tests.status}{found} -> "
            f"{d.decision} ({d.level}) in {record.seconds:.1f}s"
        ]
        if d.items:  # the coach's first point, as it happens
            lines.append(f"  coach: {d.items[0].issue.splitlines()[0]}")
        elif d.rationale:
            lines.append(f"  coach: {d.rationale.splitlines()[0]}")
        if record.player.error:
            lines.append(f"  player: {record.player.error.splitlines()[0]}")
        emit(lines, err=True)

    try:
        with progress("duel: preparing the workspace and the baseline") as step:
            result = run_duel(config, chosen_player, chosen_coach, on_turn=on_turn, on_step=step)
    except ValueError as exc:
        fail(str(exc))
        return
    if as_json:
        click.echo(json.dumps(report.to_json(result), indent=2))
    else:
        report.render(result, Console())
    raise SystemExit(result.exit_code)
