"""Evidence extraction rewritten for speed gives what the plain form gave, on many texts.

The plain forms (kept here as the reference) are the code the rewrites replaced: each
pattern run under a literal test that every one of its matches needs, each text read
whole. They are compared with the module on the project's labelled messages, slices
of them and texts built from pieces that hit the edge cases (marks at the ends, runs
of hex digits, digits outside ASCII, characters whose lowercase is longer).
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

from coachloop.core.verdict import Evidence
from coachloop.core.verdict import TestSummary as Summary
from coachloop.evidence import harness, summaries
from coachloop.evidence import text as evidence
from coachloop.evidence.runners import COMPILED, NOTHING_RAN, go_counts

DATA = Path(__file__).parent / "data"
PIECES = [
    "a", "Z", " ", "  ", "\n", "\t", "\u00a0", ".", "/", "./", "..", ":", "=", "`", "0", "7",
    "٣", "İ", "ſ", "Σ", "✅", "x.py", "a/b", "src/app.ts:12", "e.g.", "Done.", "(docs/x.md)",
    "https://ci.example/org/r/actions/runs/12 ", "https://github.com/a/b/pull/3", "://",
    "3f2a9c1", "deadbeef", "1234567", "committed (`8784263`)", "ABCDEF0", "commit ", "sha ", "head ",
    "exit 1", "exit code 2", "rc=3", "rc", "returncode: 0", "passed", "green", "succeeded",
    " 0 dead links", "200 OK", "returned 200", "0 errors", "BUILD SUCCESS", "SUCCESS:", "OK",
    "PASS", "Done in 3.2s", "Finished `dev", "Success: no issues found", "Apply complete!",
    "congratulations :)", "unreachable=0", "View at:", "✨  Done", "Compiled successfully",
    "12 passed in 0.3s", "3 failed", "Tests: 4 passed, 4 total", "ok  \tpkg\t0.1s",
    "FAIL\tpkg\t0.2s", "no tests ran", "collected 0 items", "0 passing", "error: x",
    "Traceback (most recent call last)", "$ make test", "> npm test", "test", "ok",
    "guide.adoc", "no teſt files", "commıt ", "Exıt 4",
]  # fmt: skip


def _texts() -> list[str]:
    found = [""]
    for name in ("dev.jsonl", "holdout.jsonl"):
        for line in (DATA / name).read_text(encoding="utf-8").splitlines():
            found.append(json.loads(line)["text"])
    rng = random.Random(23)
    found += [t[rng.randint(0, len(t)) :][: rng.randint(0, 400)] for t in found[:300]]
    found += [t.upper() for t in found[:100]] + [t.replace("\n", " ") for t in found[:100]]
    for _ in range(6000):
        found.append("".join(rng.choice(PIECES) for _ in range(rng.randint(0, 30))))
    return found


TEXTS = _texts()


def _plain_paths(text: str) -> list[str]:
    words = [word for word in text.split() if "/" in word or "." in word]
    return evidence._PATH.findall(" ".join(words)) if words else []


def _plain_test_lines(text: str) -> str:
    lines = text.split("\n")
    keep: set[int] = set()
    for i, line in enumerate(lines):
        if re.search(r"\d", line) and any(w in line.lower() for w in summaries.TEST_WORDS):
            keep.update(range(max(i - 1, 0), min(i + 3, len(lines))))
    return "\n".join(lines[i] for i in sorted(keep))


def _plain_tests(text: str, low: str) -> list[Summary]:
    found: list[Summary] = []
    used: set[int] = set()
    candidates = _plain_test_lines(text)
    lowered = candidates.lower()
    for runner, anchors, pattern in COMPILED:
        if not candidates or not any(a in lowered for a in anchors):
            continue
        for m in pattern.finditer(candidates):
            line_no = candidates.count("\n", 0, m.start())
            if line_no in used:
                continue
            used.add(line_no)
            found.append(summaries.summary(runner, m))  # the counts: not what was rewritten
    go_ok, go_fail = go_counts(candidates) if candidates else (0, 0)
    if go_ok or go_fail:
        found.append(Summary("go", go_ok, go_fail, 0, "go test packages"))
    if not found and any(w in low for w in ("0 ", "no te")) and NOTHING_RAN.search(text):
        found.append(Summary("none", 0, 0, 0, "no tests ran"))
    return found


def _plain_successes(text: str) -> tuple[str, ...]:
    found = [m for m in evidence._SUCCESS_MARKERS if m in text]
    if "://" in text and evidence._CI_PASSED.search(text):
        found += [f"CI run {url}" for url in evidence._CI_RUN.findall(text)]
    found += [m.strip() for m in evidence._SUCCESS_LINES.findall(text)]
    return evidence._unique(found)


def _plain_extract(text: str) -> Evidence:
    lowered = text.lower()
    words = ("`", "commit", "sha", "hash", "tag", "rev", "head", "confirmado", "..")
    has_commit = any(w in lowered for w in words) and re.search(r"[0-9a-fA-F]{7}", text)
    found = evidence._COMMIT.findall(text) if has_commit else []
    hashes = [(a or b or c, a) for a, b, c in found]
    if has_commit:
        hashes += [(h, "") for h in evidence._ONELINE.findall(text)]
    commits = [
        h
        for h, named in hashes
        if re.search(r"\d", h) and (re.search(r"[a-f]", h) or re.fullmatch(r"\d+", named))
    ]
    no_urls = re.sub(r"https?://\S+", " ", text) if "://" in text else text
    paths = [p for p in _plain_paths(no_urls) if not p.startswith("//")]
    may_exit = any(w in lowered for w in ("exit", "returncode", "rc ", "rc:", "rc="))
    exits = [int(a or b) for a, b in evidence._EXIT.findall(text)] if may_exit else []
    failing = any(w in lowered for w in evidence._FAILURE_WORDS)
    failures = evidence._FAILURE.findall(text) if failing else []
    out = re.compile(evidence._FAILURE_OUT.source, evidence._FAILURE_OUT.flags)
    failures += [
        m.group(0)
        for m in out.finditer(text)
        if not any(call in text[m.end() :] for call in evidence._CALLS)
    ]
    return Evidence(
        tests=tuple(_plain_tests(text, lowered)),
        commits=evidence._unique(commits),
        pull_requests=evidence._unique(evidence._PR.findall(text)) if "http" in lowered else (),
        paths=evidence._unique(paths),
        commands=evidence._unique(
            [
                c.strip()
                for c in evidence._COMMAND.findall(text)
                + evidence._INLINE_RUN.findall(text)
                + harness.commands(text)
            ]
        ),
        exit_codes=tuple(exits[:20]),
        successes=_plain_successes(text),
        failures=evidence._unique([f.strip()[:200] for f in failures]),
    )


def test_extract_matches_the_plain_form() -> None:
    for text in TEXTS:
        want = _plain_extract(text)
        assert evidence.extract(text) == want, text
        assert evidence.extract(text, text.lower()) == want, text


def test_rewritten_parts_match_their_plain_forms() -> None:
    for text in TEXTS:
        assert evidence._paths(text) == _plain_paths(text), text
        assert summaries.summary_lines(text) == _plain_test_lines(text), text
        assert evidence._has_hex_run(text) == bool(re.search(r"[0-9a-fA-F]{7}", text)), text
        assert evidence._successes(text, "://" in text) == _plain_successes(text), text


def test_the_screens_are_in_what_they_screen() -> None:
    assert all(screen in marker for marker, screen in evidence._SCREEN_OF.items())
    assert set(evidence._SCREEN_OF) == set(evidence._SUCCESS_MARKERS)
    assert all(s in evidence._SCREENS for s in evidence._SCREEN_OF.values())
    lines = re.compile(evidence._SUCCESS_LINES.source, evidence._SUCCESS_LINES.flags)
    ci = re.compile(evidence._CI_RUN.source)
    for text in TEXTS:
        for m in lines.finditer(text):
            assert any(w in m.group(0) for w in evidence._SUCCESS_LINE_WORDS), m.group(0)
        for m in ci.finditer(text):
            assert any(p in m.group(0) for p in evidence._CI_PARTS), m.group(0)


def test_every_failure_holds_a_failure_part() -> None:
    rx = re.compile(evidence._FAILURE.source, evidence._FAILURE.flags)
    made = [
        "FAILED x", " FAIL", "error: x", "error[E0308]: y", "ERROR x", "fatal: no", "npm ERR! z",
        "✗ a", " ✕ b", "× c", "failed=2", "Traceback (most recent call last)", "could not compile",
        "BUILD FAILED", "BUILD FAILURE", "AssertionError", "a.py:3:1: error x", "Found 2 errors",
        "make: *** [all] Error 2", "exit code 3", "exit status: 4", "Type error: x",
        "Failed to compile.", "a.ts(1,2): error TS2322: x",
    ]  # fmt: skip
    for piece in evidence._FAILURE.pieces():  # each alternative is made
        assert any(re.search(piece, m, evidence._FAILURE.flags) for m in made), piece
    for text in [*TEXTS, *made, *(f"x\n{m}\ny" for m in made)]:
        if rx.search(text):
            assert text.startswith(evidence._FAILURE_STARTS) or any(
                p in text for p in evidence._FAILURE_PARTS
            ), text
    assert all(rx.search(m) for m in made)


def test_every_last_output_failure_holds_its_part() -> None:
    rx = re.compile(evidence._FAILURE_OUT.source, evidence._FAILURE_OUT.flags)
    made = [
        "  ⎿  Error: UPGRADE FAILED", "│ Error: updating x", "     error: deployment x",
        "\tFATAL: role", "Error: x", "migration 1 failed with error: y", "HTTP/1.1 502 Bad",
    ]  # fmt: skip
    for piece in evidence._FAILURE_OUT.pieces():
        assert any(re.search(piece, m, rx.flags) for m in made), piece
    for text in [*TEXTS, *made]:
        if rx.search(text):
            assert any(p in text for p in evidence._FAILURE_OUT_PARTS), text
    assert all(rx.search(m) for m in made)
