"""`coachloop run [--resume ID] [--json] PROMPT`: one supervised Claude Code turn, here.

Runs one headless Claude Code turn in the current directory (or `--dir`), through the
CLI (default) or the Claude Agent SDK (`--sdk`), with the environment as it is (the
user's own Claude Code login or API key). The turn's final message is judged through
the same pipeline as every stop: when our hooks are installed they have decided it
already and that decision is shown; otherwise the runner judges and records it.

Prints the session id (pass it to `--resume` for the next turn), the result, the cost,
the verdict and the decision; `--json` prints one JSON object instead. Exit status: 0
when the turn ended normally, 1 when it ended in an error (e.g. a failed model call),
2 when it could not run (no Claude Code binary, the agent crashed or timed out).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    from coachloop.runners.supervised import JudgedTurn

__all__ = ["format_judged", "run"]


def format_judged(judged: JudgedTurn) -> str:
    """The human-readable report of one judged turn."""
    turn, verdict, decision = judged.turn, judged.verdict, judged.decision
    cost = "unknown" if turn.cost_usd is None else f"${turn.cost_usd:.4f}"
    lines = [
        f"session   {turn.session_id}",
        f"cost      {cost} ({turn.num_turns} model turns, {turn.duration_ms / 1000:.1f} s)",
    ]
    for reason in turn.hook_blocks:
        lines.append("coached   " + reason.replace("\n", "\n          "))
    status = "error: " + (turn.error or "") if turn.is_error else "ok"
    lines.append(f"result    ({status})")
    lines += [f"  | {line}".rstrip() for line in (turn.result.strip() or "(empty)").splitlines()]
    lines.append(
        f"verdict   {verdict.type} ({verdict.confidence:.2f}, {verdict.source}): {verdict.reason}"
    )
    lines.append(f"decision  {decision.kind} (by the {judged.by}): {decision.why}")
    if decision.kind == "continue":
        lines.append("next      " + decision.text.replace("\n", "\n          "))
    return "\n".join(lines)


def _full_id(given: str, directory: Path) -> str:
    """`given` completed from its short form when the store knows one session starting
    with it; else `given` unchanged (Claude Code also resumes by session title)."""
    from coachloop.cli.ids import resolve
    from coachloop.store import open_store

    if len(given) >= 36:
        return given
    try:
        store = open_store(project=directory)
    except Exception:  # no usable store: let Claude Code decide
        return given
    try:
        return resolve(given, (s.session_id for s in store.list_sessions()))
    except LookupError:
        return given
    finally:
        store.close()


@click.command("run")
@click.argument("prompt", nargs=-1, required=True)
@click.option("--resume", metavar="SESSION_ID", default=None, help="Continue this session.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--sdk", is_flag=True, help="Run through the Claude Agent SDK, not the CLI.")
@click.option(
    "--dir",
    "directory",
    type=click.Path(file_okay=False, exists=True, path_type=Path),
    default=Path("."),
    help="The project directory (default: the current one).",
)
@click.option(
    "--allow",
    "allowed",
    multiple=True,
    metavar="TOOL",
    help="A tool allowed without a prompt (repeatable; default: Bash Edit Write Read).",
)
@click.option(
    "--timeout",
    type=click.FloatRange(min=1),
    default=600.0,
    show_default=True,
    help="Seconds the whole turn may take.",
)
def run(
    *,
    prompt: tuple[str, ...],
    resume: str | None,
    as_json: bool,
    sdk: bool,
    directory: Path,
    allowed: tuple[str, ...],
    timeout: float,
) -> None:
    """Run one Claude Code turn on PROMPT ("-": read it from stdin) and judge its result."""
    from coachloop.runners.claude_cli import ClaudeCode
    from coachloop.runners.claude_env import ClaudeNotFound
    from coachloop.runners.sdk import ClaudeAgentSDK
    from coachloop.runners.supervised import SupervisedRunner
    from coachloop.runners.turn import Agent, TurnError

    text = sys.stdin.read() if prompt == ("-",) else " ".join(prompt)
    if not text.strip():
        raise click.UsageError("the prompt is empty")
    tools = list(allowed) or None
    if resume is not None:
        resume = _full_id(resume, directory.resolve())
    from coachloop.runners.claude_env import describe_claude, find_claude

    kind = ClaudeAgentSDK if sdk else ClaudeCode
    try:
        claude = find_claude()
    except ClaudeNotFound as exc:
        click.echo(f"Error: {exc}", err=True)
        sys.exit(2)
    click.echo(f"Claude Code {describe_claude(claude)}", err=True)
    agent: Agent = kind(directory, allowed_tools=tools, timeout=timeout, claude=claude)
    try:
        from coachloop.cli.render import progress

        how = "the Claude Agent SDK" if sdk else "Claude Code"
        with progress(f"{how} is working on the prompt in {directory.resolve()}"):
            judged = SupervisedRunner(agent, directory).run(text, resume=resume)
    except (ClaudeNotFound, TurnError) as exc:
        click.echo(f"Error: {exc}", err=True)
        sys.exit(2)
    turn = judged.turn
    if resume is not None and turn.is_error and "--resume" in f"{turn.result} {turn.error}":
        click.echo(
            f"Error: Claude Code has no session {resume!r} to resume in {directory.resolve()}: "
            "use a session id printed by `coachloop run` (or listed by `coachloop sessions`)",
            err=True,
        )
        sys.exit(2)
    if as_json:
        click.echo(json.dumps(judged.to_dict(), indent=2, ensure_ascii=False))
    else:
        from coachloop.cli.render import emit

        emit(format_judged(judged).splitlines())
    sys.exit(1 if judged.turn.is_error else 0)
