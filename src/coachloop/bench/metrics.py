"""The benchmark's metrics as pure functions over parallel sequences.

Definitions follow the bench README. Every share is `hits / base`; when its base is
empty the metric is undefined and the function returns None (never a made-up 0 or 1).
Types are ordered as `MESSAGE_TYPES`: question, status, completion, blocker, error.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from coachloop.core.verdict import MESSAGE_TYPES

__all__ = [
    "NOT_STATUS",
    "agreement",
    "agrees",
    "confusion_matrix",
    "false_suppression",
    "percentile",
    "rejection_recall",
    "route_accuracy",
    "share",
    "status_recall",
    "type_macro_f1",
]

NOT_STATUS = "!status"  # an `expected` label meaning "anything but status"


def _check(*columns: Sequence[object]) -> None:
    if len({len(c) for c in columns}) > 1:
        raise ValueError("metric inputs must have the same length")


def share(hits: int, base: int) -> float | None:
    """`hits / base`, or None when `base` is 0."""
    return hits / base if base else None


def route_accuracy(gold: Sequence[str], pred: Sequence[str]) -> float | None:
    """Share of rows whose predicted route equals the gold route."""
    _check(gold, pred)
    return share(sum(g == p for g, p in zip(gold, pred, strict=True)), len(gold))


def false_suppression(gold: Sequence[str], pred: Sequence[str]) -> float | None:
    """Share of gold "deliver" rows that were routed to "continue" (lower is better)."""
    _check(gold, pred)
    routes = [p for g, p in zip(gold, pred, strict=True) if g == "deliver"]
    return share(routes.count("continue"), len(routes))


def rejection_recall(rejected: Sequence[bool], pred: Sequence[str]) -> float | None:
    """Share of rejected-completion rows routed to "continue"."""
    _check(rejected, pred)
    routes = [p for r, p in zip(rejected, pred, strict=True) if r]
    return share(routes.count("continue"), len(routes))


def status_recall(
    gold_types: Sequence[str], rejected: Sequence[bool], pred: Sequence[str]
) -> float | None:
    """Share of plain status rows (type status, not a rejected completion) routed to continue."""
    _check(gold_types, rejected, pred)
    routes = [
        p for t, r, p in zip(gold_types, rejected, pred, strict=True) if t == "status" and not r
    ]
    return share(routes.count("continue"), len(routes))


def confusion_matrix(
    gold: Sequence[str], pred: Sequence[str], labels: Sequence[str] = MESSAGE_TYPES
) -> list[list[int]]:
    """`m[i][j]` counts rows of gold `labels[i]` predicted as `labels[j]`.

    Rows whose gold or predicted label is not in `labels` are not counted.
    """
    _check(gold, pred)
    index = {label: i for i, label in enumerate(labels)}
    matrix = [[0] * len(labels) for _ in labels]
    for g, p in zip(gold, pred, strict=True):
        if g in index and p in index:
            matrix[index[g]][index[p]] += 1
    return matrix


def type_macro_f1(
    gold: Sequence[str], pred: Sequence[str], labels: Sequence[str] = MESSAGE_TYPES
) -> float | None:
    """Unweighted mean of the per-type F1 scores.

    A type enters the mean when it occurs in the gold or the predicted labels (a type
    absent from both says nothing); its F1 is 2·tp / (2·tp + fp + fn), 0 when it was
    predicted but never right or present but never found. None for empty input.
    """
    _check(gold, pred)
    scores: list[float] = []
    for label in labels:
        tp = sum(g == label and p == label for g, p in zip(gold, pred, strict=True))
        fp = sum(g != label and p == label for g, p in zip(gold, pred, strict=True))
        fn = sum(g == label and p != label for g, p in zip(gold, pred, strict=True))
        if tp + fp + fn:
            scores.append(2 * tp / (2 * tp + fp + fn))
    return sum(scores) / len(scores) if scores else None


def agrees(expected: str, predicted: str) -> bool:
    """Whether a prediction meets an `expected` label (a type, or "!status")."""
    if expected == NOT_STATUS:
        return predicted != "status"
    return predicted == expected


def agreement(expected: Sequence[str], pred: Sequence[str]) -> float | None:
    """Share of rows whose prediction meets its `expected` label (see `agrees`)."""
    _check(expected, pred)
    return share(sum(agrees(e, p) for e, p in zip(expected, pred, strict=True)), len(expected))


def percentile(values: Sequence[float], q: float) -> float | None:
    """The q-th percentile (0..100) with linear interpolation between ranks (numpy's default).

    None for no values.
    """
    if not 0 <= q <= 100:
        raise ValueError("q must be within [0, 100]")
    if not values:
        return None
    ordered = sorted(values)
    pos = (len(ordered) - 1) * q / 100
    low, high = math.floor(pos), math.ceil(pos)
    return ordered[low] + (ordered[high] - ordered[low]) * (pos - low)
