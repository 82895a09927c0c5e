"""`coachloop bench`: measure a judge on labelled benchmark files.

Without FILES it runs dev.jsonl, real.jsonl and peer_valor.jsonl from the benchmark
directory (`$COACHLOOP_BENCH_DIR`, else a `shared/bench` beside the project; see
`coachloop.bench.data.find_bench_dir`). Prints a metrics table and each file's
confusion matrix, or with `--json` one JSON document:
`{"judge": NAME, "files": [{"path": ..., **FileReport.to_dict()}, ...]}`. Exit 2 on unusable data.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import click

from coachloop.cli.judge_cmd import fail

if TYPE_CHECKING:
    from rich.console import Console

    from coachloop.bench.runner import FileReport

__all__ = ["bench"]

_COLUMNS = (
    ("n", "n", "d"),
    ("route acc", "route_accuracy", "share"),
    ("false supp", "false_suppression", "share"),
    ("rej recall", "rejection_recall", "share"),
    ("status rec", "status_recall", "share"),
    ("type F1", "type_macro_f1", "share"),
    ("agreement", "agreement", "share"),
    ("p50 ms", "latency_p50_ms", "ms"),
    ("p99 ms", "latency_p99_ms", "ms"),
)


def cell(value: object, kind: str) -> str:
    """A metric as a table shows it: shares to 3 places, milliseconds to 2, None as "-"."""
    if value is None:
        return "-"
    if kind == "share" and isinstance(value, float):
        return f"{value:.3f}"
    if kind == "ms" and isinstance(value, float):
        return f"{value:.2f}"
    return str(value)


def _print_reports(
    console: Console,
    reports: Sequence[FileReport],
    judge_name: str,
    show_misses: bool,
    breakdowns: Sequence[str] = (),
) -> None:
    from rich.table import Table

    # one column per file, one row per metric: fits 80 columns for a few files
    table = Table(title=f"coachloop bench (judge: {judge_name})", title_justify="left")
    table.add_column("metric", no_wrap=True)
    for report in reports:
        table.add_column(report.name, justify="right", overflow="fold")
    for header, attr, kind in _COLUMNS:
        table.add_row(header, *(cell(getattr(r, attr), kind) for r in reports))
    table.add_row("misses", *(str(len(r.misses)) for r in reports))
    table.add_row(
        "sources",
        *(" ".join(f"{name}:{count}" for name, count in r.sources.items()) for r in reports),
    )
    console.print(table)

    for report in reports:
        if not any(any(row) for row in report.confusion):
            continue
        matrix = Table(title=f"{report.name}: gold (rows) x predicted (columns)")
        matrix.add_column("gold \\ pred")
        for label in report.labels:
            matrix.add_column(label, justify="right")
        for label, row in zip(report.labels, report.confusion, strict=True):
            matrix.add_row(label, *(str(count) if count else "." for count in row))
        console.print(matrix)

    for attr in breakdowns:
        for report in reports:
            groups = getattr(report, f"by_{attr}")
            table = Table(title=f"{report.name} by {attr}")
            for header in (attr, "n", "route acc", "false supp", "rej recall"):
                table.add_column(header, justify="left" if header == attr else "right")
            for name, m in groups.items():
                cells = [
                    cell(m[k], "share")
                    for k in ("route_accuracy", "false_suppression", "rejection_recall")
                ]
                table.add_row(name, str(m["n"]), *cells)
            console.print(table)

    if not show_misses:
        return
    for report in reports:
        title = f"{report.name}: {len(report.misses)} misjudged (deliverable ones sent back first)"
        misses = Table(title=title, show_lines=False)
        for header in ("id", "gold", "predicted", "conf", "text (first 100 chars)", "reason"):
            misses.add_column(header, overflow="fold")
        for miss in report.misses:
            misses.add_row(
                miss.id,
                miss.gold,
                miss.predicted,
                f"{miss.confidence:.2f}",
                miss.text,
                miss.reason[:120],
            )
        console.print(misses)


def _bench_files(files: Sequence[Path]) -> list[Path]:
    from coachloop.bench.data import DEFAULT_FILES, BenchDataError, find_bench_dir

    if files:
        return list(files)
    try:
        folder = find_bench_dir()
    except BenchDataError as exc:
        fail(str(exc))
    chosen = [folder / name for name in DEFAULT_FILES if (folder / name).is_file()]
    if not chosen:
        fail(f"none of {', '.join(DEFAULT_FILES)} is in the benchmark directory {folder}")
    return chosen


@click.command()
@click.argument("files", nargs=-1, type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--json", "json_out", is_flag=True, help="Print one JSON document.")
@click.option(
    "--judge",
    "judge_name",
    type=click.Choice(["rules", "anthropic", "openai"]),
    help="The judge to measure (default: the configured one).",
)
@click.option("--show-misses", is_flag=True, help="List misjudged rows: id, gold, predicted, text.")
@click.option(
    "--by",
    "breakdowns",
    type=click.Choice(["agent", "language"]),
    multiple=True,
    help="Also break the route metrics down per agent or per language.",
)
@click.option(
    "--group-by",
    type=click.Choice(["source-repo"]),
    help="Grouped cross-validation of the offline judge's scorer: retrain it with each "
    "source repository's rows held out and score them (out-of-fold figures; --by and "
    "--show-misses break them down).",
)
@click.option(
    "--corrections",
    is_flag=True,
    help="Score the judge on the corrections the human made in the chat (👎, /reject, /done).",
)
@click.option("--store", "target", default=None, help="With --corrections: the store to read.")
@click.option(
    "--export",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="With --corrections: keep them in this JSONL file (a benchmark file).",
)
def bench(  # noqa: PLR0917 - click passes every option
    files: tuple[Path, ...],
    json_out: bool,
    judge_name: str | None,
    show_misses: bool,
    breakdowns: tuple[str, ...],
    group_by: str | None,
    corrections: bool,
    target: str | None,
    export: Path | None,
) -> None:
    """Measure the judge on benchmark files (default: the shared benchmark set)."""
    if group_by:
        from coachloop.cli.bench_grouped import grouped

        grouped(files, json_out, breakdowns, show_misses)
        return
    if corrections:
        from coachloop.cli.corrections import corrections_file

        found = corrections_file(target, export)
        if found is None:
            return
        files = (found,)
        if export is None:  # a temporary file: gone once read
            ctx = click.get_current_context()
            ctx.call_on_close(lambda: found.unlink(missing_ok=True))
    from coachloop.bench.data import BenchDataError
    from coachloop.bench.runner import BenchRunError, run_file
    from coachloop.cli.judge_cmd import build_judge, cli_settings

    paths = _bench_files(files)
    name = cli_settings(judge_name).judge
    judge = build_judge(judge_name)
    try:
        from coachloop.cli.render import progress

        reports = []
        with progress("judging") as step:
            for path in paths:
                step(f"judging {path.name}")
                reports.append(run_file(path, judge))
    except BenchDataError as exc:
        fail(str(exc))
    except BenchRunError as exc:
        fail(str(exc), code=1)
    if json_out:
        document = {
            "judge": name,
            "files": [
                {"path": str(path), **report.to_dict()}
                for path, report in zip(paths, reports, strict=True)
            ],
        }
        click.echo(json.dumps(document, indent=2))
        return
    from rich.console import Console

    console = Console(highlight=False, markup=False, emoji=False)
    if not console.is_terminal:
        console.width = max(console.width, 160)
    _print_reports(console, reports, name, show_misses, breakdowns)
