"""Training and honestly measuring the offline judge's scorer.

    python -m coachloop.bench.train [--bench-dir DIR] [--out weights.json] [--folds 10]

Rows: the shared real-message sets (`real.jsonl`, `real_more.jsonl`) and the project's
authored sets (`tests/data/dev.jsonl`, `holdout.jsonl`, `blind.jsonl`; never
`blind2.jsonl`, which stays blind). Each row becomes its set of named signals
(`judge.rules.vector.signals`); a logistic regression over them is fitted in pure
Python. Cross-validation is grouped by source repository (`groups.source_repo`): no
repository is in both the fitting and the scoring part, so the out-of-fold figures
measure what a new repository would see. The continue threshold is a declared design
constant (`THRESHOLD`: send a stop back only when at least 70 % sure), not fitted. The
written file holds weights and figures, never a message's text.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from coachloop.bench import metrics
from coachloop.bench.data import BenchRow, find_bench_dir, load_rows
from coachloop.bench.groups import source_repo
from coachloop.judge.rules.scorer import WEIGHTS_FILE, Scorer

REAL_FILES = ("real.jsonl", "real_more.jsonl")
AUTHORED_FILES = ("dev.jsonl", "holdout.jsonl", "blind.jsonl")
PROJECT_DATA = Path(__file__).resolve().parents[3] / "tests" / "data"
THRESHOLD = 0.70  # continue only when at least this sure; everything below is delivered
AUTHORED_WEIGHT = 1.0  # authored rows (clear-cut) weigh as much as real ones
L2 = 1.0
EPOCHS = 300


@dataclass(frozen=True, slots=True)
class Example:
    """One labelled stop as the scorer sees it."""

    row: BenchRow
    on: frozenset[str]
    sure: bool  # delivered whatever the score (sure-deliver rules)
    group: str
    weight: float

    @property
    def target(self) -> int:
        return 1 if self.row.gold_route == "continue" else 0


def examples(rows: Sequence[BenchRow], weight: float = 1.0) -> list[Example]:
    """Signals and sure-deliver flags of labelled rows (peer rows are skipped)."""
    from coachloop.coach.skills import all_skills, detect_skill
    from coachloop.judge.rules.classify import classify
    from coachloop.judge.rules.features import Features
    from coachloop.judge.rules.text import Message
    from coachloop.judge.rules.vector import signals, sure_deliver

    skills = all_skills(())
    out = []
    for row in rows:
        if row.gold_type is None:
            continue
        item = row.item
        f = Features(Message(item.text))
        skill = detect_skill(
            explicit=item.skill, texts=(item.text, item.prompt), phase=item.phase, skills=skills
        )
        outcome = classify(f, item.prompt, skill)
        sure = sure_deliver(f, outcome) is not None
        on = frozenset(signals(f, item, outcome))
        out.append(Example(row, on, sure, source_repo(row), weight))
    return out


def fit(
    data: Sequence[Example], l2: float = L2, epochs: int = EPOCHS
) -> tuple[dict[str, float], float]:
    """L2-regularised logistic regression by full-batch gradient descent (deterministic)."""
    names = sorted({name for ex in data for name in ex.on})
    index = {name: i for i, name in enumerate(names)}
    rows = [[index[name] for name in ex.on] for ex in data]
    total = sum(ex.weight for ex in data) or 1.0
    w = [0.0] * len(names)
    b = 0.0
    step = 1.0
    for _ in range(epochs):
        grad = [0.0] * len(names)
        grad_b = 0.0
        for active, ex in zip(rows, data, strict=True):
            z = b + sum(w[i] for i in active)
            p = 1.0 / (1.0 + math.exp(-max(min(z, 30.0), -30.0)))
            g = (p - ex.target) * ex.weight
            grad_b += g
            for i in active:
                grad[i] += g
        for i in range(len(w)):
            w[i] -= step * (grad[i] + l2 * w[i]) / total
        b -= step * grad_b / total
    return {name: round(w[i], 4) for name, i in index.items() if abs(w[i]) >= 1e-4}, round(b, 4)


def _prob(weights: dict[str, float], bias: float, on: frozenset[str]) -> float:
    return Scorer(weights, bias).probability(set(on))


def routes(data: Sequence[Example], probs: Sequence[float], threshold: float) -> list[str]:
    return [
        "continue" if (p >= threshold and not ex.sure) else "deliver"
        for ex, p in zip(data, probs, strict=True)
    ]


def folds(data: Sequence[Example], k: int) -> list[int]:
    """A fold per example; whole groups per fold, folds balanced by size (deterministic)."""
    sizes: dict[str, int] = {}
    for ex in data:
        sizes[ex.group] = sizes.get(ex.group, 0) + 1
    load = [0] * k
    assign: dict[str, int] = {}
    for group in sorted(sizes, key=lambda g: (-sizes[g], g)):
        fold = min(range(k), key=lambda i: load[i])
        assign[group] = fold
        load[fold] += sizes[group]
    return [assign[ex.group] for ex in data]


def out_of_fold(data: Sequence[Example], extra: Sequence[Example], k: int) -> list[float]:
    """Out-of-fold probabilities of `data`; `extra` (authored rows) joins every fitting
    part and is never scored."""
    fold_of = folds(data, k)
    probs = [0.0] * len(data)
    for fold in range(k):
        train = [ex for ex, f in zip(data, fold_of, strict=True) if f != fold]
        weights, bias = fit([*train, *extra])
        for i, ex in enumerate(data):
            if fold_of[i] == fold:
                probs[i] = _prob(weights, bias, ex.on)
    return probs


def summary(data: Sequence[Example], predicted: Sequence[str]) -> dict[str, float | None]:
    gold = [ex.row.gold_route for ex in data]
    types = [ex.row.gold_type or "" for ex in data]
    rejected = [ex.row.rejected for ex in data]
    return {
        "rows": len(data),
        "route_accuracy": metrics.route_accuracy(gold, predicted),
        "false_suppression": metrics.false_suppression(gold, predicted),
        "rejection_recall": metrics.rejection_recall(rejected, predicted),
        "status_recall": metrics.status_recall(types, rejected, predicted),
    }


def load_training_authored() -> tuple[list[str], list[Example]]:
    """(file names, examples) of the project's authored sets that are present."""
    names = [name for name in AUTHORED_FILES if (PROJECT_DATA / name).is_file()]
    rows = [
        ex for name in names for ex in examples(load_rows(PROJECT_DATA / name), AUTHORED_WEIGHT)
    ]
    return names, rows


def load_training(bench_dir: Path) -> tuple[list[Example], list[Example]]:
    """(real examples, authored examples) from the shared and project data."""
    real = [ex for name in REAL_FILES for ex in examples(load_rows(bench_dir / name))]
    return real, load_training_authored()[1]


def train(bench_dir: Path, k: int = 10) -> Scorer:
    """Cross-validate, then fit on everything; the scorer carries the figures."""
    real, authored = load_training(bench_dir)
    oof = summary(real, routes(real, out_of_fold(real, authored, k), THRESHOLD))
    weights, bias = fit([*real, *authored])
    meta = {
        "trained": date.today().isoformat(),
        "rows": {"real": len(real), "authored": len(authored)},
        "groups": len({ex.group for ex in real}),
        "out_of_fold": {k: (round(v, 3) if isinstance(v, float) else v) for k, v in oof.items()},
        "method": "logistic regression over named signals; grouped by source repository",
    }
    return Scorer(weights, bias, THRESHOLD, meta)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m coachloop.bench.train", description=__doc__)
    parser.add_argument("--bench-dir", type=Path, default=None)
    parser.add_argument("--out", type=Path, default=WEIGHTS_FILE)
    parser.add_argument("--folds", type=int, default=10)
    args = parser.parse_args(argv)
    import json

    scorer = train(args.bench_dir or find_bench_dir(), args.folds)
    args.out.write_text(json.dumps(scorer.to_json(), indent=1, ensure_ascii=False) + "\n")
    print(json.dumps(scorer.meta, indent=1), file=sys.stderr)
    print(f"threshold {scorer.threshold}; {len(scorer.weights)} weights -> {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
