"""The learned part of the offline judge: a linear score over named signals and wording.

`Scorer.probability(signals, said)` is a logistic function of the summed weights of the
signals that hold and of the words the message uses in each part (`said`, from
`wording.wording`): the probability that the stop should go back to the agent. The
weights are data (`weights.json`, written by `python -m coachloop.bench.train` from
labelled real agent messages; no message text is stored, and only words seen in several
source repositories carry a weight), read once in pure Python. A stop is continued only
when the probability reaches `threshold`, a declared design constant of the trainer.

`explain` names the signals that pushed hardest toward the route taken, so every
verdict says why in plain words; the words together count as one more reason ("its
wording").
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from coachloop.judge.rules.vector import DESCRIPTIONS
from coachloop.judge.rules.wording import PARTS, Wording

WEIGHTS_FILE = Path(__file__).with_name("weights.json")
WORDING = "wording"
WORDING_DESCRIPTION = "its wording reads like the messages that went this way"


@dataclass(frozen=True)
class Scorer:
    """Weights per signal name and per (part, word), a bias and the continue threshold."""

    weights: dict[str, float]
    bias: float = 0.0
    threshold: float = 0.5
    meta: dict[str, Any] = field(default_factory=dict)
    wording: dict[str, dict[str, float]] = field(default_factory=dict)
    _known: tuple[tuple[frozenset[str], Callable[[str], float]], ...] = field(
        init=False, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        # the learned words of each part as a set: intersecting it with a message's
        # words runs in C over the smaller of the two
        known = tuple(
            (frozenset(learned), learned.__getitem__)
            for learned in (self.wording.get(part, {}) for part in PARTS)
        )
        object.__setattr__(self, "_known", known)

    def said_weight(self, said: Wording) -> float:
        """The summed weights of the words used, part by part (rounded: the words are a
        set, summed in an order that varies per process, and an explanation compares the
        sum with the signals' weights)."""
        total = 0.0
        for used, (known, weight) in zip(said, self._known, strict=True):
            if known:
                total += sum(map(weight, known.intersection(used)))
        return round(total, 9)

    def margin(self, on: set[str], lean: float = 0.0) -> float:
        """The score before the logistic: bias, the signals' weights and `lean` (the
        wording's, `said_weight`)."""
        return self.bias + sum(self.weights.get(name, 0.0) for name in on) + lean

    def probability(self, on: set[str], lean: float = 0.0) -> float:
        """P(continue) for a stop whose signals are `on` and whose wording weighs `lean`
        (`said_weight`); within (0, 1)."""
        z = max(min(self.margin(on, lean), 30.0), -30.0)
        return 1.0 / (1.0 + math.exp(-z))

    def explain(
        self, on: set[str], toward_continue: bool, limit: int = 3, lean: float = 0.0
    ) -> list[str]:
        """Plain descriptions of the strongest signals pushing toward the route taken;
        the wording (`lean`) competes as one signal."""
        sign = 1.0 if toward_continue else -1.0
        pushes = {name: self.weights.get(name, 0.0) for name in on if name in DESCRIPTIONS}
        pushes[WORDING] = lean
        pushing = sorted(  # ties by name: `on` is a set, its order varies per process
            (name for name in pushes if sign * pushes[name] > 0),
            key=lambda name: (-sign * pushes[name], name),
        )
        return [DESCRIPTIONS.get(name, WORDING_DESCRIPTION) for name in pushing[:limit]]

    def to_json(self) -> dict[str, Any]:
        return {
            "bias": self.bias,
            "threshold": self.threshold,
            "weights": dict(sorted(self.weights.items())),
            "wording": {
                part: dict(sorted(self.wording[part].items())) for part in sorted(self.wording)
            },
            "meta": self.meta,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Scorer:
        weights = {str(k): float(v) for k, v in dict(data.get("weights") or {}).items()}
        wording = {
            str(part): {str(k): float(v) for k, v in dict(learned).items()}
            for part, learned in dict(data.get("wording") or {}).items()
        }
        return cls(
            weights=weights,
            bias=float(data.get("bias", 0.0)),
            threshold=float(data.get("threshold", 0.5)),
            meta=dict(data.get("meta") or {}),
            wording=wording,
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
