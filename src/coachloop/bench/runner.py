"""Running a judge over benchmark rows: timing each call and assembling a report.

`run_rows` judges every row once after one untimed warm-up call, timing each call with
`time.perf_counter`, then computes the metrics of `coachloop.bench.metrics`. Labelled
rows feed the route and type metrics; peer rows (`expected`) feed `agreement`. The
confusion matrix counts every row whose label is a type (peer rows expecting "!status"
are left out). `sources` counts the verdicts by source (signal, rules, llm): an LLM
judge that fell back to the rules shows it there. A metric without rows to measure
is None. A judge that raises breaks its contract:
`BenchRunError` names the row.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from coachloop.bench import metrics
from coachloop.bench.data import BenchRow, load_rows
from coachloop.bench.groups import agent_name, breakdown, language
from coachloop.core.verdict import MESSAGE_TYPES
from coachloop.judge.base import Judge

__all__ = ["BenchRunError", "FileReport", "Miss", "run_file", "run_rows", "snippet"]

_SNIPPET = 100


class BenchRunError(RuntimeError):
    """The judge raised on a row (judges must never raise)."""


@dataclass(frozen=True, slots=True)
class Miss:
    """A misjudged row: the predicted type differs from the label (or disagrees with it)."""

    id: str
    gold: str
    predicted: str
    gold_route: str
    predicted_route: str
    confidence: float
    reason: str
    text: str  # the first 100 characters, whitespace collapsed


@dataclass(frozen=True, slots=True)
class FileReport:
    """Every metric for one file; shares are in [0, 1], latencies in milliseconds."""

    name: str
    n: int
    labelled: int = 0
    peer: int = 0
    route_accuracy: float | None = None
    false_suppression: float | None = None
    rejection_recall: float | None = None
    status_recall: float | None = None
    type_macro_f1: float | None = None
    agreement: float | None = None
    latency_p50_ms: float | None = None
    latency_p99_ms: float | None = None
    labels: tuple[str, ...] = MESSAGE_TYPES
    confusion: list[list[int]] = field(default_factory=list)
    misjudged: list[str] = field(default_factory=list)
    misses: list[Miss] = field(default_factory=list)
    sources: dict[str, int] = field(default_factory=dict)  # verdict source -> rows
    by_agent: dict[str, dict[str, float | int | None]] = field(default_factory=dict)
    by_language: dict[str, dict[str, float | int | None]] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict: `confusion[i][j]` counts gold `labels[i]` predicted `labels[j]`."""
        data = asdict(self)
        data["labels"] = list(self.labels)
        return data


def snippet(text: str) -> str:
    """The first 100 characters of `text`, whitespace collapsed (what a miss shows)."""
    flat = " ".join(text[: _SNIPPET * 4].split())
    return flat[:_SNIPPET]


def run_rows(name: str, rows: Sequence[BenchRow], judge: Judge) -> FileReport:
    """Judge `rows` with `judge` and compute the report for a file called `name`."""
    if rows:
        judge.judge(rows[0].item)  # warm-up: first-call costs (imports, caches) not timed
    latencies: list[float] = []
    predicted: list[tuple[str, str, float, str]] = []
    sources: Counter[str] = Counter()
    for row in rows:
        start = time.perf_counter()
        try:
            verdict = judge.judge(row.item)
        except Exception as exc:
            raise BenchRunError(
                f"{name}: row {row.id}: the judge raised {type(exc).__name__}: {exc}"
            ) from exc
        latencies.append((time.perf_counter() - start) * 1000)
        predicted.append((verdict.type, verdict.route, verdict.confidence, verdict.reason))
        sources[verdict.source] += 1

    lab = [(r, p) for r, p in zip(rows, predicted, strict=True) if r.gold_type is not None]
    lab_rows = [r for r, _ in lab]
    peer = [(r, p) for r, p in zip(rows, predicted, strict=True) if r.expected is not None]
    gold_types = [r.gold or "" for r, _ in lab]
    gold_routes = [r.gold_route for r, _ in lab]
    rejected = [r.rejected for r, _ in lab]
    pred_types = [p[0] for _, p in lab]
    pred_routes = [p[1] for _, p in lab]

    # Deliverable rows sent back come first: they are the costliest mistake.
    misses = [
        Miss(r.id, r.gold, p[0], r.gold_route, p[1], p[2], p[3], snippet(r.item.text))
        for r, p in zip(rows, predicted, strict=True)
        if (r.expected is not None and not metrics.agrees(r.expected, p[0]))
        or (r.gold_type is not None and (p[0] != r.gold_type or p[1] != r.gold_route))
    ]
    misses.sort(key=lambda m: not (m.gold_route == "deliver" and m.predicted_route == "continue"))
    return FileReport(
        name=name,
        n=len(rows),
        labelled=len(lab),
        peer=len(peer),
        route_accuracy=metrics.route_accuracy(gold_routes, pred_routes),
        false_suppression=metrics.false_suppression(gold_routes, pred_routes),
        rejection_recall=metrics.rejection_recall(rejected, pred_routes),
        status_recall=metrics.status_recall(gold_types, rejected, pred_routes),
        type_macro_f1=metrics.type_macro_f1(gold_types, pred_types),
        agreement=metrics.agreement([r.expected or "" for r, _ in peer], [p[0] for _, p in peer]),
        latency_p50_ms=metrics.percentile(latencies, 50),
        latency_p99_ms=metrics.percentile(latencies, 99),
        confusion=metrics.confusion_matrix([r.gold for r in rows], [p[0] for p in predicted]),
        misjudged=[m.id for m in misses],
        misses=misses,
        sources=dict(sorted(sources.items())),
        by_agent=breakdown(lab_rows, pred_routes, agent_name),
        by_language=breakdown(lab_rows, pred_routes, language),
    )


def run_file(path: Path, judge: Judge) -> FileReport:
    """Load the JSONL file at `path` and run `judge` over it (report named by file name)."""
    return run_rows(path.name, load_rows(path), judge)
