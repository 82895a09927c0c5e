"""A message's wording as the scorer reads it: which words it uses, and what was asked.

`wording(f, item)` returns the sets of lowercased words (runs of `\\w`) of two parts:
the agent's prose (code, quotes and markup removed) and the human's prompt (its first
300 characters). The scorer adds a learned weight per (part, word); only words seen in
several source repositories when training get one (`coachloop.bench.train`), so no
single message's or repository's words are kept.

The prose's words come from the word index every scanner shares (`scan.index.words`),
already computed for the message by the signals, so they cost nothing more; the prompt's
are read once per prompt. Measured on grouped out-of-fold folds: words of the last
sentences or of the opening, as parts of their own, added nothing over the prose's.
"""

from __future__ import annotations

from functools import lru_cache

from coachloop.core.judge_input import JudgeInput
from coachloop.judge.rules.features import Features
from coachloop.scan.index import tokens, words

__all__ = ["EMPTY", "PARTS", "Wording", "wording"]

PARTS = ("prose", "prompt")
Wording = tuple[frozenset[str], frozenset[str]]
EMPTY: Wording = (frozenset(), frozenset())
PROMPT_CHARS = 300


def wording(f: Features, item: JudgeInput) -> Wording:
    """The words of each part (see `PARTS` and the module docstring)."""
    return words(f.msg.low_prose)[0], _prompt_words(item.prompt)


def _prompt_words(prompt: str | None) -> frozenset[str]:
    return _words_of_prompt(prompt) if prompt else frozenset()


@lru_cache(maxsize=8)  # read once per prompt: a session's stops share theirs
def _words_of_prompt(prompt: str) -> frozenset[str]:
    return frozenset(tokens(prompt[:PROMPT_CHARS].lower()))
