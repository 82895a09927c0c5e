"""The coach's tools, real and bounded in time: tests, coverage, diff, JSON checks.

The tests run through `cleanrun` (a fresh, isolated process; only the runner's own
report counts).

`CoachTools(project, ...)` runs in the project directory. Every tool returns a
`ToolResult` whose `text` is what a model reads; nothing here raises for the project's
behaviour (a hang becomes `timed_out`, a missing program `error`). The same tools
serve the evidence gatherer, the LLM and rules coaches (through the evidence), the
deepagents subagent (as LangChain tools) and the Claude Code coach, which runs them as
`python -m coachloop.duel.tools NAME [ARGS] --project DIR`.
"""

from __future__ import annotations

import json
import re
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from coachloop.duel import cleanrun, proc, schemas, testcmd, workspace
from coachloop.duel.testcmd import TestCommand

__all__ = ["DIFF_LIMIT", "CoachTools", "ToolResult", "main"]

DIFF_LIMIT = 10_000
_TOOL_ENV = {"PYTHONDONTWRITEBYTECODE": "1", "CI": "1", "NO_COLOR": "1"}
_PERCENT = re.compile(r"^(?:TOTAL|total:?|All files)\b.*?(\d+(?:\.\d+)?)%", re.M)
_GO_PERCENT = re.compile(r"coverage: (\d+(?:\.\d+)?)% of statements")


@dataclass(frozen=True, slots=True)
class ToolResult:
    """A tool's outcome; `text` is its model-facing rendering."""

    name: str
    ok: bool
    text: str
    data: dict[str, Any] = field(default_factory=dict)


class CoachTools:
    """The five coach tools bound to one project.

    `test_command` None means detect it; `base` is the commit the diff starts from
    (default: HEAD); `exclude` lists path prefixes that are the duel's own files.
    """

    def __init__(
        self,
        project: Path,
        *,
        test_command: TestCommand | None = None,
        timeout: float = 300.0,
        base: str | None = None,
        exclude: tuple[str, ...] = (".coachloop",),
    ) -> None:
        self.project = project.resolve()
        self.command = test_command or testcmd.detect(self.project)
        self.timeout = timeout
        self.base = base
        self.exclude = exclude

    # -- tests -------------------------------------------------------------------
    def test_run(self, tests: tuple[str, ...] = ()) -> cleanrun.SuiteRun:
        """The tests (only `tests` when given) run cleanly, as their report shows them."""
        if self.command is None:
            text = "No test command: none configured and none detected (tests did not run)."
            return cleanrun.SuiteRun("not_run", "", None, 0.0, "", note=text)
        return cleanrun.run(self.command, self.project, timeout=self.timeout, tests=tests)

    def _run_tests(self, name: str, tests: tuple[str, ...] = ()) -> ToolResult:
        done = self.test_run(tests)
        if self.command is None:
            return ToolResult(name, False, done.note, {"status": "not_run", "note": done.note})
        report = done.report
        data: dict[str, Any] = {
            "status": done.status,
            "command": done.command,
            "exit_code": done.exit_code,
            "duration_s": round(done.duration_s, 3),
            "failing": [list(f) for f in done.failing],
            "output": done.output,
            "note": done.note,
            "outcomes": dict(report.outcomes) if report else None,
            "collected": list(done.collected) if done.collected is not None else None,
        }
        head = f"$ {done.command}\n"
        if done.status == "error":
            head += f"Could not run the test command: {done.note}\n"
        elif done.status == "timeout":
            head += f"TIMED OUT after {self.timeout:g}s (killed); the tests did not finish.\n"
        else:
            head += f"Exit code: {done.exit_code}\n"
        if report is not None:
            counts = ", ".join(
                f"{report.count(kind)} {kind}"
                for kind in ("passed", "failed", "error", "skipped", "xfailed")
                if report.count(kind)
            )
            head += f"Runner's report: {counts or 'no tests'} ({done.status})\n"
        elif done.status == "not_run":
            head += f"No runner report: {done.note}\n"
        if done.note and done.status not in ("not_run", "error"):
            head += f"Note: {done.note}\n"
        return ToolResult(name, done.status == "passed", head + "\n" + done.output, data)

    def run_all_tests(self) -> ToolResult:
        """Run the whole test suite."""
        return self._run_tests("run_all_tests")

    def run_specific_tests(self, tests: list[str]) -> ToolResult:
        """Run only `tests` (paths or test ids, as the runner names them)."""
        return self._run_tests("run_specific_tests", tuple(tests))

    # -- coverage ----------------------------------------------------------------
    def check_coverage(self, source: str | None = None) -> ToolResult:
        """Run the tests under coverage (for `source`, default the whole project)."""
        name = "check_coverage"
        argv = self.command.coverage(source) if self.command else None
        if argv is None or self.command is None:
            return ToolResult(name, False, "Coverage unavailable for this project's runner.")
        if self.command.runner == "pytest" and self.command.python:
            probe = proc.run(
                (self.command.python, "-c", "import pytest_cov"), cwd=self.project, timeout=30
            )
            if not probe.ok:
                return ToolResult(name, False, "Coverage unavailable: pytest-cov is not installed.")
        with tempfile.TemporaryDirectory(prefix="coachloop-cov-") as scratch:
            env = dict(_TOOL_ENV, COVERAGE_FILE=str(Path(scratch) / ".coverage"))
            done = proc.run(argv, cwd=self.project, timeout=self.timeout, env=env)
        if done.timed_out or done.error:
            why = "timed out" if done.timed_out else done.error
            return ToolResult(name, False, f"$ {done.command}\nCoverage run failed: {why}")
        found = _PERCENT.findall(done.output) or _GO_PERCENT.findall(done.output)
        percent = float(found[-1]) if found else None
        text = f"$ {done.command}\nExit code: {done.exit_code}\n"
        text += f"Total coverage: {percent:g}%\n" if percent is not None else ""
        data = {"percent": percent, "command": done.command, "exit_code": done.exit_code}
        return ToolResult(name, percent is not None, text + "\n" + done.output, data)

    # -- diff --------------------------------------------------------------------
    def diff_changes(self) -> ToolResult:
        """A summary of the changes since `base` and the diff, cut past DIFF_LIMIT chars."""
        name = "diff_changes"
        if not workspace.is_git(self.project):
            return ToolResult(name, False, "Not a git repository: no diff available.")
        base = self.base or "HEAD"
        if base == "HEAD":
            base = workspace.git_head(self.project)
        spec = [".", *(f":(exclude){p}" for p in self.exclude)]
        stat = workspace.git(self.project, "diff", "--stat", base, "--", *spec).stdout
        diff = workspace.git(self.project, "diff", base, "--", *spec).stdout
        listed = workspace.git(self.project, "ls-files", "-z", "--others", "--exclude-standard")
        untracked = [
            p
            for p in listed.stdout.split("\0")
            if p
            and not any(p == x or p.startswith(x.rstrip("/") + "/") for x in self.exclude)
            and "__pycache__" not in p.split("/")
        ]
        for path in untracked[:50]:
            diff += workspace.git(
                self.project, "diff", "--no-index", "--", "/dev/null", path
            ).stdout
        summary = stat.strip() or "(no changes to tracked files)"
        if untracked:
            summary += "\nNew untracked files: " + ", ".join(untracked[:50])
        data = {"summary": summary, "untracked": untracked, "diff_chars": len(diff)}
        if not diff.strip():
            return ToolResult(
                name, True, f"Summary:\n{summary}\n\nNo changes since {base[:12]}.", data
            )
        if len(diff) > DIFF_LIMIT:
            cut = diff[:DIFF_LIMIT]
            note = (
                f"\n[diff cut: showing {DIFF_LIMIT:,} of {len(diff):,} characters; "
                "read the files for the rest]"
            )
            return ToolResult(name, True, f"Summary:\n{summary}\n\nDiff:\n{cut}{note}", data)
        return ToolResult(name, True, f"Summary:\n{summary}\n\nDiff:\n{diff}", data)

    # -- JSON --------------------------------------------------------------------
    def validate_json_schema(
        self, file_path: str, schema: str = "report", expected_keys: list[str] | None = None
    ) -> ToolResult:
        """Check a JSON file against a shipped schema ("report", "decision") or a schema
        file, and that `expected_keys` are present."""
        name = "validate_json_schema"
        path = Path(file_path)
        path = path if path.is_absolute() else self.project / path
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return ToolResult(name, False, f"INVALID: file not found: {file_path}")
        except (OSError, ValueError) as exc:
            return ToolResult(name, False, f"INVALID: not valid JSON: {exc}")
        try:
            loaded = schemas.load(schema, self.project)
        except (OSError, ValueError) as exc:
            return ToolResult(name, False, f"INVALID: cannot load schema {schema!r}: {exc}")
        errors = schemas.validate(data, loaded)
        if expected_keys:
            have = data if isinstance(data, dict) else {}
            errors += [f"missing key {k!r}" for k in expected_keys if k not in have]
        if errors:
            return ToolResult(name, False, "INVALID:\n- " + "\n- ".join(errors[:20]))
        return ToolResult(name, True, f"VALID: {file_path} matches the {schema} schema.")


def main(argv: list[str] | None = None) -> int:
    """`python -m coachloop.duel.tools NAME [ARGS] --project DIR`: print a tool's text."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m coachloop.duel.tools")
    parser.add_argument(
        "tool",
        choices=[
            "run_all_tests",
            "run_specific_tests",
            "check_coverage",
            "diff_changes",
            "validate_json_schema",
        ],
    )
    parser.add_argument("args", nargs="*")
    parser.add_argument("--project", default=".")
    parser.add_argument("--base", default=None)
    parser.add_argument("--test-cmd", default=None)
    parser.add_argument("--test-report", default=None)
    parser.add_argument("--timeout", type=float, default=300.0)
    ns = parser.parse_args(argv)
    command = testcmd.from_string(ns.test_cmd, ns.test_report) if ns.test_cmd else None
    tools = CoachTools(Path(ns.project), test_command=command, timeout=ns.timeout, base=ns.base)
    if ns.tool == "run_all_tests":
        result = tools.run_all_tests()
    elif ns.tool == "run_specific_tests":
        result = tools.run_specific_tests(list(ns.args))
    elif ns.tool == "check_coverage":
        result = tools.check_coverage(ns.args[0] if ns.args else None)
    elif ns.tool == "diff_changes":
        result = tools.diff_changes()
    else:
        if not ns.args:
            parser.error("validate_json_schema needs FILE [SCHEMA] [KEY...]")
        schema = ns.args[1] if len(ns.args) > 1 else "report"
        result = tools.validate_json_schema(ns.args[0], schema, ns.args[2:])
    print(result.text)
    return 0 if result.ok else 1


if __name__ == "__main__":
    sys.exit(main())
