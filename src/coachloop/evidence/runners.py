"""Test-runner summary lines as data: one regex per runner shape, named groups for counts.

Groups: `passed`, `failed`, `errors`, `skipped`, `total`. A missing `passed` group is
derived as total - failed - errors - skipped. Order matters only for speed: every
pattern is tried and each matched line counts once.
"""

from __future__ import annotations

import re

from coachloop.scan import Scanner

# A count: "1,234" or "42". Written `\d(?:\d{0,2}(?:,\d{3})+|\d*)`, the same as
# `\d{1,3}(?:,\d{3})+|\d+` (same matches, tried in the same order), but opening on a
# digit: a pattern that starts with a count then lets `re` skip to digits at once
# instead of trying every position (3x faster on test output).
_N = r"(\d(?:\d{0,2}(?:,\d{3})+|\d*))"

RUNNER_PATTERNS: tuple[tuple[str, str], ...] = (
    # pytest: "== 2 failed, 131 passed, 1 skipped in 4.88s ==", "34 passed in 1.47s"
    (
        "pytest",
        rf"(?:(?P<failed>{_N}) failed, )?(?P<passed>{_N}) passed(?:, (?P<failed2>{_N}) failed)?"
        rf"(?:, (?P<skipped>{_N}) (?:skipped|deselected|xfailed|xpassed|warnings?))*"
        rf"(?:, (?P<errors>{_N}) errors?)?(?:,[^\n]*)? in [\d.]+\s?s",
    ),
    (
        "pytest",
        rf"(?P<failed>{_N}) failed(?:, (?P<errors>{_N}) errors?)?"
        rf"(?:, (?P<skipped>{_N}) (?:skipped|deselected|xfailed|xpassed|warnings?))* in [\d.]+\s?s",
    ),
    # every test skipped: "12 skipped in 0.08s" (a run of no test; not the tail of "1 passed,
    # 12 skipped in ...", which the first pattern reads)
    ("pytest", rf"(?<!, )(?<![\d,])(?P<skipped>{_N}) skipped(?:, \d+ warnings?)? in [\d.]+\s?s"),
    # unittest / django: "Ran 48 tests in 3.812s" (+ "OK" / "FAILED (failures=2)")
    (
        "unittest",
        rf"Ran (?P<total>{_N}) tests? in [\d.]+s\s*\n+\s*(?:OK|FAILED \((?:failures=(?P<failed>\d+))?"
        rf"(?:, )?(?:errors=(?P<errors>\d+))?)",
    ),
    # jest: "Tests:       3 failed, 211 passed, 214 total"
    (
        "jest",
        rf"Tests:\s+(?:(?P<failed>{_N}) failed, )?(?:(?P<skipped>{_N}) (?:skipped|todo), )*"
        rf"(?P<passed>{_N}) passed, (?P<total>{_N}) total",
    ),
    # vitest: "Tests  3 failed | 132 passed (135)"
    (
        "vitest",
        rf"Tests\s+(?:(?P<failed>{_N}) failed \| )?(?P<passed>{_N}) passed"
        rf"(?: \| (?P<skipped>{_N}) skipped)? \((?P<total>{_N})\)",
    ),
    # cargo: "test result: ok. 37 passed; 0 failed; 0 ignored"
    ("cargo", rf"test result: (?:ok|FAILED)\. (?P<passed>{_N}) passed; (?P<failed>{_N}) failed"),
    # go test: counted per package line, see `go_counts` below
    # mix / minitest / ExUnit: "42 tests, 0 failures" ("1 doctest, 42 tests, 0 failures")
    (
        "mix",
        rf"(?P<total>{_N}) tests?, (?:(?P<assertions>{_N}) assertions, )?(?P<failed>{_N}) failures?"
        rf"(?:, (?P<errors>{_N}) errors?)?(?:, (?P<skipped>{_N}) (?:skips|skipped))?",
    ),
    # rspec: "212 examples, 0 failures"
    (
        "rspec",
        rf"(?P<total>{_N}) examples?, (?P<failed>{_N}) failures?(?:, (?P<skipped>{_N}) pending)?",
    ),
    # maven surefire / gradle junit: "Tests run: 212, Failures: 0, Errors: 0, Skipped: 3"
    (
        "maven",
        rf"Tests run: (?P<total>{_N}), Failures: (?P<failed>{_N}), Errors: (?P<errors>{_N})"
        rf"(?:, Skipped: (?P<skipped>{_N}))?",
    ),
    # gradle: "47 tests completed, 2 failed" / "47 tests completed, 47 passed"
    (
        "gradle",
        rf"(?P<total>{_N}) tests completed, (?:(?P<failed>{_N}) failed|(?P<passed>{_N}) passed)",
    ),
    # dotnet: "Passed!  - Failed:     0, Passed:   156, Skipped:     0, Total:   156"
    (
        "dotnet",
        rf"(?:Passed|Failed)!\s+-\s+Failed:\s+(?P<failed>{_N}),\s+Passed:\s+(?P<passed>{_N}),"
        rf"\s+Skipped:\s+(?P<skipped>{_N})",
    ),
    # mocha: "12 passing (34ms)" / "2 failing"
    (
        "mocha",
        rf"(?P<passed>{_N}) passing \(\d+\s?m?s\)(?:\s*\n\s*(?:(?P<skipped>{_N}) pending\s*\n\s*)?"
        rf"(?P<failed>{_N}) failing)?",
    ),
    # playwright: "12 passed (34.2s)", "75 passed (2.4m)", "2 failed" (also in a CLI's box: "│ 3 passed (1.1s) │")
    (
        "playwright",
        rf"^[\s│]*(?:(?P<failed>{_N}) failed[\s│]*\n(?:.*\n){{0,20}}?)?[\s│]*(?P<passed>{_N}) passed "
        rf"\([\d.]+(?:m?s|m|h)\)",
    ),
    # the same summary quoted inline after its command: "`npx playwright test` → 3 passed (4.2s)"
    ("playwright", rf"(?:→|->|:) (?P<passed>{_N}) passed \([\d.]+(?:m?s|m|h)\)"),
    # phpunit: "OK (41 tests, 97 assertions)" / "Tests: 41, Assertions: 97, Failures: 2."
    ("phpunit", rf"OK \((?P<passed>{_N}) tests?, {_N} assertions?\)"),
    (
        "phpunit",
        rf"Tests: (?P<total>{_N}), Assertions: {_N}(?:, Failures: (?P<failed>{_N}))?"
        rf"(?:, Errors: (?P<errors>{_N}))?",
    ),
    # bun test: " 23 pass" then " 1 fail" on the next line
    ("bun", rf"^[ \t]*(?P<passed>{_N}) pass[ \t]*\n[ \t]*(?P<failed>{_N}) fail\b"),
    # node:test / TAP: "# pass 12" ... "# fail 0"
    ("node", rf"# pass (?P<passed>{_N})\s*\n(?:#.*\n)*?# fail (?P<failed>{_N})"),
    # ctest: "100% tests passed, 0 tests failed out of 24"
    ("ctest", rf"\d+% tests passed, (?P<failed>{_N}) tests? failed out of (?P<total>{_N})"),
    # swift / XCTest: "Executed 37 tests, with 0 failures"
    ("xctest", rf"Executed (?P<total>{_N}) tests?, with (?P<failed>{_N}) failures?"),
    # prove / Test::Harness: "Files=4, Tests=52" + "Result: PASS"
    ("prove", rf"Files=\d+, Tests=(?P<total>{_N}),.*\n(?:.*\n)?Result: (?:PASS|FAIL)"),
    # cabal / hspec: "52 examples, 0 failures" handled by rspec; "OK, passed 100 tests."
    ("quickcheck", rf"\+\+\+ OK, passed (?P<passed>{_N}) tests"),
    # dart / flutter test: "00:09 +64: All tests passed!" / "00:11 +60 -4: Some tests failed."
    (
        "dart",
        rf"\+(?P<passed>{_N})(?: ~(?P<skipped>{_N}))?(?: -(?P<failed>{_N}))?: (?:All tests passed!|Some tests failed)",
    ),
    # plain: "N passed, N failed" (+ optional ", N skipped"), also in prose
    (
        "generic",
        rf"(?P<passed>{_N}) (?:tests? )?(?:passed|passing|pass|ok),? (?:and )?(?P<failed>{_N}) "
        rf"(?:failed|failures?|failing)",
    ),
    # "101 tests pass, 0 failures" / "all 154 tests pass" / "81/81 tests pass" (also said in
    # other languages: "96/96 通过", "42/42 bestanden")
    (
        "generic",
        rf"(?P<passed>{_N})/(?P<total>{_N}) (?:tests? )?(?:(?:pass(?:ed|ing)?|green|ok)\b|"
        rf"通过|通過|合格|통과|(?:bestanden|réussis|pasaron|passaram|superati|пройден\w*|"
        rf"geslaagd|zaliczon\w*|lulus|başarılı)\b)",
    ),
    (
        "generic",
        rf"(?P<passed>{_N}) (?:[\w-]+ ){{0,2}}tests? (?:(?:now|all) )?(?:pass(?:ed|ing)?|green|ok)\b",
    ),
    ("generic", rf"\bTests?:?\s+(?P<passed>{_N}) passed\b"),
    ("generic", rf"(?P<passed>{_N}) tests?, 0 fail(?:ures|ed)"),
    # a runner named, then its count: "pytest: 58 passed", "vitest: 12 passing"
    (
        "generic",
        rf"\b(?:pytest|jest|vitest|mocha|rspec|phpunit|unittest|go test|cargo test|npm test)"
        rf"\s?:\s?(?P<passed>{_N}) (?:tests? )?(?:passed|passing)\b(?!,? (?:and )?{_N} fail)",
    ),
    # Unity's test runner and others: "Total: 71  Passed: 71  Failed: 0"
    ("generic", rf"\bTotal:\s*{_N},?\s+Passed:\s*(?P<passed>{_N}),?\s+Failed:\s*(?P<failed>{_N})"),
    # a run quoted inline after its command: "`npm test -- search` → 12 passed" (or "— 12
    # passed"), "`pytest
    # tests/x -q` (17 passed)", "`npm test`: 54 passing" (the backtick closes the command:
    # not "→ `5 passed`", a count quoted by itself)
    (
        "generic",
        rf"(?<=[^\s`])`\s?(?:→|->|:|—|–)?\s?[(（]?(?P<passed>{_N}) (?:tests? )?(?:passed|passing)\b"
        rf"(?!,? (?:and )?{_N} fail)",
    ),
)

# "passed" in other languages, after a count ("96/96 通过"): anchors of the generic runner,
# and test words of a summary line (`summaries.TEST_WORDS`)
OTHER_PASS_WORDS = (
    "通过",
    "通過",
    "合格",
    "통과",
    "bestanden",
    "réussis",
    "pasaron",
    "passaram",
    "superati",
    "пройден",
    "geslaagd",
    "zaliczon",
    "lulus",
    "başarılı",
)

# A pattern runs only when one of its anchor words is in the lowercased text: a cheap
# substring test that skips most patterns on most messages.
_ANCHORS: dict[str, tuple[str, ...]] = {
    "pytest": (" passed", " failed", " skipped in"),
    "unittest": ("ran ",),
    "jest": ("tests:",),
    "vitest": ("tests ",),
    "cargo": ("test result",),
    "mix": (" tests,", " test,"),
    "rspec": ("example",),
    "maven": ("tests run",),
    "gradle": ("tests completed",),
    "dotnet": ("passed!", "failed!"),
    "mocha": ("passing",),
    "playwright": (" passed (",),
    "phpunit": ("assertion", "tests:"),
    "bun": (" pass\n",),
    "node": ("# pass",),
    "ctest": ("tests passed",),
    "xctest": ("executed ",),
    "prove": ("files=",),
    "quickcheck": ("+++ ok",),
    "dart": ("tests passed!", "tests failed"),
    "generic": ("pass", " ok", "green", "fail", *OTHER_PASS_WORDS),
}

COMPILED: tuple[tuple[str, tuple[str, ...], Scanner], ...] = tuple(
    (name, _ANCHORS[name], Scanner(p, re.M | re.I, whole=True)) for name, p in RUNNER_PATTERNS
)

# go test prints one line per package; "ok" lines pass and "FAIL" lines fail.
GO_PACKAGE = Scanner(r"^(ok|FAIL)\s+(\S+)\s+(?:[\d.]+s|\(cached\))", re.M, whole=True)
GO_TEST_FAIL = Scanner(r"^--- FAIL: \S+", re.M, whole=True)


def go_counts(lines: str) -> tuple[int, int]:
    """(passed, failed) of go test output `lines`: "ok" package lines pass; "FAIL" package
    lines and "--- FAIL: TestX" lines fail. A package that failed and then passed when run
    again ("FAIL pkg", the fix, "ok pkg") was fixed: the failures before its passing re-run
    are the "before", not the result, and each package passes once."""
    packages = list(GO_PACKAGE.finditer(lines))
    failed: set[str] = set()
    rerun = -1  # where the last passing re-run of a failed package ends
    for m in packages:
        if m.group(1) == "FAIL":
            failed.add(m.group(2))
        elif m.group(2) in failed:
            rerun = m.end()
    last = {m.group(2): m.group(1) for m in packages}
    passed = sum(1 for status in last.values() if status == "ok")
    failures = [m for m in packages if m.group(1) == "FAIL" and m.start() > rerun]
    tests = [m for m in GO_TEST_FAIL.finditer(lines) if m.start() > rerun]
    return passed, len(failures) + len(tests)


# Runs that executed nothing prove nothing.
NOTHING_RAN = Scanner(
    r"no tests ran|collected 0 items|Ran 0 tests|0 examples|No tests found|"
    r"running 0 tests|Tests:\s+0 total|no test files|^\s*0 passing\b",
    re.I | re.M,
    indexed=True,
)
