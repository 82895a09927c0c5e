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
    "Successfully installed",
    "Successfully built",
    "Successfully tagged",
    "Successfully deployed",
    "deployed successfully",
)
# A screen for each marker: a substring of it, shared by a few markers where one is
# common to them; a marker is looked for only when its screen is in the text.
_SCREEN_OF = {m: m for m in _SUCCESS_MARKERS} | {
    m: screen
    for screen, markers in (
        ("0 ", (" 0 dead links", "200 OK", "0 errors", "0 problems", "0 vulnerabilities")),
        (
            "uccess",
            tuple(m for m in _SUCCESS_MARKERS if "uccess" in m),
        ),
        ("SUCCESS", ("BUILD SUCCESS", "SUCCESS:")),
        ("omplete", ("Apply complete!", "Creation complete")),
    )
    for m in markers
}
_SUCCESS_LINES = Scanner(
    r"^[ \t]*(?:SUCCESS|OK|PASS)\b|\bDone in [\d.]+s|\bFinished `?(?:release|dev|test)", re.M
)
_SUCCESS_LINE_WORDS = ("OK", "PASS", "SUCCESS", "Done in ", "Finished ")  # one in every match
_SCREENS = tuple(dict.fromkeys([*_SCREEN_OF.values(), *_SUCCESS_LINE_WORDS]))
# A text without a "0" (a quick scan: one character) holds none of the screens with one.
_SCREENS_NO_ZERO = tuple(s for s in _SCREENS if "0" not in s)
_FAILURE = Scanner(
    r"^[ \t]*(?:FAILED|FAIL)\b.*$|^(?:error(?:\[\w+\])?|ERROR|fatal|npm ERR!)[: ].*$|"
    r"^[ \t]*(?:✗|✕|×)\s.*$|\bfailed=[1-9]\d*|\bTraceback \(most recent call last\)|"
    r"could not compile|BUILD FAILED|BUILD FAILURE|\bAssertionError\b|:\d+(?::\d+)?: error\b|"
    r"\bFound \d+ errors?\b|^make: \*\*\* .*Error \d+|\bexit (?:code|status):? [1-9]\d*",
    re.M,
)
_FAILURE_WORDS = ("fail", "error", "fatal", "err!", "✗", "✕", "×", "traceback", "could not")
# What every `_FAILURE` match holds as it is written (the pattern is case-sensitive),
# its words at a line's start after a newline (`_FAILURE_STARTS` at the text's start):
# looked for once the lowercase words are in, they pass over prose that says "error".
_FAILURE_PARTS = (
    "FAIL",
    "\nerror",
    "\nERROR",
    "\nfatal",
    "npm ERR!",
    "✗",
    "✕",
    "×",
    "failed=",
    "Traceback",
    "could not compile",
    "AssertionError",
    ": error",
    "Found ",
    "make: ***",
    "exit code",
    "exit status",
)
_FAILURE_STARTS = ("error", "ERROR", "fatal")


def _may_fail(text: str, lowered: str) -> bool:
    """`lowered` holds one of `_FAILURE_WORDS` and `text` one of `_FAILURE_PARTS` (or
    starts with one of `_FAILURE_STARTS`)."""
    return any(map(lowered.__contains__, _FAILURE_WORDS)) and (
        text.startswith(_FAILURE_STARTS) or any(map(text.__contains__, _FAILURE_PARTS))
    )


_URL = LazyPattern(r"https?://\S+")
# Every `_COMMIT` match holds seven hex digits in a row (`[0-9a-f]` under re.I matches
# no character outside `[0-9a-fA-F]`): one quick scan skips the pattern on most texts.
# The scan is `bytes.find` in the UTF-8 bytes translated by this table (hex digits to
# "h", every other byte to a space: a character outside ASCII is bytes >= 0x80 only).
_HEX_BYTES = bytes(104 if chr(b) in "0123456789abcdefABCDEF" else 32 for b in range(256))
_COMMIT_WORDS = ("`", "commit", "sha", "hash", "tag", "rev", "head", "confirmado", "..")


def _hashlike(value: str, named: bool) -> bool:
    """`value` (hex digits) can be a commit hash: it holds a digit and a lowercase letter,
    or (`named`: after commit words) digits only."""
    return any(map(value.__contains__, "0123456789")) and (
        any(map(value.__contains__, "abcdef")) or (named and value.isdigit())
    )


def _has_hex_run(text: str) -> bool:
    """`re.search(r"[0-9a-fA-F]{7}", text) is not None`."""
    return b"hhhhhhh" in text.encode("utf-8", "surrogatepass").translate(_HEX_BYTES)


# `rc` counts only right before the separator `_EXIT` needs.
_RC = ("rc ", "rc:", "rc=")


def _may_exit(lowered: str) -> bool:
    """`lowered` holds "exit", "returncode" or one of `_RC` (looked for only after "rc")."""
    return (
        "exit" in lowered
        or "returncode" in lowered
        or ("rc" in lowered and any(map(lowered.__contains__, _RC)))
    )


def _paths(text: str) -> list[str]:
    """`_PATH.findall(text)`, read in pieces: a path holds no whitespace and its
    lookarounds pass at whitespace as at either end of a string, so no match crosses
    whitespace, and a piece of the text that starts and ends at whitespace (or at an
    end of the text) matches as it does in place. Every match holds a mark: a "/"
    (first alternative) or a "." before a lowercase letter (the extension of the
    second). The pieces read are those around the marks, each from the space or
    newline before a mark to the one after it, joined by spaces (a space reads as
    either end of a string does) and read in one call. The marks and the pieces' ends
    are found with `str.find`, many times faster than a regex over the whole text.
    """
    find, rfind = text.find, text.rfind
    size = len(text)
    pieces = []
    slash, dot, pos = find("/"), find("."), 0
    while True:
        if 0 <= slash < pos:
            slash = find("/", pos)
        if 0 <= dot < pos:
            dot = find(".", pos)
        while dot != -1 and not "a" <= text[dot + 1 : dot + 2] <= "z":
            dot = find(".", dot + 1)
        if slash == -1 and dot == -1:
            break
        at = dot if slash == -1 or 0 <= dot < slash else slash
        space = rfind(" ", 0, at)
        newline = rfind("\n", space + 1, at)
        start = (space if newline == -1 else newline) + 1
        pos = find(" ", at)
        pos = size if pos == -1 else pos
        newline = find("\n", at, pos)
        pos = pos if newline == -1 else newline
        pieces.append(text[start:pos])
    return _PATH.findall(" ".join(pieces)) if pieces else []


def _count(value: str | None) -> int:
    return int(value.replace(",", "")) if value else 0


_DIGIT = LazyPattern(r"\d")
_TEST_WORDS = ("pass", "fail", "ok", "test", "example", "green", "error")
# From a line's first digit to its end: one match per line that holds a digit.
_DIGIT_LINE = LazyPattern(r"\d[^\n]*")
# `bytes.translate` table for ASCII text: digits become "0", newlines stay, the rest
# becomes spaces (for ASCII text `\d` is [0-9], and byte offsets are the text's).
_DIGIT_BYTES = bytes(b if b == 10 else 48 if 48 <= b <= 57 else 32 for b in range(256))


def _test_lines(text: str, low: str | None = None) -> str:
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
    if ascii_lines == [] or not any(map(low.__contains__, _TEST_WORDS)):
        return ""  # no line holds a test word (none of them holds a final sigma)
    if len(low) != len(text):  # lowercasing moved positions: read line by line
        return _test_lines_plain(text)
    size = len(text)
    runs: list[list[int]] = []  # [start, end] of each run of kept lines
    lines = ascii_lines if ascii_lines is not None else _digit_lines(text)
    for start, end in lines:
        if not any(map(low[start:end].__contains__, _TEST_WORDS)):
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
    """`_test_lines` read line by line (each line lowercased apart)."""
    lines = text.split("\n")
    keep: set[int] = set()
    for i, line in enumerate(lines):
        if _DIGIT.search(line) and any(w in line.lower() for w in _TEST_WORDS):
            keep.update(range(max(i - 1, 0), min(i + 3, len(lines))))
    return "\n".join(lines[i] for i in sorted(keep))


# Every match of `NOTHING_RAN` holds "0 " or "no te" (as any case of them: their letters
# fold with no other letter, so the lowercased text holds them): the text's lowercase
# without either cannot match (a test checks each alternative).
_NOTHING_WORDS = ("0 ", "no te")
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
    else:
        passed = max(_count(g.get("total")) - failed - errors - skipped, 0)
    line = m.group(0).strip().splitlines()[-1][:200]
    return TestSummary(runner, passed, failed + errors, skipped, line)


def _tests(text: str, low: str) -> list[TestSummary]:
    found: list[TestSummary] = []
    used: set[int] = set()
    candidates = _test_lines(text, low)
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
    go_ok = len(GO_OK.findall(candidates)) if candidates else 0
    go_fail = len(GO_FAIL.findall(candidates)) if candidates else 0
    if go_ok or go_fail:
        found.append(TestSummary("go", go_ok, go_fail, 0, "go test packages"))
    # `_NOTHING_WORDS`, "0 " looked for only after a "0" (one character: a quick scan)
    nothing = "no te" in low or ("0" in low and "0 " in low)
    if not found and nothing and NOTHING_RAN.search(text):
        found.append(TestSummary("none", 0, 0, 0, "no tests ran"))
    return found


# A CI run's link counts when the text says it passed.
_CI_RUN = Scanner(r"https?://\S+?/(?:actions/runs|pipelines|-/jobs|builds|runs)/\d+", whole=True)
_CI_PASSED = Scanner(r"\b(?:succeeded|passed|green|successful|success)\b|✅", re.I, indexed=True)


# Every `_CI_RUN` match holds one of these (the pattern is case-sensitive).
_CI_PARTS = ("runs/", "pipelines/", "-/jobs/", "builds/")


def _successes(text: str, linked: bool) -> tuple[str, ...]:
    """The success markers, passed CI runs and success lines in `text`, in that order.
    `linked`: "://" is in the text (a CI run is a link)."""
    screens = set(filter(text.__contains__, _SCREENS if "0" in text else _SCREENS_NO_ZERO))
    found = (
        [m for m in _SUCCESS_MARKERS if _SCREEN_OF[m] in screens and m in text] if screens else []
    )
    if linked and any(map(text.__contains__, _CI_PARTS)) and _CI_PASSED.search(text):
        found += [f"CI run {url}" for url in _CI_RUN.findall(text)]
    if not screens.isdisjoint(_SUCCESS_LINE_WORDS):
        found += [m.strip() for m in _SUCCESS_LINES.findall(text)]
    return _unique(found)


def _unique(items: list[str], limit: int = 20) -> tuple[str, ...]:
    return tuple(dict.fromkeys(items))[:limit] if items else ()


def extract(text: str, lowered: str | None = None) -> Evidence:
    """All evidence found in `text` (which should already be clipped to a sane size).

    `lowered`: `text.lower()`, when the caller has it."""
    lowered = text.lower() if lowered is None else lowered
    # Cheap substring tests skip whole patterns on the many messages they cannot match.
    # The hex scan first: one pass over the text (the words can take nine), and it
    # fails on most texts.
    has_commit = _has_hex_run(text) and any(map(lowered.__contains__, _COMMIT_WORDS))
    found = _COMMIT.findall(text) if has_commit else []
    # A hash of digits only counts after commit words ("committed (`8784263`)"): alone in
    # backticks it may be any number; one of letters only is a word ("deadbeef").
    commits = [a or b or c for a, b, c in found if _hashlike(a or b or c, named=bool(a))]
    linked = "://" in text  # in every URL, so in every PR link
    no_urls = _URL.sub(" ", text) if linked else text
    paths = [p for p in _paths(no_urls) if not p.startswith("//")]
    exits = [int(a or b) for a, b in _EXIT.findall(text)] if _may_exit(lowered) else []
    failures = _FAILURE.findall(text) if _may_fail(text, lowered) else []
    return Evidence(
        tests=tuple(_tests(text, lowered)),
        commits=_unique(commits),
        pull_requests=_unique(_PR.findall(text)) if linked and "http" in lowered else (),
        paths=_unique(paths),
        commands=_unique([c.strip() for c in _COMMAND.findall(text)]),
        exit_codes=tuple(exits[:20]),
        successes=_successes(text, linked),
        failures=_unique([f.strip()[:200] for f in failures]),
    )
