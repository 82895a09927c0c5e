"""A message as named yes/no signals, the scorer's input and the verdict's explanation.

`signals(features, item, outcome)` returns the set of signal names that hold for one
stop. Each name has a plain-language description in `DESCRIPTIONS`, used to explain a
verdict ("continue: it ends announcing the next step; it hedges"). Everything here is
cheap, deterministic and language-aware through the lexicon; no signal reads the
benchmark's texts.
"""

from __future__ import annotations

import re

from coachloop.core.judge_input import JudgeInput
from coachloop.judge.rules import lexicon as lx
from coachloop.judge.rules.classify import Outcome, strong_evidence
from coachloop.judge.rules.features import ONGOING, Features
from coachloop.judge.rules.marks import fence_langs, headings
from coachloop.judge.rules.specifics import DESCRIPTIONS as _SPECIFIC
from coachloop.judge.rules.specifics import specific_signals
from coachloop.judge.rules.sure import repetitive
from coachloop.judge.rules.task import prompt_kind
from coachloop.judge.rules.text import QUESTION_MARKS
from coachloop.scan import Scanner
from coachloop.scan.index import Words, non_ascii, words_of_part
from coachloop.scan.lazy import LazyPattern

_C = lx.compile_lexicon
HANDOFF = _C(lx.cues.HANDOFF)
REMAINING = _C(lx.cues.REMAINING)
ACK = lx.lexicon_regex(lx.cues.ACK)
BACKGROUND = lx.compile_lexicon(lx.cues.BACKGROUND)
FIX_CLAIM = _C(lx.cues.FIX_CLAIM)
SPECIFIC_CHECK = _C(lx.cues.SPECIFIC_CHECK)

_PUSHED = Scanner(
    r"\b[0-9a-f]{7,}\.\.[0-9a-f]{7,}\s+\S+\s+->\s+\S+|\[new branch\]|^\s*To (?:https://|git@)\S+|"
    r"working tree clean|\badded \d+ packages?\b|\bHTTP/[\d.]+ [23]\d\d\b|\bStatusCode\s*:\s*200\b|"
    r"\(\d+ rows?\)|\bsuccessfully (?:built|installed|deployed|tagged|pushed)\b|/issues/\d+",
    re.M,
)
_DIFF = Scanner(r"^```diff|^<<<<<<< SEARCH", re.M, whole=True)
_CJK = LazyPattern(r"[\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af]")
_CODE_LANGS = frozenset(
    {
        "python",
        "py",
        "ts",
        "tsx",
        "typescript",
        "js",
        "javascript",
        "jsx",
        "java",
        "go",
        "rust",
        "rs",
        "c",
        "cpp",
        "cs",
        "csharp",
        "kotlin",
        "swift",
        "ruby",
        "php",
        "html",
        "css",
        "scss",
        "vue",
        "svelte",
        "sql",
        "yaml",
        "yml",
        "json",
        "toml",
        "xml",
        "dart",
        "elixir",
        "ex",
        "astro",
        "diff",
        "dockerfile",
        "tf",
        "hcl",
        "prisma",
        "graphql",
        "mdc",
        "markdown",
        "md",
        "ini",
        "env",
        "groovy",
        "scala",
        "lua",
        "r",
    }
)
_SHELL_LANGS = frozenset(
    {
        "bash",
        "sh",
        "shell",
        "zsh",
        "powershell",
        "ps1",
        "cmd",
        "console",
        "terminal",
        "fish",
    }
)
_OUTPUT_LINE = LazyPattern(
    r"^(?:to (?:https?://|git@)|\s*\*? ?(?:main|master)\b|\s*remotes/|on branch |your branch is|"
    r"nothing to commit|\s*\d+ (?:files? changed|insertions?|deletions?)|\[[\w/.-]+ [0-9a-f]{7}\]|"
    r"created|added \d+ packages|up to date|found \d+|listening on|ready in|compiled|"
    r"build (?:succeeded|success|completed)|\s*[✓✔]|\s*(?:pass|ok|passed|success)\b|http/\d|"
    r"\{\"|\s*status|\s*\d+ passed)",
    re.M,
)
_SHELL_FENCE_END = ("bash", "sh", "shell", "powershell", "cmd", "zsh", "console")

DESCRIPTIONS: dict[str, str] = {
    "hedge": "it hedges its result",
    "hedge_end": "its closing words hedge",
    "asserted": "it asserts a verification it does not show",
    "done": "it claims the work is done",
    "done_opening": "it opens by claiming success",
    "fix_claim": "it claims a fix",
    "ongoing_end": "it ends announcing work still to do",
    "ongoing": "it narrates work under way",
    "ends_colon": "it ends on a colon, before the next step",
    "ends_command": "it ends on a command it has not run",
    "question_end": "it ends with a question",
    "offer_end": "it ends offering more work",
    "asks": "it asks the human for something",
    "appeals": "it asks a person to act",
    "blocked": "it names something outside its control",
    "evidence": "it shows checkable evidence",
    "tests_ok": "a passing test run is shown",
    "tests_failing": "a test run with failures is shown",
    "commit": "a commit hash is shown",
    "pull_request": "a pull request link is shown",
    "pushed": "command output (push, install, HTTP status) is shown",
    "output": "command output is pasted",
    "code_written": "it shows code it wrote",
    "handoff": "it leaves the check to the human",
    "remaining": "it admits work or failures remain",
    "ack": "it only acknowledges the instruction",
    "background": "work continues in the background",
    "specific_check": "it states a specific check (counts, exit code)",
    "claim_no_evidence": "it claims a result without evidence",
    "fix_no_evidence": "it claims a fix without evidence",
    "claim_handoff": "it claims a result and leaves the check to the human",
    "prompt_question": "the human asked a question",
    "prompt_task": "the human asked for work",
    "prompt_error": "the human reported an error",
    "no_prompt": "the turn's prompt is unknown",
    "short": "it is very short",
    "long": "it is long",
    "headings": "it is a structured report",
    "checkmarks": "it lists checkmarks",
    "cjk": "it is written in Chinese, Japanese or Korean",
    "truncated": "it stops mid-sentence",
    **_SPECIFIC,
}


def _closed_after_output(f: Features, outputs: int) -> bool:
    """The message shows output (`_output_blocks`) and its words after the last fenced
    block are a sentence or more that announces no work (`ONGOING`) and does not end on a
    colon before another step (`Features.closing`): a turn that narrated its steps, then
    closed on the result."""
    closing = f.closing if outputs else None
    return closing is not None and not ONGOING.search(closing.low_prose)


def _last_line(text: str) -> str:
    stripped = text.rstrip()
    return stripped[stripped.rfind("\n") + 1 :].strip()


def _output_blocks(f: Features) -> int:
    """Fenced blocks that hold output (not code written): no language tag, or shell with output."""
    found = 0
    for block in f.msg.code_blocks:
        first, _, body = block.partition("\n")
        lang = first.strip("`~ \t").lower()
        if lang in _CODE_LANGS:
            continue
        low = body.lower()
        if lang in _SHELL_LANGS and low.count("\n") <= 2 and not _OUTPUT_LINE.search(low):
            continue
        plain = lang in ("", "text", "output", "log") and body.strip(" `\n")
        if plain or _OUTPUT_LINE.search(low):
            found += 1
    return found


def signals(f: Features, item: JudgeInput, outcome: Outcome) -> set[str]:
    """The named signals that hold for this stop (see `DESCRIPTIONS`)."""
    msg = f.msg
    text, prose = msg.text, msg.low_prose
    tail = msg.low_last_three
    words = words_of_part(prose)  # the tail's too: sentences are cut and joined at spaces
    chars = non_ascii(prose)  # the same for the characters outside ASCII
    on: set[str] = {f"rule_{outcome.type}"}
    on.update(f"problem_{p.kind}" for p in outcome.problems)

    ev = f.result_evidence
    shown = strong_evidence(ev, f)
    outputs = _output_blocks(f)
    flags = {
        "tests_ok": ev.tests_ok,
        "tests_failing": any(t.failed for t in ev.tests),
        "commit": bool(ev.commits),
        "pull_request": bool(ev.pull_requests),
        "evidence": shown,
        "pushed": bool(_PUSHED.search(text)),
        "output": outputs > 0,
        "specific_check": bool(SPECIFIC_CHECK.search(msg.low_text)),
        "hedge": bool(f.hedges),
        "hedge_end": any(q.lower() in tail for q in f.hedges),
        "asserted": bool(f.asserted),
        "done": f.done,
        "done_opening": bool(lx_done_opening(prose[:400], words_of_part(prose, 0, 400), chars)),
        "fix_claim": bool(FIX_CLAIM.search(prose, words, chars)),
        "ongoing_end": f.ongoing_tail,
        # narration in a whole turn ("I'll fix X", the diff, the run, then the result) is
        # not work under way once output shown is followed by words announcing nothing
        "ongoing": f.ongoing_any and not _closed_after_output(f, outputs),
        "ends_colon": _last_line(msg.prose).rstrip("*_ ").endswith((":", "：")),
        "ends_command": text.rstrip().endswith("```")
        and _last_fence_lang(text) in _SHELL_FENCE_END,
        "question_end": any(map(tail.__contains__, QUESTION_MARKS)),
        "offer_end": any(f.is_offer(q) for q in f.questions[-2:]),
        "asks": f.asks,
        "appeals": f.appeals,
        "blocked": f.blocked,
        "code_written": _has_diff(text) or _has_code_lang(text),
        "handoff": bool(
            HANDOFF.search(tail, words, chars)
            or HANDOFF.search(prose[-600:], words_of_part(prose, max(len(prose) - 600, 0)), chars)
        ),
        "remaining": bool(REMAINING.search(prose, words, chars)),
        "ack": bool(ACK.search(prose[:60])),
        "background": bool(BACKGROUND.search(prose, words, chars)),
        "headings": "#" in text and headings(text) >= 2,
        "checkmarks": text.count("✅") + text.count("✔") + text.count("☑") >= 2,
        "cjk": not text.isascii() and bool(_CJK.search(text[:2000])),  # isascii: O(1)
        "truncated": f.truncated,
        "error_opening": f.error_opening,
        "error_words": f.error_anywhere,
        "repetition": repetitive(msg.prose),
    }
    if f.hedges and not (ev.tests_ok or outputs or ev.exit_codes or ev.successes):
        # a commit, a pull request or a push delivers the change, it does not show it
        # working: hedged, the claim has nothing to stand on ("ought to fix it. Commit ...")
        for name in ("commit", "pull_request", "pushed", "evidence"):
            flags[name] = False
        shown = False
    on.update(name for name, value in flags.items() if value)
    claim = f.done or bool(f.asserted) or "done_opening" in on
    proof = shown or "pushed" in on or "commit" in on or "pull_request" in on
    if claim and not proof:
        on.add("claim_no_evidence")
    if "fix_claim" in on and not proof:
        on.add("fix_no_evidence")
    if claim and "handoff" in on:
        on.add("claim_handoff")
    if claim and outputs:
        on.add("claim_output")

    question, task, error = prompt_kind(item.prompt)
    on.update(
        name
        for name, value in (
            ("prompt_question", question),
            ("prompt_task", task),
            ("prompt_error", error),
            ("no_prompt", not item.prompt),
            ("answer_like", question and "fix_claim" not in on),
            ("error_fix_no_evidence", error and "fix_no_evidence" in on),
        )
        if value
    )
    size = len(msg.prose)
    on.add("short" if size < 80 else "medium" if size < 600 else "long" if size < 2500 else "huge")
    on |= specific_signals(f, on, words)
    return on


def lx_done_opening(
    head: str, words: Words | None = None, chars: frozenset[str] | None = None
) -> bool:
    """The opening claims success ("✅ Fixed", "Done", "已完成"); `words` and `chars` as
    `Scanner.search` takes them."""
    return bool(_DONE_OPENING.search(head, words, chars))


_DONE_OPENING = _C(
    {
        "en": (
            r"✅",
            r"\b(?:fixed|done|complete|completed|implemented|resolved|success(?:fully)?)\b",
        ),
        **lx.claims_world.DONE_WORLD,
    }
)


def _has_diff(text: str) -> bool:
    """`_DIFF` matches; both its forms need their marker in the text."""
    return ("```diff" in text or "<<<<<<< SEARCH" in text) and bool(_DIFF.search(text))


def _fence_langs(text: str) -> list[str]:
    """The words after the ``` that open lines (`marks.fence_langs`)."""
    return fence_langs(text) if "```" in text else []


def _last_fence_lang(text: str) -> str:
    opens = _fence_langs(text)
    return opens[-2].lower() if len(opens) >= 2 else ""


def _has_code_lang(text: str) -> bool:
    return any(lang.lower() in _CODE_LANGS for lang in _fence_langs(text)[::2])
