"""`coachloop demo`: the main job, live: a real Claude Code session supervised by coachloop.

It sets up a throw-away project in a temporary directory, starts the package's scripted
model, and runs the REAL Claude Code (the binary bundled in the `claude-agent-sdk`
wheel) with our hooks: the agent fixes a bug, claims "It should work now" without
running anything, is sent back with specific coaching, runs the tests, and its
evidenced completion is delivered. The session and its timeline are printed. No
network and no API key (`coachloop.demo` has the project and the script).

`coachloop demo --offline` instead judges a few built-in example stops (`EXAMPLES`)
without starting any agent. Exit status: 0 when the session went as described, 1 when
it did not (the output says what differed), 2 when Claude Code cannot be found.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

if TYPE_CHECKING:
    from collections.abc import Mapping

    from coachloop.demo import DemoRun

__all__ = ["EXAMPLES", "demo", "narrate"]

# title -> JudgeInput fields
EXAMPLES: tuple[tuple[str, dict[str, Any]], ...] = (
    (
        "A hedged 'done'",
        {
            "text": "Done! I refactored the retry logic in `client/http.py`. "
            "It should work now, I think the flaky test is fixed.",
            "prompt": "Fix the flaky retry test.",
        },
    ),
    (
        "An evidenced completion",
        {
            "text": "Fixed the off-by-one in `paginate()` and added a regression test.\n\n"
            "```\n$ pytest -q\n........................                [100%]\n"
            '24 passed in 0.84s\n```\n\nCommit `3f9c2ab`: "paginate: include the last page".',
            "prompt": "The last page of results is missing, please fix it.",
            "skill": "/do-build",
        },
    ),
    (
        "A question",
        {
            "text": "The spec says to delete inactive accounts after 30 days, but the "
            "privacy policy says 90. Which one should I implement?",
        },
    ),
    (
        "A blocker",
        {
            "text": "I can't run the deploy: `fly deploy` fails with `Error: no access token "
            "available. Please login with 'flyctl auth login'`. I need you to log in or "
            "set FLY_API_TOKEN.",
        },
    ),
    (
        "A failed model call (StopFailure)",
        {
            "text": "",
            "event": "StopFailure",
            "error": "overloaded_error: Overloaded",
        },
    ),
    (
        "Plain progress",
        {
            "text": "Read through the auth module and mapped the token flow. "
            "Next I'll write the refresh handler and its tests.",
        },
    ),
)


@click.command()
@click.option("--offline", is_flag=True, help="Judge built-in example stops; start no agent.")
@click.option("--keep", is_flag=True, help="Keep the throw-away project and its store.")
@click.option(
    "--timeout",
    type=click.FloatRange(min=5),
    default=120.0,
    show_default=True,
    help="Seconds the Claude Code session may take.",
)
def demo(offline: bool, keep: bool, timeout: float) -> None:
    """A real Claude Code session on a scripted model, coached by coachloop (no API key)."""
    if offline:
        _offline()
        return
    from coachloop.runners.claude_env import ClaudeNotFound, find_claude

    try:
        claude = find_claude()
    except ClaudeNotFound as exc:
        click.echo(f"Error: {exc}", err=True)
        click.echo("`coachloop demo --offline` judges example stops without it.", err=True)
        sys.exit(2)
    workdir = Path(tempfile.mkdtemp(prefix="coachloop-demo-"))
    try:
        ok = _live(workdir, claude, timeout, keep)
    finally:
        if not keep:
            import shutil

            shutil.rmtree(workdir, ignore_errors=True)
    sys.exit(0 if ok else 1)


def _live(workdir: Path, claude: Path, timeout: float, keep: bool) -> bool:
    from coachloop.cli.render import emit, progress
    from coachloop.demo import PROMPT, run_demo
    from coachloop.runners.claude_env import describe_claude
    from coachloop.runners.turn import TurnError

    say = click.echo
    say(
        click.style(
            "coachloop demo: a real Claude Code session, supervised at every stop", bold=True
        )
    )
    emit(
        [
            f"  claude     {describe_claude(claude)}",
            "  model      coachloop.testing.ScriptedModel (local, scripted; no network, no key)",
            f"  project    {workdir / 'project'} (calc.py: add() subtracts; test_calc.py)",
            "  hooks      .claude/settings.json -> coachloop hook claude-code",
            f"  prompt     {PROMPT}",
            "",
        ]
    )
    try:
        with progress("Claude Code is working, supervised by coachloop's hooks"):
            run = run_demo(workdir, timeout=timeout)
    except TurnError as exc:
        say(f"Error: the Claude Code session failed: {exc}", err=True)
        return False
    say(click.style("The session", bold=True))
    emit(narrate(run.judged.turn.events))
    say("")
    say(click.style("The timeline (coachloop show)", bold=True))
    _show(run)
    ok = _check(run)
    if keep:
        say(
            f"\nKept {workdir}; the timeline again: coachloop show "
            f"{run.judged.turn.session_id} --store {run.store}"
        )
    return ok


def _show(run: DemoRun) -> None:
    from coachloop.cli.sessions_cmd import show

    ctx = click.get_current_context()
    ctx.invoke(
        show,
        session_id=run.judged.turn.session_id,
        project=None,
        target=str(run.store),
        as_json=False,
        full=False,
        limit=None,
    )


def _check(run: DemoRun) -> bool:
    """Say whether the session went as the demo describes, and what differed."""
    from coachloop.runners.turn import request_feedback

    turn, decision = run.judged.turn, run.judged.decision
    carried = [i for i, body in enumerate(run.requests, 1) if request_feedback(body)]
    problems = []
    if len(turn.hook_blocks) != 1:
        problems.append(f"expected one coaching, got {len(turn.hook_blocks)}")
    if decision.kind != "deliver" or run.judged.verdict.type != "completion":
        problems.append(f"the final stop was {decision.kind} ({run.judged.verdict.type})")
    from coachloop.cli.render import emit

    say = click.echo
    outbox = _outbox(run)
    lines = ["", f"The outbox (what a chat bridge sends the human) holds {len(outbox)} message(s):"]
    lines += [f"  [{e.kind}] {_clip(e.text, 160).splitlines()[0]} …" for e in outbox]
    if carried:
        lines.append(
            f"The coaching reached the model: model request {carried[0]} of "
            f'{len(run.requests)} carried it (as "Stop hook feedback").'
        )
    if not problems:
        lines.append(
            "The hedge was sent back with specific coaching, the agent ran the tests, "
            "and its evidenced completion was delivered."
        )
    emit(lines)
    for problem in problems:
        say(click.style(f"Unexpected: {problem}.", fg="red"), err=True)
    return not problems


def _outbox(run: DemoRun) -> list[Any]:
    from coachloop.store import open_store

    store = open_store(str(run.store))
    try:
        return [e for e in store.outbox_pending(100) if e.session_id == run.judged.turn.session_id]
    finally:
        store.close()


def _clip(text: str, limit: int = 400) -> str:
    text = text.strip()
    return text if len(text) <= limit else text[:limit].rstrip() + " …"


def _indent(label: str, text: str) -> list[str]:
    lines = _clip(text).splitlines() or [""]
    return [f"  {label:<9}{lines[0]}", *(f"  {'':<9}{line}" for line in lines[1:])]


def narrate(events: tuple[Mapping[str, Any], ...]) -> list[str]:
    """The session as lines: what the agent said and ran, what came back, the coaching."""
    from coachloop.runners.turn import hook_feedback

    out: list[str] = []
    for event in events:
        message = event.get("message")
        content = message.get("content") if isinstance(message, dict) else None
        if event.get("type") == "user":
            for reason in hook_feedback([event]):
                out += _indent("coached", reason)
        blocks = content if isinstance(content, list) else []
        for block in blocks:
            if not isinstance(block, dict):
                continue
            kind = block.get("type")
            if event.get("type") == "assistant" and kind == "text":
                out += _indent("agent", str(block.get("text", "")))
            elif kind == "tool_use":
                args = block.get("input") or {}
                shown = args.get("command") or args.get("file_path") or args
                out += _indent("runs", f"{block.get('name')}: {shown}")
            elif kind == "tool_result":
                inner = block.get("content")
                if isinstance(inner, list):
                    inner = "".join(b.get("text", "") for b in inner if isinstance(b, dict))
                out += [f"  {'':<9}| {line}" for line in _clip(str(inner), 600).splitlines()]
    return out


def _offline() -> None:
    """Judge the built-in example stops offline and show each verdict and coaching."""
    from coachloop.cli.judge_cmd import build_judge, format_verdict
    from coachloop.cli.render import emit
    from coachloop.core.judge_input import JudgeInput

    judge = build_judge()
    for number, (title, fields) in enumerate(EXAMPLES, start=1):
        item = JudgeInput(**fields)
        verdict = judge.judge(item)
        click.echo(click.style(f"[{number}/{len(EXAMPLES)}] {title}", bold=True))
        event = "" if item.event == "Stop" else f" ({item.event}: {item.error})"
        shown = item.text.strip() or "(empty message)"
        click.echo(f"agent{event}:")
        click.echo("\n".join(f"  | {line}".rstrip() for line in shown.splitlines()))
        emit(format_verdict(verdict).splitlines())
        click.echo()
