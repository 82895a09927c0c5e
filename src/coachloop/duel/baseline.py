"""The baseline is the contract: the test suite as it stood before turn 1.

`record(tools, files)` runs the suite cleanly (`cleanrun`) in the untouched workspace
and keeps the per-test outcomes and the contents of every test, test-configuration
and runner-shadowing file (`testsource.classify`). `compare(...)` sets a turn's run
and files against it and returns `Finding`s, each naming the test, the file and the
change:

- a test that existed and now is missing ("`test_add` was removed from
  `tests/test_calc.py`"), still defined but not run (deselected), skipped or xfailed
  while it was not before, or rewritten (one of its assertions removed or changed;
  new assertions alone are fine);
- test configuration changed (only its test-related part: see
  `testsource.config_fingerprint`), a file added that stands in for the runner.

A finding blocks approval unless the requirements ask for that change (`asked_by`).
When the baseline run gave no report, only the file checks apply.
"""

from __future__ import annotations

import hashlib
import re
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any

from coachloop.duel.findings import Finding, asked_by
from coachloop.duel.runreport import FAILING, Outcome
from coachloop.duel.testsource import (
    TestShape,
    classify,
    config_fingerprint,
    describe_config,
    python_tests,
    split_id,
)

if TYPE_CHECKING:
    from coachloop.duel.cleanrun import SuiteRun
    from coachloop.duel.tools import CoachTools

__all__ = ["Baseline", "compare", "read_suite", "record"]

MAX_KEPT_BYTES = 2_000_000  # larger suite files are compared by digest only
_KEEP_ACTION = (
    "Restore it as it was before the duel: the tests are the contract, and changing "
    "them needs the requirements to ask for it."
)


@dataclass(frozen=True, slots=True)
class Baseline:
    """The suite before turn 1: outcomes (None: the run gave no report) and files."""

    outcomes: dict[str, Outcome] | None
    reasons: dict[str, str]
    status: str
    note: str
    files: dict[str, bytes] = field(default_factory=dict)
    seconds: float = 0.0
    collected: tuple[str, ...] | None = None  # pytest: the ids it collected

    @property
    def failing(self) -> tuple[str, ...]:
        """Tests that failed or erred before the duel began."""
        return tuple(t for t, o in (self.outcomes or {}).items() if o in FAILING)

    def to_json(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "note": self.note,
            "seconds": round(self.seconds, 3),
            "collected": list(self.collected) if self.collected is not None else None,
            "tests": self.outcomes,
            "failing": list(self.failing),
            "files": {p: hashlib.sha256(b).hexdigest() for p, b in sorted(self.files.items())},
            "config": {
                p: config_fingerprint(p, b)
                for p, b in sorted(self.files.items())
                if classify(p) == "config"
            },
        }


def read_suite(project: Path, files: Iterable[str]) -> dict[str, bytes]:
    """The contents of the suite's files (tests, configuration, shadows) among `files`."""
    out: dict[str, bytes] = {}
    for rel in files:
        if classify(rel) is None:
            continue
        path = project / rel
        try:
            if not path.is_file():
                continue
            if path.stat().st_size <= MAX_KEPT_BYTES:
                out[rel] = path.read_bytes()
            else:  # too large to keep: its digest stands for it
                with path.open("rb") as handle:
                    out[rel] = b"large file " + hashlib.file_digest(handle, "sha256").digest()
        except OSError:
            continue
    return out


def record(tools: CoachTools, files: Iterable[str]) -> Baseline:
    """Run the suite and keep its files (see the module docstring)."""
    started = time.monotonic()
    run = tools.test_run()
    report = run.report
    return Baseline(
        outcomes=dict(report.outcomes) if report is not None else None,
        reasons=dict(report.reasons) if report is not None else {},
        status=run.status,
        note=run.note,
        files=read_suite(tools.project, files),
        seconds=time.monotonic() - started,
        collected=run.collected,
    )


def _config_findings(baseline: Baseline, now: dict[str, bytes], requirements: str) -> list[Finding]:
    out: list[Finding] = []
    paths = {p for p in (*baseline.files, *now) if classify(p) in ("config", "shadow")}
    for path in sorted(paths):
        before, after = baseline.files.get(path), now.get(path)
        if classify(path) == "config":
            fingerprint = [
                config_fingerprint(path, b) if b is not None else None for b in (before, after)
            ]
            if fingerprint[0] == fingerprint[1]:
                continue
            issue = describe_config(path, before, after)
        else:
            if before == after or after is None:
                continue
            what = "was added" if before is None else "changed"
            issue = (
                f"`{path}` {what}: it stands in for the test runner or changes how Python starts"
            )
        if classify(path) == "shadow":
            action = "Delete it." if before is None else _KEEP_ACTION
        elif PurePosixPath(path).name == "conftest.py":
            action = (
                f"Restore `{path}` as it was (put new fixtures in your test modules); change it "
                "only if the requirements ask for it."
            )
        else:
            action = (
                f"Restore `{path}`'s test settings as they were; change them only if the "
                "requirements ask for it."
            )
        name = PurePosixPath(path).name
        out.append(
            Finding("config", issue, action, path, asked_by(requirements, "config", [name, path]))
        )
    return out


def _defined(file: str, name: str, data: bytes | None, shapes: dict[str, TestShape] | None) -> bool:
    if data is None:
        return False
    if file.endswith(".py"):
        return shapes is None or name in shapes  # unparsable: assume still there
    title = name.rsplit(" > ", maxsplit=1)[-1]
    text = data.decode("utf-8", errors="replace")
    return any(f"{q}{title}{q}" in text for q in ("'", '"', "`"))


def _marker(shape: TestShape | None, word: str) -> str:
    if shape is None:
        return ""
    found = [m for m in (*shape.markers, *shape.skips) if word in m]
    return f" (`{'@' if found[0] in shape.markers else ''}{found[0]}`)" if found else ""


def compare(
    baseline: Baseline,
    run: SuiteRun,
    files_now: dict[str, bytes],
    requirements: str,
) -> list[Finding]:
    """A turn's findings against the baseline (see the module docstring).

    `files_now`: the suite's files now (`read_suite`); `run`: this turn's clean run.
    """
    findings = _config_findings(baseline, files_now, requirements)
    deselecting = [f.issue for f in findings if "deselects" in f.issue]
    if baseline.outcomes is None or run.report is None:
        return findings
    now = run.report.outcomes
    shapes: dict[tuple[str, str], dict[str, TestShape] | None] = {}

    def shapes_of(file: str, which: str) -> dict[str, TestShape] | None:
        if (which, file) not in shapes:
            data = (baseline.files if which == "before" else files_now).get(file)
            shapes[(which, file)] = python_tests(data) if data and file.endswith(".py") else None
        return shapes[(which, file)]

    seen: set[str] = set()
    for test_id, before in baseline.outcomes.items():
        file, name = split_id(test_id)
        short = name.rsplit("::", 1)[-1].split(" > ")[-1] or file
        after = now.get(test_id)
        shape_now = (shapes_of(file, "after") or {}).get(name)
        kind, issue = "", ""
        if after is None and "::" in test_id:
            if file not in files_now:
                kind, issue = "removed", f"`{short}` was removed: `{file}` was deleted"
            elif not _defined(file, name, files_now.get(file), shapes_of(file, "after")):
                kind, issue = "removed", f"`{short}` was removed from `{file}`"
            else:
                why = f"; {deselecting[0]}" if deselecting else ""
                kind = "not_run"
                issue = (
                    f"`{short}` in `{file}` still exists but did not run "
                    f"(deselected or not collected){why}"
                )
        elif after == "skipped" and before != "skipped":
            kind, issue = (
                "skipped",
                f"`{short}` in `{file}` is now skipped{_marker(shape_now, 'skip')}",
            )
        elif after == "xfailed" and before != "xfailed":
            kind = "xfailed"
            marker = _marker(shape_now, "xfail")
            issue = f"`{short}` in `{file}` is now marked xfail (expected to fail){marker}"
        shape_before = (shapes_of(file, "before") or {}).get(name)
        if not kind and shape_before is not None and shape_now is not None:
            removed = [a for a in shape_before.asserts if a not in shape_now.asserts]
            if removed:
                added = [a for a in shape_now.asserts if a not in shape_before.asserts]
                change = f"is now `{added[0]}`" if added else "was removed"
                kind = "rewritten"
                issue = (
                    f"`{short}` in `{file}` was rewritten: its assertion `{removed[0]}` {change}"
                )
        if not kind or issue in seen:
            continue
        seen.add(issue)
        names = [short, re.sub(r"\[.*\]$", "", name), file, PurePosixPath(file).name]
        findings.append(
            Finding(kind, issue, _KEEP_ACTION, test_id, asked_by(requirements, kind, names))
        )
    return findings
