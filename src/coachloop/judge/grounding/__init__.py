"""Grounding: the content judge's verdict checked against the turn's own record.

A stage of the judge pipeline (signals -> content judge -> grounding -> coach). Given
the content verdict and the `JudgeInput` carrying a `TurnRecord`:

- no record, or a signal verdict: unchanged. An unusable record (stale, unreadable):
  unchanged, with a note in the reason saying the record was not used and why.
- questions, blockers and errors stay delivered, whatever the record says.
- a completion, or a completion the content judge rejected: the message's claims are
  checked (`checks.findings`); any finding makes it a rejected completion whose
  problems name the fact (the failing tests, the files edited after the last run, no
  run, output found nowhere, no commit). Grounding turns a delivery into a
  continuation only on such a checked, named finding.
- a completion rejected only for lack of shown verification ("unverified",
  "no_evidence"), or for failures read off output that is the last run's own (a runner's
  partial summary such as cargo's doc-tests "0 passed"), whose record holds a passing
  last test run with no code edited after it: delivered as a completion, the run cited
  in `evidence.recorded`.
- work the content judge would send back (status) while the record shows a tool call
  refused for lack of permission that the message speaks of: a blocker, delivered.
- delivered completions carry the record's citations in `evidence.recorded`.

`prepare(item)` gives the content judge the record's prompt when the stop carries none
(an answer to a question needs no tests).
"""

from __future__ import annotations

import re
from dataclasses import replace

from coachloop.core.judge_input import JudgeInput
from coachloop.core.record import TurnRecord
from coachloop.core.verdict import Problem, Verdict
from coachloop.judge.grounding.checks import backing, citations, findings, label
from coachloop.judge.grounding.claims import Claims, read_claims

__all__ = ["ground", "prepare"]

_WEAK = frozenset({"unverified", "no_evidence"})  # superseded by what the record shows
_PERMISSION = re.compile(
    r"\bpermission|\bdenied\b|\bnot (?:allowed|permitted)\b|\bapprov|\bgrant|\ballow\b", re.I
)
GROUNDED_CONFIDENCE = 0.95


def prepare(item: JudgeInput) -> JudgeInput:
    """`item` with the record's prompt when it has none of its own."""
    rec = item.record
    if rec is None or not rec.usable or not rec.prompt or (item.prompt or "").strip():
        return item
    return replace(item, prompt=rec.prompt)


def _noted(verdict: Verdict, note: str) -> Verdict:
    return replace(verdict, reason=f"{verdict.reason} [{note}]")


def _rejected(verdict: Verdict, found: list[Problem], rec: TurnRecord) -> Verdict:
    kept = [p for p in verdict.problems if p.kind not in _WEAK]
    coaching = verdict.coaching_message
    if coaching:  # the content judge's own words follow the checked facts
        from coachloop.coach import rejection_lines

        coaching = "\n".join([*rejection_lines(found), coaching])
    return Verdict(
        type="status",
        route="continue",
        confidence=GROUNDED_CONFIDENCE,
        reason=f"{label(rec)} contradicts the message: {found[0].detail}",
        source=verdict.source,
        coaching_message=coaching,
        rejected_completion=True,
        evidence=replace(verdict.evidence, recorded=citations(rec)),
        problems=(*found, *kept),
    )


def _confirmed(verdict: Verdict, cited: str, rec: TurnRecord) -> Verdict:
    return Verdict(
        type="completion",
        route="deliver",
        confidence=max(verdict.confidence, 0.9),
        reason=f"finished; {label(rec)} backs it: {cited.split(': ', 1)[-1]}",
        source=verdict.source,
        evidence=replace(verdict.evidence, recorded=citations(rec)),
    )


def _outweighed(problem: Problem, claims: Claims, rec: TurnRecord) -> bool:
    """A content problem the record settles (its last run passed, nothing changed since):
    verification not shown, or a failing reading of output that is that very run's."""
    if problem.kind in _WEAK:
        return True
    last = rec.last_test
    if problem.kind != "failing" or last is None or not claims.shown:
        return False
    counts = {(s.passed, s.failed) for s in last.summaries}
    return all((s.passed, s.failed) in counts for s in claims.shown)


def _blocked(verdict: Verdict, rec: TurnRecord, text: str) -> Verdict | None:
    denied = rec.denials
    if not denied or not _PERMISSION.search(text):
        return None
    tools = ", ".join(dict.fromkeys(c.tool for c in denied))
    return Verdict(
        type="blocker",
        route="deliver",
        confidence=0.9,
        reason=f"{label(rec)} shows {tools} refused for lack of permission; a person must "
        "grant it or decide",
        source=verdict.source,
        evidence=verdict.evidence,
    )


def ground(verdict: Verdict, item: JudgeInput) -> Verdict:
    """The verdict confirmed or corrected by `item.record` (see the module docstring)."""
    rec = item.record
    if rec is None or verdict.source == "signal":
        return verdict
    if not rec.usable:
        return _noted(verdict, f"turn record not used: {rec.source}: {rec.note}")
    if verdict.type not in ("completion", "status"):
        return verdict
    if verdict.type == "status" and not verdict.rejected_completion:
        return _blocked(verdict, rec, item.text) or verdict
    # The rules judge's verdict carries the message's evidence; an LLM verdict does not.
    claims = read_claims(item.text, verdict.evidence if verdict.source == "rules" else None)
    found = findings(rec, claims)
    if found:
        return _rejected(verdict, found, rec)
    if verdict.type == "status":
        cited = backing(rec)
        if (
            cited
            and verdict.problems
            and all(_outweighed(p, claims, rec) for p in verdict.problems)
        ):
            return _confirmed(verdict, cited, rec)
        return _blocked(verdict, rec, item.text) or verdict
    recorded = citations(rec)
    if not recorded:
        return verdict
    return replace(verdict, evidence=replace(verdict.evidence, recorded=recorded))
