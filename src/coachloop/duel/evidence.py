"""Evidence gathered in code before any coach decides, and what in it blocks approval.

`gather(...)` runs the whole test suite cleanly (`cleanrun`: only the runner's own
report counts), compares the suite with the baseline and re-runs the baseline's
failing tests from the original test files (`integrity`), runs coverage
(informational), takes the diff since the duel began, and compares the player's
report with the repository; the orchestrator adds what the player touched outside
its workspace (`reach`). `TurnEvidence.blockers()` is the list of findings that make an
approval impossible, each a critical, actionable `FeedbackItem`: tests that failed,
did not run (no report), ran none, ran only in part, or timed out; integrity and
reach findings the requirements did not ask for; a report that is missing, not JSON
or off-schema; claims the repository contradicts; a player that crashed or timed
out. Every coach sees the same evidence, and `enforce` applies the same blockers
whatever the coach said.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from coachloop.duel import baseline, pristine
from coachloop.duel.baseline import Baseline
from coachloop.duel.claims import ClaimCheck, check_claims
from coachloop.duel.cleanrun import SuiteRun
from coachloop.duel.decision import FeedbackItem
from coachloop.duel.files import ReportRead
from coachloop.duel.findings import Finding
from coachloop.duel.players import PlayerRun
from coachloop.duel.tools import CoachTools

__all__ = ["TestEvidence", "TurnEvidence", "gather", "integrity", "test_evidence"]

TestStatus = Literal["passed", "failed", "incomplete", "timeout", "not_run", "error", "no_tests"]
OUTPUT_TAIL = 4000
MAX_FAILING_ITEMS = 8


@dataclass(frozen=True, slots=True)
class TestEvidence:
    """One clean run of the whole suite, as the runner's own report shows it."""

    __test__ = False

    status: TestStatus
    command: str | None
    exit_code: int | None = None
    duration_s: float = 0.0
    passed: int | None = None
    failed: int | None = None  # failed or erred
    failing: tuple[tuple[str, str], ...] = ()
    output_tail: str = ""
    note: str = ""
    skipped: int | None = None  # skipped or xfailed


def test_evidence(run: SuiteRun, timeout: float) -> TestEvidence:
    """A clean run as evidence; counts come from the runner's report, never its text."""
    report = run.report
    note = run.note
    if run.status == "timeout":
        note = f"killed after {timeout:g}s"
    return TestEvidence(
        status=run.status,
        command=run.command or None,
        exit_code=run.exit_code,
        duration_s=round(run.duration_s, 3),
        passed=report.count("passed") if report else None,
        failed=report.count("failed", "error") if report else None,
        failing=run.failing,
        output_tail=run.output[-OUTPUT_TAIL:],
        note=note,
        skipped=report.count("skipped", "xfailed") if report else None,
    )


@dataclass(frozen=True, slots=True)
class TurnEvidence:
    """What the repository shows after a player's turn."""

    turn: int
    tests: TestEvidence
    report: dict[str, Any] | None  # the valid report as JSON, or None
    report_error: str | None
    player: PlayerRun
    claims: ClaimCheck = field(default_factory=ClaimCheck)
    changed_this_turn: tuple[str, ...] = ()
    changed_since_start: tuple[str, ...] = ()
    diff: str = ""  # the diff_changes text (already cut past 10,000 characters)
    coverage: str = ""  # the check_coverage text, or why there is none
    coverage_percent: float | None = None
    specific_command: str = ""  # how to rerun one test, with {test} for its id
    integrity: tuple[Finding, ...] = ()  # the suite against the baseline, pristine reruns
    reach: tuple[Finding, ...] = ()  # writes outside the workspace

    def findings(self) -> list[Finding]:
        """Every integrity and reach finding, blocking or asked for by the requirements."""
        return [*self.integrity, *self.reach]

    def blockers(self) -> list[FeedbackItem]:
        """Findings that make approval impossible (see the module docstring)."""
        out: list[FeedbackItem] = []
        t = self.tests
        rerun = self.specific_command or (t.command or "the test command")
        if t.status == "failed":
            for name, why in t.failing[:MAX_FAILING_ITEMS]:
                out.append(
                    _critical(
                        f"Test {name} fails" + (f": {why}" if why else ""),
                        f"Make it pass (run `{rerun.replace('{test}', name)}`); fix the "
                        "code, or the test only if the test itself is wrong.",
                        location=name,
                    )
                )
            if not t.failing:
                out.append(
                    _critical(
                        f"The test suite fails (`{t.command}` exited with {t.exit_code})",
                        "Run the test command, read the first failure and fix it.",
                    )
                )
        elif t.status == "timeout":
            out.append(
                _critical(
                    f"The test suite did not finish ({t.note}); no result means no approval",
                    "Find what hangs (a loop, a blocking call, a network wait) and make "
                    "every test finish quickly.",
                )
            )
        elif t.status == "incomplete":
            out.append(
                _critical(
                    f"Not every collected test ran: {t.note}",
                    "Find what stops the run early (a conftest.py hook, an exit call) "
                    "and let every test run.",
                )
            )
        elif t.status in ("not_run", "error", "no_tests"):
            out.append(
                _critical(
                    f"No tests ran: {t.note or t.status}",
                    "Write tests for the requirements (and make sure the project's test "
                    "command finds them).",
                )
            )
        out += [
            _critical(f.issue, f.action, location=f.location) for f in self.findings() if f.blocking
        ]
        if self.report_error:
            out.append(
                _critical(
                    f"Player report: {self.report_error}",
                    "Write a valid report.json at the path in COACHLOOP_REPORT, as "
                    "report.schema.json describes.",
                )
            )
        if self.claims.files_unchanged:
            out.append(
                _critical(
                    "The report lists files that were not changed: "
                    + ", ".join(self.claims.files_unchanged),
                    "Make the changes you describe, and list only files you changed.",
                )
            )
        if self.claims.tests_absent:
            out.append(
                _critical(
                    "The report lists tests that do not exist: "
                    + ", ".join(self.claims.tests_absent),
                    "Write those tests, or stop claiming them.",
                )
            )
        if self.report and self.report.get("tests_passing") is True and t.status != "passed":
            out.append(
                _critical(
                    f"The report claims the tests pass, but the run shows {t.status}",
                    "Run the tests yourself before reporting, and report what they show.",
                )
            )
        p = self.player
        if p.error or p.timed_out or (p.exit_code not in (0, None)):
            what = p.error or ("timed out" if p.timed_out else f"exited with code {p.exit_code}")
            out.append(
                _critical(
                    f"The player's turn did not finish cleanly: {what}",
                    "Finish the work within the turn and exit cleanly.",
                )
            )
        return out

    def to_json(self) -> dict[str, Any]:
        """The evidence as JSON (the diff and test output clipped as stored)."""
        data = asdict(self)
        data["blockers"] = [b.model_dump(mode="json") for b in self.blockers()]
        for key in ("integrity", "reach"):
            data[key] = [dict(asdict(f), blocking=f.blocking) for f in getattr(self, key)]
        return data


def _critical(issue: str, action: str, *, location: str | None = None) -> FeedbackItem:
    """A blocker: feedback of severity "critical"."""
    return FeedbackItem(severity="critical", issue=issue, action=action, location=location)


def integrity(
    tools: CoachTools,
    base: Baseline,
    *,
    run: SuiteRun,
    files_now: tuple[str, ...],
    requirements: str,
    links: Mapping[str, str],
) -> list[Finding]:
    """The turn's suite against the baseline, and the baseline's failing tests re-run
    from the original test files when the suite's files changed."""
    suite = baseline.read_suite(tools.project, files_now)
    found = baseline.compare(base, run, suite, requirements)
    if pristine.needed(base, suite):
        excused = {f.location for f in found if not f.blocking and f.location}
        wanted = [t for t in base.failing if t not in excused]
        keep = frozenset(loc.split("::", 1)[0] for loc in excused)
        found += pristine.rerun(base, tools, files_now=suite, tests=wanted, links=links, keep=keep)
    return found


def gather(
    tools: CoachTools,
    *,
    turn: int,
    read: ReportRead,
    player: PlayerRun,
    changed_this_turn: tuple[str, ...],
    changed_since_start: tuple[str, ...],
    files_now: tuple[str, ...],
    coverage: bool = True,
    base: Baseline | None = None,
    requirements: str = "",
    links: Mapping[str, str] | None = None,
) -> TurnEvidence:
    """Run the tests cleanly (and coverage), compare the suite with the baseline `base`
    (when given), take the diff, and check the report's claims."""
    run = tools.test_run()
    tests = test_evidence(run, tools.timeout)
    found = (
        integrity(
            tools, base, run=run, files_now=files_now, requirements=requirements, links=links or {}
        )
        if base is not None
        else []
    )
    cover = tools.check_coverage() if coverage and tests.status == "passed" else None
    report_json: dict[str, Any] | None = None
    claims = ClaimCheck()
    if read.report is not None:
        report_json = asdict(read.report)
        claims = check_claims(tools.project, read.report, changed_since_start, files_now)
    specific = ""
    if tools.command is not None and tools.command.runner in ("pytest", "cargo", "mix", "rspec"):
        specific = " ".join(tools.command.specific(["{test}"]))
    return TurnEvidence(
        turn=turn,
        tests=tests,
        report=report_json,
        report_error=read.error,
        player=player,
        claims=claims,
        changed_this_turn=changed_this_turn,
        changed_since_start=changed_since_start,
        diff=tools.diff_changes().text,
        coverage=cover.text[-2000:] if cover else "not measured (tests did not pass)",
        coverage_percent=cover.data.get("percent") if cover else None,
        specific_command=specific,
        integrity=tuple(found),
    )
