"""`coachloop demo`: an offline showcase judging a few built-in agent stops.

The examples are data (`EXAMPLES`); each is judged by the configured judge and its
verdict and coaching are printed. No network, no key needed with the rules judge.
"""

from __future__ import annotations

from typing import Any

import click

__all__ = ["EXAMPLES", "demo"]

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
def demo() -> None:
    """Judge a few built-in example stops offline and show each verdict and coaching."""
    from coachloop.cli.judge_cmd import build_judge, format_verdict
    from coachloop.judge.input import JudgeInput

    judge = build_judge()
    for number, (title, fields) in enumerate(EXAMPLES, start=1):
        item = JudgeInput(**fields)
        verdict = judge.judge(item)
        click.echo(click.style(f"[{number}/{len(EXAMPLES)}] {title}", bold=True))
        event = "" if item.event == "Stop" else f" ({item.event}: {item.error})"
        shown = item.text.strip() or "(empty message)"
        click.echo(f"agent{event}:")
        click.echo("\n".join(f"  | {line}".rstrip() for line in shown.splitlines()))
        click.echo(format_verdict(verdict))
        click.echo()
