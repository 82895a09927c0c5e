"""Terminal output that reads well at any width, and plainly when piped.

- `emit(lines)`: labelled lines ("  agent    text", "    coaching: text") printed so
  that a long or multi-line value wraps under its own column (hanging indentation),
  never mid-word unless a word is wider than the line. On a terminal the lines are
  wrapped to its width and routes and verdict types are coloured; piped, nothing is
  wrapped or coloured (one whole line per line, for grep and files), but the
  continuation lines of a multi-line value keep their indentation.
- `sessions_table(rows)`: the `sessions` table, fitting 80 columns (short ids, the
  project's path shortened from the left), statuses and verdicts coloured.
- `progress(label)`: a spinner with the elapsed time on stderr while a slow step runs
  (only on a terminal; nothing at all when stderr is piped).
- `STATUS_STYLE`, `VERDICT_STYLE`, `ROUTE_STYLE`: one palette for every command.
"""

from __future__ import annotations

import re
import shutil
import sys
import textwrap
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import click

if TYPE_CHECKING:
    from rich.table import Table

__all__ = [
    "ROUTE_STYLE",
    "STATUS_STYLE",
    "VERDICT_STYLE",
    "emit",
    "progress",
    "sessions_table",
    "wrap",
]

ROUTE_STYLE = {"deliver": "green", "continue": "yellow", "drop": "bright_black"}
VERDICT_STYLE = {
    "question": "yellow",
    "status": "cyan",
    "completion": "green",
    "blocker": "magenta",
    "error": "red",
}
STATUS_STYLE = {  # core.session.SessionStatus
    "running": "cyan",
    "waiting": "yellow",
    "done": "green",
    "failed": "red",
    "abandoned": "bright_black",
}
_LABEL = re.compile(r"^( *)((?:[\w .-]{1,24}:|\||\w[\w-]{0,11}(?= {2,}))) *")
_ROUTE = re.compile(r"-> (deliver|continue|drop)\b")
_VERDICT = re.compile(
    r"\b(question|status|completion|blocker|error)\b(?= \()|(?<=^type: {7})(\w+)\b"
)
_ROUTE_FIELD = re.compile(r"(?<=^route: {6})(deliver|continue)\b")


# the console of the progress display on screen, if any: lines printed meanwhile go
# through it, above the spinner, instead of over it
_LIVE: list[Any] = []


def _terminal(err: bool = False) -> bool:
    return (sys.stderr if err else sys.stdout).isatty()


def wrap(line: str, width: int | None) -> list[str]:
    """`line` (which may hold newlines) as output lines: continuation lines keep the
    column of the value after a leading label; with `width`, each is wrapped there."""
    first, *rest = line.split("\n")
    found = _LABEL.match(first)
    if found:
        depth = found.end()
    elif first.startswith("#"):  # a timeline entry's head: its details hang under it
        depth = 4
    else:
        depth = len(first) - len(first.lstrip())
    indent = " " * depth
    pieces = [first, *(indent + piece for piece in rest)]
    if width is None or width < 30:
        return pieces
    if found and found.group(2) == "|":  # quoted output: one line per line, cut
        return [p if len(p) <= width else p[: width - 1] + "…" for p in pieces]
    out: list[str] = []
    for piece in pieces:
        body = piece.lstrip(" ")
        lead = piece[: len(piece) - len(body)]
        out.extend(
            textwrap.wrap(
                body,
                width=width,
                initial_indent=lead,
                subsequent_indent=max(indent, lead, key=len),
                break_on_hyphens=False,
                replace_whitespace=False,
            )
            or [""]
        )
    return out


def _colour(line: str) -> str:
    line = _ROUTE.sub(lambda m: "-> " + click.style(m.group(1), fg=ROUTE_STYLE[m.group(1)]), line)
    line = _ROUTE_FIELD.sub(lambda m: click.style(m.group(1), fg=ROUTE_STYLE[m.group(1)]), line)

    def verdict(m: re.Match[str]) -> str:
        word = m.group(1) or m.group(2)
        style = VERDICT_STYLE.get(word)
        return click.style(word, fg=style) if style else word

    return _VERDICT.sub(verdict, line)


def emit(lines: Iterable[str], *, err: bool = False) -> None:
    """Print `lines` (see the module docstring): wrapped and coloured on a terminal."""
    tty = _terminal(err)
    width = shutil.get_terminal_size().columns - 1 if tty else None
    for line in lines:
        for piece in wrap(line, width):
            if tty and _LIVE:
                from rich.text import Text

                _LIVE[-1].print(Text.from_ansi(_colour(piece)), soft_wrap=True)
            else:
                click.echo(_colour(piece) if tty else piece, err=err)


def _project(path: str, width: int = 18) -> str:
    """`path` within `width` characters, keeping its end (the project's own name)."""
    from pathlib import Path

    home = str(Path.home())
    if path == home or path.startswith(home + "/"):
        path = "~" + path[len(home) :]
    if len(path) <= width:
        return path
    for keep in (2, 1):
        tail = "/".join(path.split("/")[-keep:])
        if len(tail) + 2 <= width:
            return "…/" + tail
    return "…" + path[-(width - 1) :]


def sessions_table(rows: Sequence[dict[str, Any]], age: Any) -> Table:
    """The `sessions` table for `rows` (see `sessions_cmd._row`); `age(seconds)` formats
    the age columns. Ids are shown in their short form, which every command accepts."""
    from rich import box
    from rich.table import Table
    from rich.text import Text

    from coachloop.cli.ids import short

    table = Table(
        title=f"coachloop sessions ({len(rows)})",
        box=box.SIMPLE_HEAD,
        padding=(0, 1, 0, 0),  # with the box's space: two spaces between columns
        pad_edge=False,
        show_edge=False,
        title_justify="left",
    )
    table.add_column("session", no_wrap=True, min_width=8)
    table.add_column("agent", no_wrap=True, min_width=6)
    table.add_column("project", no_wrap=True, overflow="ellipsis")
    table.add_column("status", no_wrap=True, max_width=16, overflow="ellipsis")
    table.add_column("cont", justify="right", no_wrap=True)
    table.add_column("verdict", no_wrap=True)
    table.add_column("age", justify="right", no_wrap=True)
    table.add_column("idle", justify="right", no_wrap=True)
    for r in rows:
        status = r["status"] + (f" [{','.join(r['flags'])}]" if r["flags"] else "")
        verdict = r["last_verdict"] or "-"
        table.add_row(
            short(r["session"]),
            r["agent"] or "-",
            _project(r["project"] or "-"),
            Text(status, style=STATUS_STYLE.get(r["status"], "")),
            f"{r['continues']}/{r['cap']}",
            Text(verdict, style=VERDICT_STYLE.get(verdict, "")),
            age(r["age_seconds"]),
            age(r["idle_seconds"]),
        )
    return table


@contextmanager
def progress(label: str) -> Iterator[Callable[[str], None]]:
    """A spinner, `label` and the elapsed time on stderr while the block runs; yields
    a function that changes the label. Transient: it leaves nothing on the screen."""
    from rich.console import Console

    console = Console(stderr=True)
    if not console.is_terminal:
        yield lambda _text: None
        return
    from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    columns = (SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn())
    with Progress(*columns, console=console, transient=True) as bar:
        task = bar.add_task(label, total=None)
        _LIVE.append(console)
        try:
            yield lambda text: bar.update(task, description=text)
        finally:
            _LIVE.remove(console)
