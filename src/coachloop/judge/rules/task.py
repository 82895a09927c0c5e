"""What the human's prompt asked for: its kind (`prompt_kind`: a question, work, an error
reported) and the evidence that fits it (`Task`).

A reproduction asked for makes the failure shown the result; a task about what a lint or
type check reports makes that check's run the evidence; documents asked for make the
documents changed the result. Read once per prompt (a session's stops share it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from coachloop.judge.rules import lexicon as lx
from coachloop.scan import Scanner
from coachloop.scan.lazy import LazyPattern

__all__ = [
    "LINT_ONLY",
    "NO_TASK",
    "Task",
    "asks_question",
    "is_question_prompt",
    "prompt_kind",
    "task_of",
]

# A lint, format or type check (a command that runs one, or a task that names one)
LINT_ONLY = LazyPattern(
    r"\b(?:lint|eslint|ruff|flake8|pylint|prettier|black|rubocop|golangci|clippy|stylelint|"
    r"format|fmt|typecheck|tsc|mypy)\b",
    re.I,
)
_LINT_WORDS = LazyPattern(
    r"\b(?:type ?errors?|type[- ]check\w*|linter|lint(?:ing)? (?:errors?|warnings?))\b|"
    # no word boundary in the scripts that write no spaces: "型エラーとlintエラーを全部直して"
    r"lint ?(?:エラー|警告|错误|告警|오류|에러)|型エラー|类型错误|타입 ?(?:에러|오류)",
    re.I,
)
_REPRO = Scanner(
    r"reprodu|\brepro\b|failing test|show (?:me )?the (?:error|traceback|stack ?trace|failure)|"
    r"воспроизвед|відтвор|riprodu|复现|重现|再現|재현",
    re.I,
    whole=True,
)
_DOCS = LazyPattern(
    r"\b(?:document\w*|docs?|readme|changelog|contributing|guide|guía|documenta\w*|dokumenta\w*|"
    r"doku|dokumentier\w*|anleitung|документаци\w*|документуй\w*|adrs?|runbooks?|"
    # "write up how …", "schreib auf, wie man …"
    r"write (?:it |this |that )?(?:up|down)|schreib\w* (?:\w+ )?auf|aufschreiben)\b|"
    r"文档|说明书|规范|仕様|ドキュメント|문서|명세",
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


_QUESTION_WORD = LazyPattern(
    r"^\W*(?:what|why|how|where|when|which|who|whose|is|are|was|were|does|do|did|can|could|"
    r"should|would|will|have|has|explain|tell me|wie|was|warum|wo|welche|ist|sind|kannst|"
    r"qué|que|por qué|cómo|dónde|cuál|es|son|puedes|quoi|pourquoi|comment|où|quel|quelle|"
    r"est-ce)\b",
    re.I,
)
# "Why is X slow? Please fix it." asks for work, not for an answer.
_TASK_REQUEST = LazyPattern(
    r"\b(?:please|pls|can you|could you|would you)\b[^.?!]{0,30}\b(?:fix|add|implement|update|"
    r"change|make|write|create|remove|refactor|migrate|build|deploy|run|resolve)\b|"
    r"^\W*(?:fix|add|implement|update|change|make|write|create|remove|refactor|migrate|build)\b",
    re.I | re.M,
)


def is_question_prompt(prompt: str | None) -> bool:
    """True when the human's message that started the turn asks something."""
    if not prompt:
        return False
    text = prompt.strip()
    asks = text.endswith("?") or (len(text) < 400 and bool(_QUESTION_WORD.match(text)))
    # a request for work is read only when the prompt could otherwise be a question
    return asks and not _TASK_REQUEST.search(text)


PROMPT_QUESTION = lx.compile_lexicon(lx.prompts.PROMPT_QUESTION)
PROMPT_TASK = lx.compile_lexicon(lx.prompts.PROMPT_TASK, indexed=False)
PROMPT_ERROR = lx.lexicon_regex(lx.prompts.PROMPT_ERROR)


def prompt_kind(prompt: str | None) -> tuple[bool, bool, bool]:
    """(asks a question, asks for work, reports an error) for the human's prompt (read
    once per prompt: both the rules and the signals ask)."""
    return _prompt_kind(prompt) if prompt else (False, False, False)


@lru_cache(maxsize=8)
def _prompt_kind(prompt: str) -> tuple[bool, bool, bool]:
    head = prompt[:300].lower().strip()
    task = bool(PROMPT_TASK.search(head))
    question = is_question_prompt(prompt) or (bool(PROMPT_QUESTION.search(head)) and not task)
    return question, task, bool(PROMPT_ERROR.search(prompt[:2000].lower()))


def asks_question(prompt: str | None) -> bool:
    """The human's prompt asks something, in any language (an answer needs no tests)."""
    return prompt_kind(prompt)[0]
