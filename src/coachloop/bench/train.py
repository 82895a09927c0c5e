"""Training and honestly measuring the offline judge's scorer.

    python -m coachloop.bench.train [--bench-dir DIR] [--out weights.json] [--folds 10] [--seeds 3]
    python -m coachloop.bench.train --misses    # the out-of-fold misses: ids, P, signals
    python -m coachloop.bench.train --curve     # out-of-fold figures at other thresholds

Rows: the shared real-message sets (`real.jsonl`, `real_more.jsonl`) and the project's
authored sets (`tests/data/dev.jsonl`, `holdout.jsonl`, `blind.jsonl`; never
`blind2.jsonl` or later, which stay blind). Each row becomes its set of named signals
(`judge.rules.vector.signals`) and its wording (`judge.rules.wording`: the words of its
prose and of the human's prompt); a logistic regression over both is fitted in pure
Python. A word gets a weight only when it occurs in at least `MIN_GROUPS` source
repositories of the fitting part, so no repository's own vocabulary is learned (nor
shipped). Deliverable rows weigh `DELIVER_WEIGHT` times a continued one: sending a
question back is the costlier mistake. Cross-validation is grouped by source repository
(`groups.source_repo`): no repository is in both the fitting and the scoring part, so
the out-of-fold figures measure what a new repository would see; `--seeds N` also
reports the mean over N shuffled fold assignments (586 rows are few). The continue
threshold is a declared design constant (`THRESHOLD`: send a stop back only when at
least 70 % sure), not fitted. The written file holds weights and figures, never a
message's text.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from coachloop.bench import metrics
from coachloop.bench.data import BenchRow, find_bench_dir, load_rows
from coachloop.bench.groups import source_repo
from coachloop.judge.rules.scorer import WEIGHTS_FILE, Scorer
from coachloop.judge.rules.wording import EMPTY, PARTS, Wording

REAL_FILES = ("real.jsonl", "real_more.jsonl")
AUTHORED_FILES = ("dev.jsonl", "holdout.jsonl", "blind.jsonl")
PROJECT_DATA = Path(__file__).resolve().parents[3] / "tests" / "data"
THRESHOLD = 0.70  # continue only when at least this sure; everything below is delivered
AUTHORED_WEIGHT = 1.0  # authored rows (clear-cut) weigh as much as real ones
DELIVER_WEIGHT = 1.15  # a deliverable row weighs more: suppressing it costs the most
MIN_GROUPS = 3  # a word is learned only when this many source repositories use it
L2 = 1.0
EPOCHS = 150  # stopping early regularises: 300 overfit the words (grouped OOF, 10 seeds)


@dataclass(frozen=True, slots=True)
class Example:
    """One labelled stop as the scorer sees it."""

    row: BenchRow
    on: frozenset[str]
    sure: bool  # delivered whatever the score (sure-deliver rules)
    group: str
    weight: float
    said: Wording = EMPTY

    @property
    def target(self) -> int:
        return 1 if self.row.gold_route == "continue" else 0

    def features(self) -> list[str]:
        """The signal names and the "part:word" names of its wording."""
        return [
            *self.on,
            *(f"{p}:{w}" for p, used in zip(PARTS, self.said, strict=True) for w in used),
        ]


def examples(rows: Sequence[BenchRow], weight: float = 1.0) -> list[Example]:
    """Signals and sure-deliver flags of labelled rows (peer rows are skipped)."""
    from coachloop.coach.skills import all_skills, detect_skill
    from coachloop.judge.rules.classify import classify
    from coachloop.judge.rules.features import Features
    from coachloop.judge.rules.sure import sure_deliver
    from coachloop.judge.rules.text import Message
    from coachloop.judge.rules.vector import signals
    from coachloop.judge.rules.wording import wording

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
        out.append(Example(row, on, sure, source_repo(row), weight, wording(f, item)))
    return out


def _common(data: Sequence[Example], rows: list[list[str]]) -> set[str]:
    """Wording features used in at least `MIN_GROUPS` groups (signal names always count)."""
    groups: dict[str, set[str]] = {}
    for ex, names in zip(data, rows, strict=True):
        for name in names:
            if ":" in name:
                groups.setdefault(name, set()).add(ex.group)
    return {name for name, seen in groups.items() if len(seen) >= MIN_GROUPS}


def fit(
    data: Sequence[Example], l2: float = L2, epochs: int = EPOCHS
) -> tuple[dict[str, float], float]:
    """L2-regularised logistic regression by full-batch gradient descent (deterministic).

    Weights are keyed by signal name and by "part:word" (see `scorer_of`); a deliverable
    row's loss counts `DELIVER_WEIGHT` times."""
    named = [ex.features() for ex in data]
    common = _common(data, named)
    named = [[n for n in names if ":" not in n or n in common] for names in named]
    names = sorted({name for row in named for name in row})
    index = {name: i for i, name in enumerate(names)}
    rows = [[index[name] for name in row] for row in named]
    columns: list[list[int]] = [[] for _ in names]
    for r, active in enumerate(rows):
        for i in active:
            columns[i].append(r)
    weight = [ex.weight * (1.0 if ex.target else DELIVER_WEIGHT) for ex in data]
    target = [ex.target for ex in data]
    total = sum(weight) or 1.0
    w = [0.0] * len(names)
    b = 0.0
    step = 1.0
    for _ in range(epochs):
        g = []
        for active, y, sw in zip(rows, target, weight, strict=True):
            z = b + sum(map(w.__getitem__, active))
            p = 1.0 / (1.0 + math.exp(-max(min(z, 30.0), -30.0)))
            g.append((p - y) * sw)
        for i, col in enumerate(columns):
            w[i] -= step * (sum(map(g.__getitem__, col)) + l2 * w[i]) / total
        b -= step * sum(g) / total
    return {name: round(w[i], 4) for name, i in index.items() if abs(w[i]) >= 1e-4}, round(b, 4)


def scorer_of(
    weights: dict[str, float],
    bias: float,
    threshold: float = 0.5,
    meta: dict[str, object] | None = None,
) -> Scorer:
    """A scorer from `fit`'s weights: "part:word" keys go to its wording."""
    named = {k: v for k, v in weights.items() if ":" not in k}
    wording: dict[str, dict[str, float]] = {}
    for key, value in weights.items():
        if ":" in key:
            part, word = key.split(":", 1)
            wording.setdefault(part, {})[word] = value
    return Scorer(named, bias, threshold, dict(meta or {}), wording)


def _prob(scorer: Scorer, ex: Example) -> float:
    return scorer.probability(set(ex.on), scorer.said_weight(ex.said))


def routes(data: Sequence[Example], probs: Sequence[float], threshold: float) -> list[str]:
    return [
        "continue" if (p >= threshold and not ex.sure) else "deliver"
        for ex, p in zip(data, probs, strict=True)
    ]


def folds(data: Sequence[Example], k: int, seed: int | None = None) -> list[int]:
    """A fold per example; whole groups per fold, folds balanced by size (deterministic).

    Without `seed`, the largest groups are placed first; with one, the groups come in a
    shuffled order (another honest assignment, to average over)."""
    sizes: dict[str, int] = {}
    for ex in data:
        sizes[ex.group] = sizes.get(ex.group, 0) + 1
    order = sorted(sizes, key=lambda g: (-sizes[g], g))
    if seed is not None:
        order = sorted(sizes)
        random.Random(seed).shuffle(order)
    load = [0] * k
    assign: dict[str, int] = {}
    for group in order:
        fold = min(range(k), key=lambda i: load[i])
        assign[group] = fold
        load[fold] += sizes[group]
    return [assign[ex.group] for ex in data]


def out_of_fold(
    data: Sequence[Example], extra: Sequence[Example], k: int, seed: int | None = None
) -> list[float]:
    """Out-of-fold probabilities of `data`; `extra` (authored rows) joins every fitting
    part and is never scored."""
    fold_of = folds(data, k, seed)
    probs = [0.0] * len(data)
    for fold in range(k):
        train = [ex for ex, f in zip(data, fold_of, strict=True) if f != fold]
        scorer = scorer_of(*fit([*train, *extra]))
        for i, ex in enumerate(data):
            if fold_of[i] == fold:
                probs[i] = _prob(scorer, ex)
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


def misses(
    real: Sequence[Example], authored: Sequence[Example], k: int = 10, seed: int | None = None
) -> list[str]:
    """The out-of-fold misses of `real`, most confident first, one line each: the row's
    id, its gold type, P(continue), "sure" when a sure-deliver rule held, and its
    strongest signals with their weights in a fit on every row (names, never text)."""
    probs = out_of_fold(real, authored, k, seed)
    predicted = routes(real, probs, THRESHOLD)
    weights = scorer_of(*fit([*real, *authored])).weights
    ranked = sorted(zip(real, probs, predicted, strict=True), key=lambda t: -abs(t[1] - THRESHOLD))
    lines = []
    for ex, p, route in ranked:
        if route == ex.row.gold_route:
            continue
        top = sorted(ex.on, key=lambda name: (-abs(weights.get(name, 0.0)), name))[:6]
        gold = f"{ex.row.gold_type}{' (rejected)' if ex.row.rejected else ''}"
        signals = " ".join(f"{name}{weights.get(name, 0.0):+.2f}" for name in top)
        lines.append(f"{ex.row.id}\t{gold}\tP={p:.2f}{' sure' if ex.sure else ''}\t{signals}")
    return lines


CURVE = (0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8)


def curve(
    real: Sequence[Example],
    authored: Sequence[Example],
    k: int = 10,
    thresholds: Sequence[float] = CURVE,
    seeds: int = 0,
) -> list[dict[str, float | None]]:
    """The out-of-fold figures at other continue thresholds than `THRESHOLD` (the scores
    are computed once per fold assignment): what each point of false suppression buys in
    rejection recall. With `seeds`, each point is the mean over the default folds and
    `seeds` shuffled assignments (one assignment moves a point by a row or two). A
    measure of the scorer, never a way to pick the threshold on these rows."""
    runs = [out_of_fold(real, authored, k, seed) for seed in [None, *range(1, seeds + 1)]]
    points = []
    for t in thresholds:
        figures = [summary(real, routes(real, probs, t)) for probs in runs]
        points.append({"threshold": t, **_rounded(_mean(figures))})
    return points


def _mean(figures: list[dict[str, float | None]]) -> dict[str, float | None]:
    """Each figure's mean over runs (None where a run has none)."""
    out: dict[str, float | None] = {}
    for key in figures[0]:
        values = [f[key] for f in figures]
        if all(isinstance(v, int) for v in values):  # a count (rows): the same in every run
            out[key] = values[0]
            continue
        known = [float(v) for v in values if v is not None]
        out[key] = sum(known) / len(known) if len(known) == len(values) else None
    return out


def _rounded(figures: dict[str, float | None]) -> dict[str, float | None]:
    return {k: (round(v, 3) if isinstance(v, float) else v) for k, v in figures.items()}


def measure(
    real: Sequence[Example], authored: Sequence[Example], k: int, seed: int | None = None
) -> dict[str, float | None]:
    """Grouped out-of-fold figures of `real` for one fold assignment."""
    return summary(real, routes(real, out_of_fold(real, authored, k, seed), THRESHOLD))


def train(bench_dir: Path, k: int = 10, seeds: int = 0) -> Scorer:
    """Cross-validate (the default folds, and `seeds` shuffled assignments), then fit on
    everything; the scorer carries the figures."""
    real, authored = load_training(bench_dir)
    oof = measure(real, authored, k)
    meta: dict[str, object] = {
        "trained": date.today().isoformat(),
        "rows": {"real": len(real), "authored": len(authored)},
        "groups": len({ex.group for ex in real}),
        "out_of_fold": _rounded(oof),
    }
    if seeds:
        runs = [measure(real, authored, k, seed) for seed in range(1, seeds + 1)]
        meta["out_of_fold_seeds"] = {"seeds": seeds, **_rounded(_mean(runs))}
    meta["method"] = (
        "logistic regression over named signals and words used in at least "
        f"{MIN_GROUPS} repositories; grouped by source repository"
    )
    return scorer_of(*fit([*real, *authored]), THRESHOLD, meta)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m coachloop.bench.train", description=__doc__)
    parser.add_argument("--bench-dir", type=Path, default=None)
    parser.add_argument("--out", type=Path, default=WEIGHTS_FILE)
    parser.add_argument("--folds", type=int, default=10)
    parser.add_argument("--seeds", type=int, default=0, help="also average N shuffled folds")
    parser.add_argument(
        "--misses", action="store_true", help="list the out-of-fold misses; write nothing"
    )
    parser.add_argument(
        "--curve",
        action="store_true",
        help="out-of-fold figures at other thresholds (one line each; --seeds: the mean "
        "over that many more fold assignments); write nothing",
    )
    args = parser.parse_args(argv)
    import json

    if args.misses or args.curve:
        real, authored = load_training(args.bench_dir or find_bench_dir())
        if args.misses:
            print("\n".join(misses(real, authored, args.folds)))
        else:
            points = curve(real, authored, args.folds, seeds=args.seeds)
            print("\n".join(json.dumps(point) for point in points))
        return 0

    scorer = train(args.bench_dir or find_bench_dir(), args.folds, args.seeds)
    args.out.write_text(json.dumps(scorer.to_json(), indent=1, ensure_ascii=False) + "\n")
    print(json.dumps(scorer.meta, indent=1), file=sys.stderr)
    words = sum(len(learned) for learned in scorer.wording.values())
    print(
        f"threshold {scorer.threshold}; {len(scorer.weights)} weights, {words} words -> {args.out}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
