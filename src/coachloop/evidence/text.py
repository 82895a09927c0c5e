"""Evidence in a message's text: test summaries, commits, PR links, paths, commands.

`extract(text)` never raises and runs in time linear in the (clipped) text. The test
runners' summaries are read by `evidence.summaries`.
"""

from __future__ import annotations

import re

from coachloop.core.verdict import Evidence
from coachloop.evidence import harness
from coachloop.evidence.summaries import tests_in
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
# ... or when it opens a line of `git log --oneline` with a conventional message ("a3f91c2
# feat(api): …"); looked for only after a hash in backticks' company (`_COMMIT_WORDS`).
_ONELINE = LazyPattern(
    rf"^[ \t]*({_HEX}) (?:feat|fix|chore|docs|refactor|test|perf|build|ci|style|revert)"
    rf"(?:\([^)\n]*\))?!?: ",
    re.M,
)
_PR = Scanner(
    r"https?://[^\s)>\]`'\"]+?/(?:pull|pulls|merge_requests|pull-requests)/\d+", re.I, whole=True
)
_PATH = LazyPattern(
    r"(?<![\w/.@:-])((?:~|\.{1,2})?/?(?:[\w.-]+/)+[\w.-]+|[\w-]+\.(?:py|ts|tsx|js|jsx|md|rst|txt|"
    r"go|rs|rb|java|kt|cs|ex|exs|yml|yaml|toml|json|sql|css|scss|html|sh|tf|proto|mdc|adoc))"
    r"(?::\d+(?:-\d+)?)?(?![\w/])"
)
# A command at a shell's prompt, or at a SQL shell's ("prod=> SELECT ...", "mysql> ...").
# After a bare ">" only what a command or npm's echo of one starts with: a markdown quote
# ("> [!WARNING]", "> <details>", "> **Note**", "> The build...") is prose.
_SQL_PROMPT = r"\w[\w-]*=[>#]|mysql>|sqlite>"
_PROMPT = rf"^[ \t]*(?:[$❯]|>(?=[ \t]+[a-z0-9./~])|{_SQL_PROMPT})[ \t]+"
_COMMAND = Scanner(_PROMPT + r"(\S[^\n]{0,200})$", re.M, whole=True)
# ... and its output on the next line: the run is shown, not only the command (a next line
# at any prompt, a SQL shell's too, is another command; a closing fence ends the block).
_RAN = Scanner(
    _PROMPT + rf"\S[^\n]*\n[ \t]*(?![$❯>][ \t]|(?:{_SQL_PROMPT})[ \t]|```|~~~)\S",
    re.M,
    whole=True,
)
# ... or quoted inline with what it printed after an arrow: "`git push origin v2.7.0` →
# `* [new tag] v2.7.0 -> v2.7.0`", "`go test ./...` → ok (2 packages, 0.41s)": a known
# program with its arguments, then the start of its output (read by `_inline_runs`).
_INLINE_RUN = Scanner(
    r"`((?:git|npm|pnpm|yarn|npx|bun|deno|node|docker|kubectl|terraform|tofu|pulumi|curl|make|"
    r"cargo|go|python3?|pip|uv|poetry|gh|helm|aws|gcloud|az|flyctl|fly|vercel|netlify|wrangler|"
    r"heroku|railway|firebase|supabase|eas|fastlane|butler|xcodebuild|flutter|dart|swift|"
    r"bundle|rails|rake|composer|php|ansible-playbook|psql|mysql|redis-cli|dig|ssh|systemctl|"
    r"certbot|dotnet|mvn|gradle|\./[\w./-]+) [^`\n]{1,200})` ?(?:→|->|=>) ?([`\w{\[*][^\n]{0,80})",
    whole=True,
)
# An output that says the run failed, or is only a test count (the runners read those:
# "→ `5 passed`" quoted by itself shows no run of the change), makes no run of it here.
_NOT_SHOWN = LazyPattern(
    r"(?<!\b0 )\b(?:failed|failing|failures?|fatal)\b|\berror\b|\b[1-9]\d* errors\b|✗|×|"
    # a command that could not run: "`npx playwright install` → `ENOTFOUND …`"
    r"\b(?:enotfound|econnrefused|eacces|eperm|denied|refused|not found|timed out|cannot|can't|"
    r"unable to|no such)\b|"
    r"^`?\d[\d,]* (?:tests? )?(?:passed|passing|ok)\b",
    re.I,
)
_ARROWS = ("→", "->", "=>")
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
    r"\bFound \d+ errors?\b|^make: \*\*\* .*Error \d+|\bexit (?:code|status):? [1-9]\d*|"
    # a TypeScript build's failure: Next.js' "Type error: ..." and "Failed to compile", tsc's
    r"^[ \t]*(?:Type error|Failed to compile)\b.*$|\berror TS\d{4}\b",
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
    "Type error",
    "Failed to compile",
    "error TS",
)
_FAILURE_STARTS = ("error", "ERROR", "fatal")
# A failure in the output of the last command a message shows, in the forms agents paste
# it: indented under Claude Code's "⎿", in Terraform's "│" box, Helm's "Error: UPGRADE
# FAILED", a migrator's "failed with error", a 5xx status line of `curl -I`. Read only
# where no later call or prompt follows (`_later_call`): in a whole turn, a failure the
# agent went on to fix is the "before", not the result.
_FAILURE_OUT = Scanner(
    r"^[ \t]*(?:[⎿│][ \t]*)?(?:(?<=[ \t⎿│])(?:error|ERROR|fatal|FATAL)|Error): .*$|"
    r"\bfailed with error\b|^HTTP/[\d.]+ 5\d\d\b.*$",
    re.M,
)
_FAILURE_OUT_PARTS = ("rror: ", "RROR: ", "FATAL: ", "fatal: ", "failed with error", "HTTP/")
_CALLS = ("\n⏺ ", "\n$ ", "\n• Ran ", "\n─── ", "\n> ")


def _last_output_failures(text: str) -> list[str]:
    """`_FAILURE_OUT` lines after which the text shows no further call or prompt."""
    if not any(map(text.__contains__, _FAILURE_OUT_PARTS)):
        return []
    last_call = max(map(text.rfind, _CALLS))  # -1 when the text shows none
    return [m.group(0) for m in _FAILURE_OUT.finditer(text) if m.end() > last_call]


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


def ran_with_output(text: str) -> bool:
    """A command is shown at its prompt with its output after it (a run, not a suggestion),
    or a shell call as an agent's CLI renders it, with what it printed (`harness`)."""
    return bool(_RAN.search(text)) or harness.ran(text) or bool(_inline_runs(text))


def _inline_runs(text: str) -> list[str]:
    """The commands quoted inline with what they printed after an arrow (`_INLINE_RUN`)."""
    if "`" not in text or not any(map(text.__contains__, _ARROWS)):
        return []
    return [cmd for cmd, out in _INLINE_RUN.findall(text) if not _NOT_SHOWN.search(out)]


def _commands(text: str) -> list[str]:
    """The commands shown at a prompt, quoted inline with their output, and those of shell
    calls agents' CLIs render."""
    found: list[str] = _COMMAND.findall(text)
    return found + _inline_runs(text) + harness.commands(text)


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
    hashes = [(a or b or c, bool(a)) for a, b, c in found]
    if has_commit and ": " in text:
        hashes += [(h, False) for h in _ONELINE.findall(text)]
    commits = [value for value, named in hashes if _hashlike(value, named=named)]
    linked = "://" in text  # in every URL, so in every PR link
    no_urls = _URL.sub(" ", text) if linked else text
    paths = [p for p in _paths(no_urls) if not p.startswith("//")]
    exits = [int(a or b) for a, b in _EXIT.findall(text)] if _may_exit(lowered) else []
    failures = _FAILURE.findall(text) if _may_fail(text, lowered) else []
    failures += _last_output_failures(text)
    return Evidence(
        tests=tuple(tests_in(text, lowered)),
        commits=_unique(commits),
        pull_requests=_unique(_PR.findall(text)) if linked and "http" in lowered else (),
        paths=_unique(paths),
        commands=_unique([c.strip() for c in _commands(text)]),
        exit_codes=tuple(exits[:20]),
        successes=_successes(text, linked),
        failures=_unique([f.strip()[:200] for f in failures]),
    )
