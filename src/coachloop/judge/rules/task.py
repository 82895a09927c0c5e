"""What the human's prompt asked for, as far as the evidence that fits it goes (`Task`).

A reproduction asked for makes the failure shown the result; a task about what a lint or
type check reports makes that check's run the evidence; documents asked for make the
documents changed the result. Read once per prompt (a session's stops share it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from coachloop.scan import Scanner
from coachloop.scan.lazy import LazyPattern

__all__ = ["LINT_ONLY", "NO_TASK", "Task", "task_of"]

# A lint, format or type check (a command that runs one, or a task that names one)
LINT_ONLY = LazyPattern(
    r"\b(?:lint|eslint|ruff|flake8|pylint|prettier|black|rubocop|golangci|clippy|stylelint|"
    r"format|fmt|typecheck|tsc|mypy)\b",
    re.I,
)
_LINT_WORDS = LazyPattern(
    r"\b(?:type ?errors?|type[- ]check\w*|linter|lint(?:ing)? (?:errors?|warnings?))\b", re.I
)
_REPRO = Scanner(
    r"reprodu|\brepro\b|failing test|show (?:me )?the (?:error|traceback|stack ?trace|failure)|"
    r"воспроизвед|відтвор|riprodu|复现|重现|再現|재현",
    re.I,
    whole=True,
)
_DOCS = LazyPattern(
    r"\b(?:document\w*|docs?|readme|changelog|guide|guía|documenta\w*|dokumentation|"
    r"anleitung|документаци\w*|документуй\w*)\b|文档|说明书|规范|仕様|ドキュメント|문서|명세",
    re.I,
)


@dataclass(frozen=True, slots=True)
class Task:
    """The kinds of result the human asked for (all False when the prompt is unknown)."""

    repro: bool = False  # a failure shown ("reproduce the KeyError and show the traceback")
    lint: bool = False  # what a lint or type check reports ("tsc warns about ...")
    docs: bool = False  # documents ("document how to contribute")


NO_TASK = Task()


def task_of(prompt: str | None) -> Task:
    """The `Task` of the human's prompt (its first 600 characters)."""
    return _task(prompt[:600]) if prompt else NO_TASK


@lru_cache(maxsize=8)  # a session's stops share their prompt
def _task(head: str) -> Task:
    return Task(
        repro=_REPRO.search(head),
        lint=bool(LINT_ONLY.search(head) or _LINT_WORDS.search(head)),
        docs=bool(_DOCS.search(head)),
    )
