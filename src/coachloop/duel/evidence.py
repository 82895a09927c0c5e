"""Evidence gathered in code before any coach decides, and what in it blocks approval.

`gather(...)` runs the whole test suite, coverage (informational), the diff since the
duel began, and compares the player's report with the repository. `Evidence.blockers()`
is the list of findings that make an approval impossible, each a critical,
actionable `FeedbackItem`: tests that failed, did not run, ran none, or timed out; a
report that is missing, not JSON or off-schema; claims the repository contradicts; a
player that crashed or timed out. Every coach sees the same evidence, and `enforce`
applies the same blockers whatever the coach said.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from coachloop.duel.claims import ClaimCheck, check_claims
from coachloop.duel.decision import FeedbackItem
from coachloop.duel.files import ReportRead
from coachloop.duel.players import PlayerRun
from coachloop.duel.tools import CoachTools, ToolResult

__all__ = ["Evidence", "TestEvidence", "gather", "test_evidence"]

TestStatus = Literal["passed", "failed", "timeout", "not_run", "error", "no_tests"]
OUTPUT_TAIL = 4000
MAX_FAILING_ITEMS = 8


@dataclass(frozen=True, slots=True)
class TestEvidence:
    """One run of the whole suite."""

    __test__ = False

    status: TestStatus
    command: str | None
    exit_code: int | None = None
    duration_s: float = 0.0
    passed: int | None = None
    failed: int | None = None
    failing: tuple[tuple[str, str], ...] = ()
    output_tail: str = ""
    note: str = ""


def test_evidence(result: ToolResult, timeout: float) -> TestEvidence:
    """A `run_all_tests` result as evidence; a run that shows zero tests is `no_tests`."""
    from coachloop.evidence import extract

    data = result.data
    status: TestStatus = data.get("status", "not_run")
    output = str(data.get("output", ""))
    summaries = [s for s in extract(output[-20_000:]).tests if s.runner != "none"]
    passed = sum(s.passed for s in summaries) if summaries else None
    failed = sum(s.failed for s in summaries) if summaries else None
    note = ""
    if status == "failed" and data.get("exit_code") == 5 and "pytest" in str(data.get("command")):
        status, note = "no_tests", "pytest collected no tests (exit code 5)"
    elif status == "passed" and summaries and not passed and not failed:
        status, note = "no_tests", "the runner reported zero tests"
    elif status == "timeout":
        note = f"killed after {timeout:g}s"
    elif status in ("not_run", "error"):
        note = result.text.splitlines()[-1] if result.text else status
    return TestEvidence(
        status=status,
        command=data.get("command"),
        exit_code=data.get("exit_code"),
        duration_s=float(data.get("duration_s", 0.0)),
        passed=passed,
        failed=failed,
        failing=tuple((str(n), str(w)) for n, w in data.get("failing", [])),
        output_tail=output[-OUTPUT_TAIL:],
        note=note,
    )


@dataclass(frozen=True, slots=True)
class Evidence:
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

    def blockers(self) -> list[FeedbackItem]:
        """Findings that make approval impossible (see the module docstring)."""
        out: list[FeedbackItem] = []
        t = self.tests
        rerun = self.specific_command or (t.command or "the test command")
        if t.status == "failed":
            for name, why in t.failing[:MAX_FAILING_ITEMS]:
                out.append(
                    FeedbackItem(
                        severity="critical",
                        issue=f"Test {name} fails" + (f": {why}" if why else ""),
                        action=f"Make it pass (run `{rerun.replace('{test}', name)}`); fix the "
                        "code, or the test only if the test itself is wrong.",
                        location=name,
                    )
                )
            if not t.failing:
                out.append(
                    FeedbackItem(
                        severity="critical",
                        issue=f"The test suite fails (`{t.command}` exited with {t.exit_code})",
                        action="Run the test command, read the first failure and fix it.",
                    )
                )
        elif t.status == "timeout":
            out.append(
                FeedbackItem(
                    severity="critical",
                    issue=f"The test suite did not finish ({t.note}); no result means no approval",
                    action="Find what hangs (a loop, a blocking call, a network wait) and make "
                    "every test finish quickly.",
                )
            )
        elif t.status in ("not_run", "error", "no_tests"):
            out.append(
                FeedbackItem(
                    severity="critical",
                    issue=f"No tests ran: {t.note or t.status}",
                    action="Write tests for the requirements (and make sure the project's test "
                    "command finds them).",
                )
            )
        if self.report_error:
            out.append(
                FeedbackItem(
                    severity="critical",
                    issue=f"Player report: {self.report_error}",
                    action="Write a valid report.json at the path in COACHLOOP_REPORT, as "
                    "report.schema.json describes.",
                )
            )
        if self.claims.files_unchanged:
            out.append(
                FeedbackItem(
                    severity="critical",
                    issue="The report lists files that were not changed: "
                    + ", ".join(self.claims.files_unchanged),
                    action="Make the changes you describe, and list only files you changed.",
                )
            )
        if self.claims.tests_absent:
            out.append(
                FeedbackItem(
                    severity="critical",
                    issue="The report lists tests that do not exist: "
                    + ", ".join(self.claims.tests_absent),
                    action="Write those tests, or stop claiming them.",
                )
            )
        if self.report and self.report.get("tests_passing") is True and t.status != "passed":
            out.append(
                FeedbackItem(
                    severity="critical",
                    issue=f"The report claims the tests pass, but the run shows {t.status}",
                    action="Run the tests yourself before reporting, and report what they show.",
                )
            )
        p = self.player
        if p.error or p.timed_out or (p.exit_code not in (0, None)):
            what = p.error or ("timed out" if p.timed_out else f"exited with code {p.exit_code}")
            out.append(
                FeedbackItem(
                    severity="critical",
                    issue=f"The player's turn did not finish cleanly: {what}",
                    action="Finish the work within the turn and exit cleanly.",
                )
            )
        return out

    def to_json(self) -> dict[str, Any]:
        """The evidence as JSON (the diff and test output clipped as stored)."""
        data = asdict(self)
        data["blockers"] = [b.model_dump(mode="json") for b in self.blockers()]
        return data


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
) -> Evidence:
    """Run the tests (and coverage), take the diff, and check the report's claims."""
    tests = test_evidence(tools.run_all_tests(), tools.timeout)
    cover = tools.check_coverage() if coverage and tests.status == "passed" else None
    report_json: dict[str, Any] | None = None
    claims = ClaimCheck()
    if read.report is not None:
        report_json = asdict(read.report)
        claims = check_claims(tools.project, read.report, changed_since_start, files_now)
    specific = ""
    if tools.command is not None and tools.command.runner in ("pytest", "cargo", "mix", "rspec"):
        specific = " ".join(tools.command.specific(["{test}"]))
    return Evidence(
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
    )
