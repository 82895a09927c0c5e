"""The learned part of the offline judge: a linear score over named signals.

`Scorer.probability(signals)` is a logistic function of the summed weights of the
signals that hold: the probability that the stop should go back to the agent. The
weights are data (`weights.json`, written by `python -m coachloop.bench.train` from
labelled real agent messages; no message text is stored), read once in pure Python.
A stop is continued only when the probability reaches `threshold`, which the trainer
sets from held-out folds so that few deliverable messages are sent back.

`explain` names the signals that pushed hardest toward the route taken, so every
verdict says why in plain words.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from coachloop.judge.rules.vector import DESCRIPTIONS

WEIGHTS_FILE = Path(__file__).with_name("weights.json")


@dataclass(frozen=True, slots=True)
class Scorer:
    """Weights per signal name, a bias and the continue threshold."""

    weights: dict[str, float]
    bias: float = 0.0
    threshold: float = 0.5
    meta: dict[str, Any] = field(default_factory=dict)

    def margin(self, on: set[str]) -> float:
        return self.bias + sum(self.weights.get(name, 0.0) for name in on)

    def probability(self, on: set[str]) -> float:
        """P(continue) for a stop whose signals are `on`; within (0, 1)."""
        z = max(min(self.margin(on), 30.0), -30.0)
        return 1.0 / (1.0 + math.exp(-z))

    def explain(self, on: set[str], toward_continue: bool, limit: int = 3) -> list[str]:
        """Plain descriptions of the strongest signals pushing toward the route taken."""
        sign = 1.0 if toward_continue else -1.0
        pushing = sorted(
            (name for name in on if name in DESCRIPTIONS and sign * self.weights.get(name, 0) > 0),
            key=lambda name: -sign * self.weights.get(name, 0.0),
        )
        return [DESCRIPTIONS[name] for name in pushing[:limit]]

    def to_json(self) -> dict[str, Any]:
        return {
            "bias": self.bias,
            "threshold": self.threshold,
            "weights": dict(sorted(self.weights.items())),
            "meta": self.meta,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Scorer:
        weights = {str(k): float(v) for k, v in dict(data.get("weights") or {}).items()}
        return cls(
            weights=weights,
            bias=float(data.get("bias", 0.0)),
            threshold=float(data.get("threshold", 0.5)),
            meta=dict(data.get("meta") or {}),
        )

    @classmethod
    def load(cls, path: Path | None = None) -> Scorer:
        """The shipped weights (or `path`). A missing or broken file raises ValueError."""
        source = path or WEIGHTS_FILE
        try:
            return cls.from_json(json.loads(source.read_text(encoding="utf-8")))
        except (OSError, ValueError, TypeError, AttributeError) as exc:
            raise ValueError(f"cannot read the judge's weights from {source}: {exc}") from exc


_DEFAULT: list[Scorer] = []


def default_scorer() -> Scorer:
    """The shipped scorer, loaded once per process."""
    if not _DEFAULT:
        _DEFAULT.append(Scorer.load())
    return _DEFAULT[0]
