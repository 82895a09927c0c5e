"""`coachloop judge`: judge one agent message, or a JSONL batch of them.

Input, exactly one of: the message as an argument; `-` (or no argument with piped
stdin) for stdin; `--file PATH`; `--transcript PATH` (the last stop of a Claude Code
transcript: its last assistant message, judged with the record of its turn, see
`coachloop.record`); `--batch FILE.jsonl` (`-` for stdin). Exit status: 0 when
judged (whatever the verdict), 2 on bad usage or an unreadable input file. A batch
never stops at a bad line: see `coachloop.bench.batch`.

`build_judge` is the one place the CLI commands get their judge from.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, NoReturn, cast

import click

from coachloop.core.judge_input import EVENT_KINDS

if TYPE_CHECKING:
    from coachloop.config import Settings
    from coachloop.core.judge_input import JudgeInput
    from coachloop.core.verdict import Verdict
    from coachloop.judge import Judge

__all__ = ["build_judge", "cli_settings", "fail", "format_verdict", "judge"]

_MAX_ITEMS = 5


def fail(message: str, code: int = 2) -> NoReturn:
    """Print `Error: message` to stderr and exit with `code`."""
    click.echo(f"Error: {message}", err=True)
    sys.exit(code)


def cli_settings(name: str | None = None) -> Settings:
    """The settings for the current directory; `name` overrides `settings.judge`.

    Exits with status 2 and a message when a configuration file is bad.
    """
    from dataclasses import replace

    from coachloop.config import ConfigError, load_settings

    try:
        settings = load_settings(Path.cwd())
    except ConfigError as exc:
        fail(f"bad configuration: {exc}")
    return replace(settings, judge=name) if name else settings


def build_judge(name: str | None = None) -> Judge:
    """The judge of `cli_settings(name)`: what every CLI command judges with.

    Exits with status 2 and a message when the chosen judge cannot be built (an LLM
    SDK not installed, for instance).
    """
    from coachloop.judge import make_judge

    settings = cli_settings(name)
    try:
        return make_judge(settings)
    except ImportError as exc:
        fail(f"the {settings.judge!r} judge is not available: {exc}")
    except ValueError as exc:  # ConfigError included
        fail(f"cannot build the {settings.judge!r} judge: {exc}")


def _stdin() -> BinaryIO:
    """The binary standard input (click's test runner swaps `sys.stdin` too)."""
    stream = getattr(sys.stdin, "buffer", None)
    if stream is None:
        fail("standard input is not available")
    return cast(BinaryIO, stream)


def _read_bytes(path: Path, what: str) -> str:
    try:
        return path.read_bytes().decode("utf-8", errors="replace")
    except OSError as exc:
        fail(f"cannot read {what} {path}: {exc.strerror or exc}")


def _listing(values: tuple[Any, ...]) -> str:
    shown = ", ".join(str(v) for v in values[:_MAX_ITEMS])
    extra = len(values) - _MAX_ITEMS
    return f"{shown} (+{extra} more)" if extra > 0 else shown


def format_verdict(verdict: Verdict) -> str:
    """A short human-readable summary: type, route, confidence, reason, evidence, coaching."""
    ev = verdict.evidence
    found: list[str] = []
    if ev.tests:
        runs = [f"{t.runner} {t.passed} passed, {t.failed} failed" for t in ev.tests]
        found.append(f"tests: {_listing(tuple(runs))}")
    for label, values in (
        ("commits", ev.commits),
        ("pull requests", ev.pull_requests),
        ("paths", ev.paths),
        ("commands", ev.commands),
        ("exit codes", ev.exit_codes),
        ("successes", ev.successes),
        ("failures", ev.failures),
        ("recorded", ev.recorded),
    ):
        if values:
            found.append(f"{label}: {_listing(values)}")
    lines = [
        f"type:       {verdict.type}"
        + (" (rejected completion)" if verdict.rejected_completion else ""),
        f"route:      {verdict.route}",
        f"confidence: {verdict.confidence:.2f} (source: {verdict.source})",
        f"reason:     {verdict.reason}",
        "evidence:   " + ("; ".join(found) if found else "none found"),
    ]
    for problem in verdict.problems:
        quote = f" (“{problem.quote}”)" if problem.quote else ""
        lines.append(f"problem:    {problem.kind}: {problem.detail}{quote}")
    if verdict.coaching_message is not None:
        lines.append("coaching:")
        lines.extend(f"  {line}" for line in verdict.coaching_message.splitlines())
    return "\n".join(lines)


def _run_batch(source: str) -> None:
    """Judge the JSONL at `source` ('-' = stdin), one JSON result per line on stdout."""
    from coachloop.bench.batch import judge_lines

    judge_ = build_judge()
    if source == "-":
        stream = _stdin()
    else:
        try:
            stream = Path(source).open("rb")  # noqa: SIM115 - closed below
        except OSError as exc:
            fail(f"cannot read batch file {source}: {exc.strerror or exc}")
    try:
        for result in judge_lines(stream, judge_):
            click.echo(json.dumps(result))
    finally:
        if source != "-":
            stream.close()


def _message(text: str | None, file: Path | None, transcript: Path | None) -> str:
    sources = sum(x is not None for x in (text, file, transcript))
    if sources > 1:
        raise click.UsageError("give the message one way: TEXT, --file or --transcript")
    if file is not None:
        return _read_bytes(file, "file")
    if transcript is not None:
        from coachloop.record import claude_transcript

        record = claude_transcript(str(transcript))
        if record.usable and record.final_text is not None:
            return record.final_text
        from coachloop.transcript import TranscriptError, last_assistant_text

        try:
            return last_assistant_text(transcript)
        except TranscriptError as exc:
            fail(str(exc))
    if text is None and sys.stdin is not None and sys.stdin.isatty():
        raise click.UsageError(
            "no message: give TEXT, '-' or pipe it on stdin, --file, --transcript or --batch"
        )
    if text is None or text == "-":
        return _stdin().read().decode("utf-8", errors="replace")
    # Arguments that were not valid UTF-8 carry surrogate escapes: make them printable.
    return text.encode("utf-8", errors="surrogateescape").decode("utf-8", errors="replace")


@click.command()
@click.argument("text", required=False)
@click.option(
    "--file", "file", type=click.Path(path_type=Path), help="Read the message from a file."
)
@click.option(
    "--transcript",
    type=click.Path(path_type=Path),
    help="Judge the last stop of a Claude Code transcript (JSONL), checked against its turn.",
)
@click.option(
    "--batch",
    metavar="FILE.jsonl",
    help="Judge one JSON object per line ('-' for stdin); writes one JSON result per line.",
)
@click.option("--prompt", help="The human's message that started the turn.")
@click.option("--skill", help="The workflow skill in play, e.g. /do-build.")
@click.option(
    "--plan",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="The plan document of the work (its success criteria guide the coaching).",
)
@click.option("--phase", help="The workflow phase, e.g. build.")
@click.option(
    "--event",
    type=click.Choice(EVENT_KINDS),
    default="Stop",
    show_default=True,
    help="The hook event that stopped the agent.",
)
@click.option("--json", "json_out", is_flag=True, help="Print the verdict as JSON.")
def judge(  # noqa: PLR0917 - click passes every option as an argument
    text: str | None,
    file: Path | None,
    transcript: Path | None,
    batch: str | None,
    prompt: str | None,
    skill: str | None,
    plan: Path | None,
    phase: str | None,
    event: str,
    json_out: bool,
) -> None:
    """Judge an agent's final message: its type, its route and the coaching if any."""
    from coachloop.core.judge_input import EventKind, JudgeInput

    if batch is not None:
        if text is not None or file is not None or transcript is not None:
            raise click.UsageError("--batch takes its messages from FILE.jsonl only")
        if prompt or skill or plan or phase or event != "Stop":
            raise click.UsageError("with --batch, give prompt/skill/plan/phase/event per line")
        _run_batch(batch)  # always JSON lines
        return
    item: JudgeInput = JudgeInput(
        text=_message(text, file, transcript),
        prompt=prompt,
        skill=skill,
        phase=phase,
        plan_file=str(plan) if plan is not None else None,
        event=cast(EventKind, event),
    )
    if transcript is not None:
        from coachloop.record import for_hook

        item = for_hook(item, "claude-code", str(transcript))
    verdict = build_judge().judge(item)
    if json_out:
        click.echo(json.dumps(verdict.to_dict(), indent=2))
    else:
        from coachloop.cli.render import emit

        emit(format_verdict(verdict).splitlines())
