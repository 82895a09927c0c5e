"""One structured model call with its validation retry, shared by the judge and the duel.

`ask` sends the prompt; an answer that `parse` rejects (raising `invalid`) gets ONE
retry in the same conversation, carrying the invalid answer and `retry(error)`, within
what is left of `timeout`. It returns what happened (`Asked`) and leaves the policy to
the caller: the LLM judge falls back on an answer still invalid, the duel's coach hands
it to the orchestrator, which records it as invalid. A failed call (`ModelError`)
propagates. `find_object` is the one reading of a JSON object out of a model's text.
"""

from __future__ import annotations

import json
import logging
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from coachloop.judge.providers import Turn

if TYPE_CHECKING:
    from coachloop.judge.providers import Model

__all__ = ["Asked", "ask", "find_object"]

T = TypeVar("T")
log = logging.getLogger(__name__)
_FENCE = re.compile(r"```[a-zA-Z0-9_-]*[ \t]*\n(.*?)\n?```", re.DOTALL)


def find_object(raw: str, hint: str | None = None) -> dict[str, Any] | None:
    """The JSON object a model's text holds, or None. Tried in order: the whole text,
    each fenced block (the last first), then from the last `{"<hint>"` (when given) or
    the first `{`, trailing prose ignored."""
    text = raw.strip()
    candidates = [text, *reversed(_FENCE.findall(text))]
    start = text.rfind('{"' + hint + '"') if hint else -1
    if start < 0:
        start = text.find("{")
    if start >= 0:
        candidates.append(text[start:])
    decoder = json.JSONDecoder()
    for candidate in candidates:
        try:
            value, _ = decoder.raw_decode(candidate.strip())
        except ValueError:
            continue
        if isinstance(value, dict):
            return value
    return None


@dataclass(frozen=True, slots=True)
class Asked(Generic[T]):
    """The outcome of `ask`: the last raw answer, its parsed `value` (None: invalid,
    `error` says why), the calls made and the conversation sent (for cost estimates)."""

    raw: str
    value: T | None
    error: str
    attempts: int
    turns: tuple[Turn, ...]


def ask(
    model: Model,
    system: str,
    prompt: str,
    schema: dict[str, Any],
    parse: Callable[[str], T],
    *,
    retry: Callable[[str], str],
    invalid: type[Exception],
    timeout: float,
) -> Asked[T]:
    """One structured call and, for an answer `parse` rejects with `invalid`, one retry
    within the time left of `timeout` (none when no time is left: `attempts` 1, `value`
    None). Raises `ModelError` when a call fails."""
    deadline = time.monotonic() + timeout
    turns = [Turn("user", prompt)]
    raw = model.complete(system, turns, schema, timeout)
    try:
        return Asked(raw, parse(raw), "", 1, tuple(turns))
    except invalid as exc:
        error = str(exc)
    remaining = deadline - time.monotonic()
    if remaining <= 0:
        return Asked(raw, None, error, 1, tuple(turns))
    log.info("%s: invalid answer, retrying: %s", model.name, error)
    turns += [Turn("assistant", raw), Turn("user", retry(error))]
    raw = model.complete(system, turns, schema, remaining)
    try:
        return Asked(raw, parse(raw), "", 2, tuple(turns))
    except invalid as exc:
        return Asked(raw, None, str(exc), 2, tuple(turns))
