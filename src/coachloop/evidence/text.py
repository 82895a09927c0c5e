"""Evidence in a message's text: test summaries, commits, PR links, paths, commands.

`extract(text)` never raises and runs in time linear in the (clipped) text.
"""

from __future__ import annotations

import re

from coachloop.core.verdict import Evidence, TestSummary
from coachloop.evidence.runners import COMPILED, GO_FAIL, GO_OK, NOTHING_RAN
from coachloop.scan import Scanner
from coachloop.scan.lazy import LazyPattern

_HEX = r"[0-9a-f]{7,40}"
# A hash counts when commit words sit close before it, when it stands in backticks, or
# as the new end of a pushed range ("4e1c09a..b7d2f35  main -> main", git push's output).
_COMMIT = Scanner(
    rf"\b(?:commit(?:ted|s)?|sha|hash|tagged|rev(?:ision)?|head|commité|confirmado)\b"
    rf"[^\n]{{0,40}}?[`*(\s:]({_HEX})\b|`({_HEX})`|\b{_HEX}\.\.\.?({_HEX})\b",
    re.I,
    indexed=True,
)
_PR = Scanner(
    r"https?://[^\s)>\]`'\"]+?/(?:pull|pulls|merge_requests|pull-requests)/\d+", re.I, whole=True
)
_PATH = LazyPattern(
    r"(?<![\w/.@:-])((?:~|\.{1,2})?/?(?:[\w.-]+/)+[\w.-]+|[\w-]+\.(?:py|ts|tsx|js|jsx|md|rst|txt|"
    r"go|rs|rb|java|kt|cs|ex|exs|yml|yaml|toml|json|sql|css|scss|html|sh|tf|proto|mdc|adoc))"
    r"(?::\d+(?:-\d+)?)?(?![\w/])"
)
_COMMAND = Scanner(r"^[ \t]*[$❯>]\s+(\S[^\n]{0,200})$", re.M, whole=True)
_EXIT = Scanner(
    r"\bexit(?:s|ed)?(?: with)?(?: (?:code|status))?[ :=]+(\d{1,3})\b|"
    r"\b(?:exit code|exit status|returncode|rc)[ :=]+(\d{1,3})\b",
    re.I,
    indexed=True,
)
# Success markers of commands other than test runners: plain substrings, tested with
# `in` (fast), plus a few line-shaped patterns.
_SUCCESS_MARKERS = (
    "BUILD SUCCESS",
    "Apply complete!",
    "successfully rolled out",
    "Creation complete",
    " 0 dead links",
    "No issues identified",
    "Success: no issues found",
    "congratulations :)",
    "All checks passed",
    "unreachable=0",
    "Compiled successfully",
    "Uploading distributions",
    "View at:",
    "deployed to",
    "returned 200",
    "200 OK",
    "Migrations applied",
    "✨  Done",
    "SUCCESS:",
    "0 errors",
    "0 problems",
    "0 vulnerabilities",
)
_SUCCESS_LINES = Scanner(
    r"^[ \t]*(?:SUCCESS|OK|PASS)\b|\bDone in [\d.]+s|\bFinished `?(?:release|dev|test)", re.M
)
_FAILURE = Scanner(
    r"^[ \t]*(?:FAILED|FAIL)\b.*$|^(?:error(?:\[\w+\])?|ERROR|fatal|npm ERR!)[: ].*$|"
    r"^[ \t]*(?:✗|✕|×)\s.*$|\bfailed=[1-9]\d*|\bTraceback \(most recent call last\)|"
    r"could not compile|BUILD FAILED|BUILD FAILURE|\bAssertionError\b|:\d+(?::\d+)?: error\b|"
    r"\bFound \d+ errors?\b|^make: \*\*\* .*Error \d+|\bexit (?:code|status):? [1-9]\d*",
    re.M,
)
_FAILURE_WORDS = ("fail", "error", "fatal", "err!", "✗", "✕", "×", "traceback", "could not")
_URL = LazyPattern(r"https?://\S+")
# Every `_COMMIT` match holds seven hex digits in a row (`[0-9a-f]` under re.I matches
# no character outside `[0-9a-fA-F]`): one quick scan skips the pattern on most texts.
# Written with its first character apart: a pattern that opens on a character class
# lets `re` skip the characters outside it; one that opens on a repeat does not.
_HEX_RUN = LazyPattern(r"[0-9a-fA-F][0-9a-fA-F]{6}")


# `rc` counts only right before the separator `_EXIT` needs.
_RC = ("rc ", "rc:", "rc=")


def _paths(text: str) -> list[str]:
    """`_PATH.findall(text)`, read word by word: a path holds no whitespace and its
    lookarounds pass at whitespace as at either end of a string, so no match crosses
    a word and each word matches as it does in place. A path has a "/" or a ".".
    The words that can hold one are read in one call, joined by spaces (a space reads
    as either end of a string does, so each word still matches as it does alone).
    """
    words = [word for word in text.split() if "/" in word or "." in word]
    return _PATH.findall(" ".join(words)) if words else []


def _count(value: str | None) -> int:
    return int(value.replace(",", "")) if value else 0


_DIGIT = LazyPattern(r"\d")
_TEST_WORDS = ("pass", "fail", "ok", "test", "example", "green", "error")


def _test_lines(text: str, low: str | None = None) -> str:
    """The lines that can hold a test summary (a digit and a test word), with one line
    of context before and two after for summaries that span lines; the rest is prose
    that no runner pattern can match, and skipping it keeps extraction fast."""
    if not _DIGIT.search(text):
        return ""  # no line has a digit
    lines = text.split("\n")
    keep: set[int] = set()
    for i in _worded_lines(text, text.lower() if low is None else low, lines):
        if _DIGIT.search(lines[i]):
            keep.update(range(max(i - 1, 0), min(i + 3, len(lines))))
    return "\n".join(lines[i] for i in sorted(keep))


def _worded_lines(text: str, low: str, lines: list[str]) -> list[int]:
    """The numbers of the lines whose lowercase holds a test word, found by looking for
    each word once in the whole lowercased text (`low`; its lines are the lines'
    lowercase when lowercasing keeps every position)."""
    if len(low) != len(text):
        return [i for i, line in enumerate(lines) if any(w in line.lower() for w in _TEST_WORDS)]
    found: set[int] = set()
    for word in _TEST_WORDS:
        line, last, at = 0, 0, low.find(word)
        while at != -1:
            line += low.count("\n", last, at)
            found.add(line)
            last = low.find("\n", at)  # on to the next line: this one is in
            if last == -1:
                break
            at = low.find(word, last)
    return sorted(found)


# Every match of `NOTHING_RAN` holds "0 " or "no te" (as any case of them: their letters
# fold with no other letter, so the lowercased text holds them): the text's lowercase
# without either cannot match (a test checks each alternative).
_NOTHING_WORDS = ("0 ", "no te")
_RUNNER_ANCHORS = frozenset(a for _, anchors, _ in COMPILED for a in anchors)


def _tests(text: str, low: str) -> list[TestSummary]:
    found: list[TestSummary] = []
    used: set[int] = set()
    candidates = _test_lines(text, low)
    lowered = candidates.lower()
    present = {a for a in _RUNNER_ANCHORS if a in lowered} if candidates else set()
    for runner, anchors, pattern in COMPILED if present else ():
        if present.isdisjoint(anchors):
            continue
        for m in pattern.finditer(candidates):
            line_no = candidates.count("\n", 0, m.start())
            if line_no in used:
                continue
            used.add(line_no)
            g = m.groupdict()
            failed = _count(g.get("failed")) + _count(g.get("failed2"))
            errors = _count(g.get("errors"))
            skipped = _count(g.get("skipped"))
            if g.get("passed") is not None:
                passed = _count(g.get("passed"))
            else:
                passed = max(_count(g.get("total")) - failed - errors - skipped, 0)
            line = m.group(0).strip().splitlines()[-1][:200]
            found.append(TestSummary(runner, passed, failed + errors, skipped, line))
    go_ok = len(GO_OK.findall(candidates)) if candidates else 0
    go_fail = len(GO_FAIL.findall(candidates)) if candidates else 0
    if go_ok or go_fail:
        found.append(TestSummary("go", go_ok, go_fail, 0, "go test packages"))
    if not found and any(w in low for w in _NOTHING_WORDS) and NOTHING_RAN.search(text):
        found.append(TestSummary("none", 0, 0, 0, "no tests ran"))
    return found


# A CI run's link counts when the text says it passed.
_CI_RUN = Scanner(r"https?://\S+?/(?:actions/runs|pipelines|-/jobs|builds|runs)/\d+", whole=True)
_CI_PASSED = Scanner(r"\b(?:succeeded|passed|green|successful|success)\b|✅", re.I, indexed=True)


def _successes(text: str) -> tuple[str, ...]:
    found = [m for m in _SUCCESS_MARKERS if m in text]
    if "://" in text and _CI_PASSED.search(text):  # a CI run is a link
        found += [f"CI run {url}" for url in _CI_RUN.findall(text)]
    found += [m.strip() for m in _SUCCESS_LINES.findall(text)]
    return _unique(found)


def _unique(items: list[str], limit: int = 20) -> tuple[str, ...]:
    return tuple(dict.fromkeys(items))[:limit] if items else ()


def extract(text: str, lowered: str | None = None) -> Evidence:
    """All evidence found in `text` (which should already be clipped to a sane size).

    `lowered`: `text.lower()`, when the caller has it."""
    lowered = text.lower() if lowered is None else lowered
    # Cheap substring tests skip whole patterns on the many messages they cannot match.
    commit_words = ("`", "commit", "sha", "hash", "tag", "rev", "head", "confirmado", "..")
    has_commit = any(w in lowered for w in commit_words) and _HEX_RUN.search(text) is not None
    commits = [a or b or c for a, b, c in _COMMIT.findall(text)] if has_commit else []
    commits = [c for c in commits if re.search(r"\d", c) and re.search(r"[a-f]", c)]
    no_urls = _URL.sub(" ", text) if "://" in text else text
    paths = [p for p in _paths(no_urls) if not p.startswith("//")]
    exits = (
        [int(a or b) for a, b in _EXIT.findall(text)]
        if "exit" in lowered or "returncode" in lowered or any(r in lowered for r in _RC)
        else []
    )
    failures = _FAILURE.findall(text) if any(w in lowered for w in _FAILURE_WORDS) else []
    return Evidence(
        tests=tuple(_tests(text, lowered)),
        commits=_unique(commits),
        pull_requests=_unique(_PR.findall(text)) if "http" in lowered else (),
        paths=_unique(paths),
        commands=_unique([c.strip() for c in _COMMAND.findall(text)]),
        exit_codes=tuple(exits[:20]),
        successes=_successes(text),
        failures=_unique([f.strip()[:200] for f in failures]),
    )
