"""Test runners' own machine-readable reports, read into per-test outcomes.

The duel never trusts a runner's text summary: a run counts only through the report
the runner itself writes. Two formats are read:

- JUnit XML (`read_junit`): pytest's `--junitxml` (family xunit1, which names each
  test's file) and any runner configured to write one. A test id is pytest's node id
  (`tests/test_calc.py::TestX::test_y[1]`); `known` node ids (collected by the run)
  resolve the XML's dotted class names exactly, else the id is rebuilt from the file.
- The jest/vitest JSON report (`read_jest_json`, jest's `--json`, vitest's JSON
  reporter): a test id is `path/relative/to/project::ancestor > title`; a file that
  fails before any test runs (a syntax error) is one `error` entry named by its path.

Outcomes: passed | failed | error | skipped | xfailed. A report that cannot be read
gives None: the caller counts that as "did not run", never as passed.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

__all__ = ["Outcome", "RunReport", "junit_key", "read_jest_json", "read_junit"]

Outcome = Literal["passed", "failed", "error", "skipped", "xfailed"]
FAILING: frozenset[str] = frozenset({"failed", "error"})
MAX_REPORT_BYTES = 50_000_000
_REASON_LIMIT = 300


@dataclass(frozen=True, slots=True)
class RunReport:
    """Per-test outcomes from one report; `reasons` holds a one-line cause for failures."""

    outcomes: dict[str, Outcome] = field(default_factory=dict)
    reasons: dict[str, str] = field(default_factory=dict)
    declared_total: int | None = None  # the total the report itself states, if any

    def count(self, *kinds: str) -> int:
        return sum(1 for o in self.outcomes.values() if o in kinds)

    @property
    def failing(self) -> tuple[tuple[str, str], ...]:
        """(test id, reason) of failed and erroring tests, in report order."""
        return tuple((t, self.reasons.get(t, "")) for t, o in self.outcomes.items() if o in FAILING)


def _first_line(text: str | None) -> str:
    for line in (text or "").splitlines():
        if line.strip():
            return line.strip()[:_REASON_LIMIT]
    return ""


def _load(path: Path) -> bytes | None:
    try:
        if path.stat().st_size > MAX_REPORT_BYTES:
            return None
        return path.read_bytes()
    except OSError:
        return None


def junit_key(nodeid: str) -> tuple[str, str]:
    """(classname, name) as pytest's junitxml writes them for `nodeid`."""
    names = nodeid.split("::")
    names[0] = re.sub(r"\.py$", "", names[0].replace("/", "."))
    return ".".join(names[:-1]), names[-1]


def _rebuild(case: ET.Element) -> str:
    classname, name = case.get("classname", ""), case.get("name", "")
    file = case.get("file")
    if not file:
        return f"{classname}::{name}" if classname else name
    module = re.sub(r"\.py$", "", file.replace("/", "."))
    if classname == module or not classname:
        return f"{file}::{name}"
    if classname.startswith(module + "."):
        classes = classname[len(module) + 1 :].split(".")
        return "::".join([file, *classes, name])
    return f"{file}::{name}"


def read_junit(path: Path, known: Iterable[str] = ()) -> RunReport | None:
    """The JUnit XML report at `path` (see the module docstring), or None."""
    raw = _load(path)
    if raw is None:
        return None
    try:
        root = ET.fromstring(raw)
    except ET.ParseError:
        return None
    if root.tag not in ("testsuites", "testsuite"):
        return None
    by_key = {junit_key(n): n for n in known}
    report = RunReport()
    for case in root.iter("testcase"):
        key = (case.get("classname", ""), case.get("name", ""))
        test = by_key.get(key) or _rebuild(case)
        outcome: Outcome = "passed"
        reason = ""
        for child in case:
            if child.tag in ("failure", "error"):
                outcome = "failed" if child.tag == "failure" else "error"
                reason = _first_line(child.get("message")) or _first_line(child.text)
                break
            if child.tag == "skipped":
                xfail = child.get("type") == "pytest.xfail"
                outcome = "xfailed" if xfail else "skipped"
                reason = _first_line(child.get("message"))
        if report.outcomes.get(test) in FAILING:
            continue  # a teardown entry must not hide the call's failure
        report.outcomes[test] = outcome
        if reason:
            report.reasons[test] = reason
    return report


_JEST_STATUS: dict[str, Outcome] = {
    "passed": "passed",
    "failed": "failed",
    "pending": "skipped",
    "skipped": "skipped",
    "todo": "skipped",
    "disabled": "skipped",
    "focused": "passed",
}


def _relative(name: str, project: Path) -> str:
    path = Path(name)
    if path.is_absolute():
        for base in (project, project.resolve()):
            try:
                return path.relative_to(base).as_posix()
            except ValueError:
                continue
    return path.as_posix()


def read_jest_json(path: Path, project: Path) -> RunReport | None:
    """The jest/vitest JSON report at `path` (see the module docstring), or None."""
    raw = _load(path)
    if raw is None:
        return None
    try:
        data: Any = json.loads(raw)
    except ValueError:
        return None
    if not isinstance(data, dict) or not isinstance(data.get("testResults"), list):
        return None
    report = RunReport(declared_total=data.get("numTotalTests"))
    for suite in data["testResults"]:
        if not isinstance(suite, dict):
            continue
        file = _relative(str(suite.get("name", "")), project)
        cases = suite.get("assertionResults") or []
        if not cases and suite.get("status") == "failed":
            report.outcomes[file] = "error"
            report.reasons[file] = _first_line(suite.get("message")) or "the file failed to run"
        for case in cases:
            titles = [*case.get("ancestorTitles", []), case.get("title", "")]
            test = f"{file}::" + " > ".join(str(t) for t in titles)
            outcome = _JEST_STATUS.get(str(case.get("status")), "error")
            report.outcomes[test] = outcome
            if outcome in FAILING:
                messages = case.get("failureMessages") or []
                report.reasons[test] = _first_line(messages[0] if messages else "")
    return report
