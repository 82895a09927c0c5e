"""The test runners' summaries in a message's text ("12 passed in 0.3s", "Tests: 4
passed, 4 total", go's per-package lines, a run of nothing): `tests_in(text, low)`.

Only the lines that can hold a summary are read (`summary_lines`: a digit and a test word,
with their neighbours), and only by the runners whose anchors occur in them
(`runners.COMPILED`); both keep extraction linear and fast on long messages.
"""

from __future__ import annotations

import re

from coachloop.core.verdict import TestSummary
from coachloop.evidence.runners import COMPILED, NOTHING_RAN, OTHER_PASS_WORDS, go_counts
from coachloop.scan.lazy import LazyPattern

__all__ = ["NOTHING_WORDS", "TEST_WORDS", "summary", "summary_lines", "tests_in"]


def _count(value: str | None) -> int:
    return int(value.replace(",", "")) if value else 0


_DIGIT = LazyPattern(r"\d")
TEST_WORDS = (
    "pass",
    "fail",
    "ok",
    "test",
    "example",
    "green",
    "error",
    "skipped in",
    *OTHER_PASS_WORDS,
)
# From a line's first digit to its end: one match per line that holds a digit.
_DIGIT_LINE = LazyPattern(r"\d[^\n]*")
# `bytes.translate` table for ASCII text: digits become "0", newlines stay, the rest
# becomes spaces (for ASCII text `\d` is [0-9], and byte offsets are the text's).
_DIGIT_BYTES = bytes(b if b == 10 else 48 if 48 <= b <= 57 else 32 for b in range(256))


def summary_lines(text: str, low: str | None = None) -> str:
    """The lines that can hold a test summary (a digit and a test word), with one line
    of context before and two after for summaries that span lines; the rest is prose
    that no runner pattern can match, and skipping it keeps extraction fast.

    Read from the lines that hold a digit (few), each checked for a test word in the
    lowercased text (`low`, `text.lower()`): the kept lines come out as runs of
    neighbouring lines, each one slice of the text, joined as the lines would be.
    """
    low = text.lower() if low is None else low
    # The cheaper test first: the digits of ASCII text (a byte translation), else the
    # test words (the regex that finds digits elsewhere costs more than they do).
    ascii_lines = _ascii_digit_lines(text) if text.isascii() else None
    if ascii_lines == [] or not any(map(low.__contains__, TEST_WORDS)):
        return ""  # no line holds a test word (none of them holds a final sigma)
    if len(low) != len(text):  # lowercasing moved positions: read line by line
        return _test_lines_plain(text)
    size = len(text)
    runs: list[list[int]] = []  # [start, end] of each run of kept lines
    lines = ascii_lines if ascii_lines is not None else _digit_lines(text)
    for start, end in lines:
        if not any(map(low[start:end].__contains__, TEST_WORDS)):
            continue
        first = low.rfind("\n", 0, start - 1) + 1 if start else 0  # the line before
        last = end
        for _ in range(2):  # the two lines after
            if last == size:
                break
            last = low.find("\n", last + 1)
            last = size if last == -1 else last
        if runs and first <= runs[-1][1] + 1:  # overlaps or touches the last run
            runs[-1][1] = last
        else:
            runs.append([first, last])
    return "\n".join([text[a:b] for a, b in runs])


def _digit_lines(text: str) -> list[tuple[int, int]]:
    """(start, end) of each line of `text` that holds a digit (`end`: its newline or
    the text's end)."""
    return [(text.rfind("\n", 0, m.start()) + 1, m.end()) for m in _DIGIT_LINE.finditer(text)]


def _ascii_digit_lines(text: str) -> list[tuple[int, int]]:
    """`_digit_lines` of ASCII text, found with `bytes.find` in a translated copy (many
    times faster than the regex)."""
    view = text.encode("ascii").translate(_DIGIT_BYTES)
    found = []
    at = view.find(b"0")
    while at != -1:
        end = view.find(b"\n", at)
        end = len(view) if end == -1 else end
        found.append((view.rfind(b"\n", 0, at) + 1, end))
        at = view.find(b"0", end)
    return found


def _test_lines_plain(text: str) -> str:
    """`summary_lines` read line by line (each line lowercased apart)."""
    lines = text.split("\n")
    keep: set[int] = set()
    for i, line in enumerate(lines):
        if _DIGIT.search(line) and any(w in line.lower() for w in TEST_WORDS):
            keep.update(range(max(i - 1, 0), min(i + 3, len(lines))))
    return "\n".join(lines[i] for i in sorted(keep))


# Every match of `NOTHING_RAN` holds "0 " or "no te" (as any case of them: their letters
# fold with no other letter, so the lowercased text holds them): the text's lowercase
# without either cannot match (a test checks each alternative).
NOTHING_WORDS = ("0 ", "no te")
_RUNNER_ANCHORS = tuple(dict.fromkeys(a for _, anchors, _ in COMPILED for a in anchors))
# The runners (places in `COMPILED`) each anchor opens.
_OPENS = {
    a: frozenset(i for i, (_, anchors, _) in enumerate(COMPILED) if a in anchors)
    for a in _RUNNER_ANCHORS
}


def summary(runner: str, m: re.Match[str]) -> TestSummary:
    """The counts a runner's summary line (`m`, of its pattern in `runners.COMPILED`) shows;
    passed = total - failed - errors - skipped when only a total is given."""
    g = m.groupdict()
    failed = _count(g.get("failed")) + _count(g.get("failed2"))
    errors = _count(g.get("errors"))
    skipped = _count(g.get("skipped"))
    if g.get("passed") is not None:
        passed = _count(g.get("passed"))
        total = g.get("total")
        if total is not None and not failed:  # "22/24 passing": two did not pass
            failed = max(_count(total) - passed - skipped, 0)
    else:
        passed = max(_count(g.get("total")) - failed - errors - skipped, 0)
    line = m.group(0).strip().splitlines()[-1][:200]
    return TestSummary(runner, passed, failed + errors, skipped, line)


def tests_in(text: str, low: str) -> list[TestSummary]:
    """The test runs whose summaries `text` shows (`low`: `text.lower()`), each line read
    by the first runner whose pattern matches it; a run of nothing when none did."""
    found: list[TestSummary] = []
    used: set[int] = set()
    candidates = summary_lines(text, low)
    opened: set[int] = set()  # the runners whose anchors are in the candidates (run in order)
    if candidates:
        opened.update(
            *map(_OPENS.__getitem__, filter(candidates.lower().__contains__, _RUNNER_ANCHORS))
        )
    for i in sorted(opened):
        runner, _, pattern = COMPILED[i]
        for m in pattern.finditer(candidates):
            line_no = candidates.count("\n", 0, m.start())
            if line_no in used:
                continue
            used.add(line_no)
            found.append(summary(runner, m))
    go_ok, go_fail = go_counts(candidates) if candidates else (0, 0)
    if go_ok or go_fail:
        found.append(TestSummary("go", go_ok, go_fail, 0, "go test packages"))
    # `NOTHING_WORDS`, "0 " looked for only after a "0" (one character: a quick scan)
    nothing = "no te" in low or ("0" in low and "0 " in low)
    if not found and nothing and NOTHING_RAN.search(text):
        found.append(TestSummary("none", 0, 0, 0, "no tests ran"))
    return found
