"""A message's claims checked against its turn's record: findings and citations.

`findings(record, claims)` lists what the record refutes, each a `Problem` naming the
fact: the last test run failed (with the failing tests), no test ran, the tests shown
match no run of the turn, code changed after the last run (the files), a commit claimed
but none made or the cited hash never printed. Facts about absence (no run, no commit,
output found nowhere) are only stated from a complete record. `backing(record)` is the
citation of a last test run that passed with no code edited after it; `citations`
lists every fact worth citing in a verdict's evidence.
"""

from __future__ import annotations

import re

from coachloop.core.record import TestRun, TurnRecord
from coachloop.core.verdict import Problem, TestSummary
from coachloop.judge.grounding.claims import Claims

__all__ = ["backing", "citations", "findings", "label"]

_SHOWN_FILES = 5


def label(record: TurnRecord) -> str:
    """How a verdict names the record: "the transcript", "the Claude Code stream"."""
    return "the transcript" if "transcript" in record.source.lower() else f"the {record.source}"


def _short(text: str, limit: int = 80) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def run_text(run: TestRun) -> str:
    """The run and its outcome: `python -m pytest -q` → 1 failed, 1 passed."""
    return f"`{_short(run.command)}` → {run.outcome()}"


def shown_text(shown: TestSummary) -> str:
    """A shown summary as quoted back: its line, or its counts when the line says little
    ("OK", "# fail 0")."""
    line = _short(shown.line)
    if len(line) >= 12 and any(ch.isdigit() for ch in line):
        return line
    return f"{shown.passed} passed" + (f", {shown.failed} failed" if shown.failed else "")


def _norm(text: str) -> str:
    return " ".join(text.split()).lower()


def _counted(shown: TestSummary, output: str) -> bool:
    """The run's output states the shown counts ("42 passed", "1 failed"), whatever the
    runner's exact summary line."""
    passed = re.search(rf"\b{shown.passed}\s+(?:tests?\s+)?pass", output)
    failed = shown.failed == 0 or re.search(rf"\b{shown.failed}\s+(?:tests?\s+)?fail", output)
    return bool(passed and failed)


def _shown_in_record(shown: TestSummary, record: TurnRecord) -> bool:
    for run in record.tests:
        if any((s.passed, s.failed) == (shown.passed, shown.failed) for s in run.summaries):
            return True
        if _counted(shown, record.calls[run.call].output):
            return True
    line = _norm(shown.line)
    return len(line) >= 12 and any(line in _norm(c.output) for c in record.calls)


def _commit_known(sha: str, record: TurnRecord) -> bool:
    low = sha.lower()
    if any(c.startswith(low) or low.startswith(c) for c in record.commits):
        return True
    return any(low in c.output.lower() for c in record.calls if c.kind == "command")


def _test_findings(record: TurnRecord, claims: Claims) -> list[Problem]:
    last = record.last_test
    quote = claims.tests_pass
    if last is None:
        if not record.complete:
            return []
        shown = next((s for s in claims.shown if s.ok), None)
        if shown is not None:
            detail = (
                f"the test output you show (“{shown_text(shown)}”) appears nowhere in this "
                "turn's tool outputs: no test ran in this turn"
            )
            return [Problem(kind="unverifiable", detail=detail, quote=shown_text(shown))]
        return [Problem(kind="no_run", detail="no test ran in this turn", quote=quote)]
    if not last.ok:
        names = ", ".join(last.failing[:_SHOWN_FILES])
        detail = f"the last test run of this turn ({run_text(last)}) failed"
        detail += f": {names}" if names else ""
        return [Problem(kind="run_failed", detail=detail, quote=quote)]
    edited = record.edits_after(last.call)
    if edited:
        files = ", ".join(edited[:_SHOWN_FILES]) + (" …" if len(edited) > _SHOWN_FILES else "")
        detail = f"the code changed after the last test run ({run_text(last)}): {files}"
        return [Problem(kind="edited_after_run", detail=detail, quote=quote)]
    return []


def _commit_findings(record: TurnRecord, claims: Claims) -> list[Problem]:
    if not record.complete or not claims.commit:
        return []  # a hash cited without a claim of committing may be history
    unknown = [h for h in claims.hashes if not _commit_known(h, record)]
    if unknown:
        detail = f"the commit {unknown[0]} you cite was not made in this turn"
        return [Problem(kind="unverifiable", detail=detail, quote=unknown[0])]
    if claims.commit and not claims.hashes and not record.committed:
        detail = "no `git commit` succeeded in this turn"
        return [Problem(kind="no_commit", detail=detail, quote=claims.commit)]
    return []


def findings(record: TurnRecord, claims: Claims) -> list[Problem]:
    """What `record` refutes in `claims` (see the module docstring); empty: nothing."""
    found = _test_findings(record, claims) if claims.tests else []
    if record.complete and not any(p.kind == "unverifiable" for p in found):
        for shown in claims.shown:
            if not _shown_in_record(shown, record):
                said = shown_text(shown)
                detail = f"the test result you show (“{said}”) matches no test run of this turn"
                found.append(Problem(kind="unverifiable", detail=detail, quote=said))
                break
    return found + _commit_findings(record, claims)


def backing(record: TurnRecord) -> str | None:
    """The citation of the turn's last test run when it passed and no code changed after
    it ("from the transcript: `python -m unittest` → 2 tests OK, after the last edit")."""
    last = record.last_test
    if last is None or not last.ok or record.edits_after(last.call):
        return None
    after = ", after the last edit" if record.edits_after(-1) else ""
    return f"from {label(record)}: {run_text(last)}{after}"


def citations(record: TurnRecord) -> tuple[str, ...]:
    """The record's facts worth citing in a verdict: the backing run, the commits."""
    found = [b] if (b := backing(record)) else []
    if record.commits:
        found.append(f"from {label(record)}: `git commit` → {', '.join(record.commits[:3])}")
    return tuple(found)
