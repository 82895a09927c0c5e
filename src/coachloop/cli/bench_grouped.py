"""`coachloop bench --group-by source-repo`: the scorer's out-of-fold figures.

The offline judge's scorer is retrained with each source repository's rows held out
(10 folds, `coachloop.bench.train`) and scores them: the figures a new repository would
see. `--by agent|language` breaks the out-of-fold routes down; `--show-misses` lists the
rows routed against their label (deliverable ones sent back first, then the most
confident), each with P(continue) and the first words of its text. With `--json`:
`{"group_by", "groups", <figures>, "by_<key>": {...}, "misses": [...]}`.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click

from coachloop.cli.bench_cmd import cell
from coachloop.cli.judge_cmd import fail

__all__ = ["grouped"]

FOLDS = 10


def _misses(
    data: Sequence[Any], probs: Sequence[float], predicted: Sequence[str]
) -> list[dict[str, Any]]:
    """The rows whose out-of-fold route differs from their label, as dicts."""
    from coachloop.bench.runner import snippet
    from coachloop.bench.train import THRESHOLD

    found = [
        {
            "id": ex.row.id,
            "gold": f"{ex.row.gold_type}{' (rejected)' if ex.row.rejected else ''}",
            "gold_route": ex.row.gold_route,
            "predicted_route": route,
            "p_continue": round(p, 3),
            "sure": ex.sure,
            "text": snippet(ex.row.item.text),
        }
        for ex, p, route in zip(data, probs, predicted, strict=True)
        if route != ex.row.gold_route
    ]
    # a deliverable row sent back is the costliest miss: those first, most confident first
    found.sort(key=lambda m: (m["gold_route"] != "deliver", -abs(m["p_continue"] - THRESHOLD)))
    return found


def grouped(
    files: Sequence[Path], json_out: bool, breakdowns: Sequence[str] = (), show_misses: bool = False
) -> None:
    """Print the out-of-fold figures (see the module docstring)."""
    from coachloop.bench import train
    from coachloop.bench.data import BenchDataError, find_bench_dir, load_rows
    from coachloop.bench.groups import agent_name, breakdown, language

    try:
        paths = list(files) or [find_bench_dir() / name for name in train.REAL_FILES]
        rows = [row for path in paths for row in load_rows(path)]
    except BenchDataError as exc:
        fail(str(exc))
    data = train.examples(rows)
    _, authored = train.load_training_authored()
    probs = train.out_of_fold(data, authored, FOLDS)
    predicted = train.routes(data, probs, train.THRESHOLD)
    report: dict[str, Any] = {
        "group_by": "source-repo",
        "groups": len({ex.group for ex in data}),
        **train.summary(data, predicted),
    }
    keys = {"agent": agent_name, "language": language}
    for name in breakdowns:
        report[f"by_{name}"] = breakdown([ex.row for ex in data], predicted, keys[name])
    if show_misses:
        report["misses"] = _misses(data, probs, predicted)
    if json_out:
        click.echo(json.dumps(report, indent=2))
        return
    _print(report, breakdowns, train.THRESHOLD)


def _print(report: dict[str, Any], breakdowns: Sequence[str], threshold: float) -> None:
    click.echo(
        f"out-of-fold, {report['groups']} source repositories in {FOLDS} folds, "
        f"threshold {threshold}"
    )
    for key in ("rows", "route_accuracy", "false_suppression", "rejection_recall", "status_recall"):
        click.echo(f"  {key:18} {cell(report[key], 'share')}")
    for name in breakdowns:
        click.echo(f"\nby {name}: n, route acc, false supp, rej recall")
        for group, m in report[f"by_{name}"].items():
            cells = (m["route_accuracy"], m["false_suppression"], m["rejection_recall"])
            click.echo(
                f"  {group:20} {m['n']:5}  " + "  ".join(f"{cell(c, 'share'):>5}" for c in cells)
            )
    if "misses" in report:
        misses = report["misses"]
        click.echo(f"\n{len(misses)} routed against their label (deliverable ones sent back first)")
        for m in misses:
            sure = " sure" if m["sure"] else ""
            click.echo(
                f"  {m['id']:8} {m['gold']:22} -> {m['predicted_route']:8} "
                f"P={m['p_continue']:.2f}{sure}  {m['text']}"
            )
