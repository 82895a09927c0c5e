"""Running the tests so that the player cannot forge the result.

`run(command, cwd, timeout, tests=...)` starts the runner in a fresh process with an
environment the duel builds (no PYTEST_ADDOPTS, PYTHONPATH or other variables that
change what runs; entry-point plugins off) and reads only the runner's own
machine-readable report, written to a temporary folder outside the project:

- pytest runs under an isolated interpreter (`python -I -B`), so a `pytest.py` or
  `sitecustomize.py` in the project cannot stand in for the real runner; the project
  folder goes at the END of the import path. It writes JUnit XML, and a small probe
  (a plugin object given to `pytest.main`) records which tests were collected.
- vitest and jest write their JSON report (`--reporter=json`, `--json`); the runner
  binary is the one found when the duel began, not whatever `npm test` now says.
- a configured command with `report` writes JUnit XML there (deleted before the run).
- any other runner runs, but its result cannot be verified: status `not_run`.

`SuiteRun.status`: passed (a report, every test passed, exit code 0) | failed (a test
failed or erred, or the runner failed despite a clean report) | incomplete (tests were
collected that the report does not show) | no_tests | not_run (no report: the tests
did not run, whatever the exit code) | timeout | error (could not start).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from coachloop.duel import proc, runreport
from coachloop.duel.runreport import RunReport
from coachloop.duel.testcmd import TestCommand

__all__ = ["REPORTING_RUNNERS", "RunStatus", "SuiteRun", "clean_env", "run"]

RunStatus = Literal["passed", "failed", "incomplete", "no_tests", "not_run", "timeout", "error"]
REPORTING_RUNNERS = frozenset({"pytest", "vitest", "jest"})
# Variables that change what a runner runs or how Python starts; never passed on.
_DROPPED = (
    "PYTEST_ADDOPTS",
    "PYTEST_PLUGINS",
    "PYTHONPATH",
    "PYTHONSTARTUP",
    "PYTHONHOME",
    "PYTHONINSPECT",
    "PYTHONSAFEPATH",
    "NODE_OPTIONS",
    "VITEST",
    "JEST_WORKER_ID",
)
_ENV = {
    "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1",
    "PYTHONDONTWRITEBYTECODE": "1",
    "CI": "1",
    "NO_COLOR": "1",
    "FORCE_COLOR": "0",
}

# pytest's entry point: the project folder is importable but cannot shadow the runner,
# and a probe records the collected test ids (written at the end of the session).
_BOOT = """\
import json, os, sys
here = os.getcwd()
# Read directly: this script runs in a bare child interpreter, before coachloop is
# importable (the variable carries the parent's PYTHONPATH to it).
extra = [p for p in os.environ.get("COACHLOOP_PYTHONPATH", "").split(os.pathsep) if p]
sys.path[:] = extra + [p for p in sys.path if p not in ("", ".", here)] + [here]
import pytest
out = sys.argv[1]
class Probe:
    def pytest_collection_finish(self, session):
        self.collected = [item.nodeid for item in session.items]
    def pytest_sessionfinish(self, session, exitstatus):
        with open(out, "w", encoding="utf-8") as handle:
            json.dump({"collected": getattr(self, "collected", None)}, handle)
sys.exit(int(pytest.main(sys.argv[2:], plugins=[Probe()])))
"""


@dataclass(frozen=True, slots=True)
class SuiteRun:
    """One run of the tests as its report shows it (see the module docstring)."""

    __test__ = False

    status: RunStatus
    command: str
    exit_code: int | None
    duration_s: float
    output: str
    report: RunReport | None = None
    collected: tuple[str, ...] | None = None  # pytest: ids collected (after deselection)
    note: str = ""

    @property
    def failing(self) -> tuple[tuple[str, str], ...]:
        return self.report.failing if self.report else ()


def clean_env() -> dict[str, str]:
    """Our environment without `_DROPPED`, with plugin autoload and bytecode off. Our own
    PYTHONPATH (the person's, never the player's) reaches pytest's isolated interpreter
    as COACHLOOP_PYTHONPATH."""
    # Builds the child's environment from the whole of ours (not a settings read).
    env = {k: v for k, v in os.environ.items() if k not in _DROPPED}
    env.update(_ENV)
    env["COACHLOOP_PYTHONPATH"] = os.environ.get("PYTHONPATH", "")
    return env


def _argv(command: TestCommand, out: Path, tests: Sequence[str]) -> tuple[str, ...]:
    if command.runner == "pytest":
        args = (
            *command.runner_args,
            "-p",
            "no:cacheprovider",
            f"--junitxml={out / 'junit.xml'}",
            "-o",
            "junit_family=xunit1",
        )
        return (
            command.interpreter,
            "-I",
            "-B",
            "-c",
            _BOOT,
            str(out / "probe.json"),
            *args,
            *tests,
        )
    if command.runner == "vitest":
        base = TestCommand("vitest", (command.argv[0], "run", *command.runner_args))
        report = ("--reporter=default", "--reporter=json", f"--outputFile.json={out / 'r.json'}")
        return (*base.specific(tests), *report)
    if command.runner == "jest":
        base = TestCommand("jest", (command.argv[0], *command.runner_args))
        return (*base.specific(tests), "--ci", "--json", f"--outputFile={out / 'r.json'}")
    return command.specific(tests)


def _read(command: TestCommand, out: Path, cwd: Path) -> tuple[RunReport | None, list[str] | None]:
    if command.runner == "pytest":
        collected: list[str] | None = None
        try:
            import json

            probe = json.loads((out / "probe.json").read_text(encoding="utf-8"))
            if isinstance(probe.get("collected"), list):
                collected = [str(c) for c in probe["collected"]]
        except (OSError, ValueError, AttributeError):
            collected = None
        return runreport.read_junit(out / "junit.xml", collected or ()), collected
    if command.runner in ("vitest", "jest"):
        return runreport.read_jest_json(out / "r.json", cwd), None
    if command.report:
        return runreport.read_junit(cwd / command.report), None
    return None, None


def _status(
    done: proc.ProcResult, report: RunReport | None, collected: list[str] | None, reporting: bool
) -> tuple[RunStatus, str]:
    if done.error is not None:
        return "error", f"could not run the test command: {done.error}"
    if done.timed_out:
        return "timeout", "the tests did not finish"
    if report is None:
        if not reporting:
            return "not_run", (
                f"`{done.command}` gives no machine-readable test report, so its result "
                f"(exit code {done.exit_code}) cannot be verified: use pytest, vitest or jest, "
                "or configure the JUnit XML file the command writes"
            )
        return "not_run", (
            f"the test runner wrote no report (exit code {done.exit_code}): the tests did not run"
        )
    ran = set(report.outcomes)
    missing = [c for c in collected or () if c not in ran]
    if missing:
        return "incomplete", (
            f"{len(collected or ())} test(s) were collected but {len(missing)} did not run "
            f"(e.g. {missing[0]})"
        )
    declared = report.declared_total
    if declared is not None and declared != len(report.outcomes):
        return "incomplete", f"the report declares {declared} tests but lists {len(ran)}"
    if report.failing:
        return "failed", ""
    if not ran:
        return "no_tests", "the runner's report shows no tests"
    if done.exit_code != 0:
        return (
            "failed",
            f"the runner exited with {done.exit_code} although its report shows no failure",
        )
    return "passed", ""


def run(command: TestCommand, cwd: Path, *, timeout: float, tests: Sequence[str] = ()) -> SuiteRun:
    """Run `command` (only `tests`, when given) in `cwd`; see the module docstring."""
    out = Path(tempfile.mkdtemp(prefix="coachloop-run-"))
    try:
        if command.report:
            (cwd / command.report).unlink(missing_ok=True)
        argv = _argv(command, out, tests)
        done = proc.run(argv, cwd=cwd, timeout=timeout, env=clean_env(), inherit_env=False)
        report, collected = (None, None) if done.timed_out else _read(command, out, cwd)
        reporting = command.runner in REPORTING_RUNNERS or command.report is not None
        status, note = _status(done, report, collected, reporting)
        # pytest is shown as a person would type it (the boot code is noise)
        shown = " ".join(command.specific(tests)) if command.runner == "pytest" else done.command
        return SuiteRun(
            status,
            shown,
            done.exit_code,
            done.duration_s,
            done.output,
            report,
            tuple(collected) if collected is not None else None,
            note,
        )
    finally:
        shutil.rmtree(out, ignore_errors=True)
