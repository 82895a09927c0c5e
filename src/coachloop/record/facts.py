"""From a turn's tool calls to the facts the judge checks: test runs and commits.

A command is a test run when its command line runs a test runner, or when its output
holds a summary of a known runner (`coachloop.evidence.extract`; the "generic" prose
shapes do not count on their own: any file's text can hold them). The names of failing
tests are read from the runners' failure lines. A commit is a `git commit` that
exited 0; its hash comes from git's "[branch abc1234] message" line when printed. A turn
that handed work to a subagent (Task) is not complete: the subagent's calls are elsewhere.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from coachloop.core.record import TestRun, ToolCall, TurnRecord
from coachloop.evidence import extract

__all__ = ["build", "failing_tests", "is_test_command"]

_RUNNER = re.compile(
    r"(?:pytest|py\.test|unittest|nose2|tox|nox|jest|vitest|mocha|ava|rspec|phpunit|ctest|"
    r"runtests|(?:go|cargo|dotnet|mix|swift|deno|bun|zig|mvn|gradle|gradlew|make|npm|yarn|pnpm|"
    r"rails|rake)\s+(?:run\s+)?test|node\s+--test|python3?\s+\S*manage\.py\s+test)\b",
    re.I,
)
# What may stand before a runner in its command: variables, wrappers, a path.
_WRAPPERS = re.compile(
    r"^(?:\w+=\S*\s+|(?:timeout\s+\S+|time|env|nice|uv\s+run|poetry\s+run|pipenv\s+run|"
    r"bundle\s+exec|npx|bunx|pnpm\s+exec|python3?(?:\.\d+)?\s+-m)\s+|[\w./-]*/)*"
)
_SEGMENT = re.compile(r"&&|\|\||[;|\n]")


def is_test_command(command: str) -> bool:
    """True when some part of the command line runs a test runner (not merely names one:
    `pip install pytest` is no test run)."""
    for segment in _SEGMENT.split(command):
        head = segment.strip().removeprefix("(").strip()
        wrapped = _WRAPPERS.match(head)
        if _RUNNER.match(head[wrapped.end() :] if wrapped else head):
            return True
    return False


GIT_COMMIT = re.compile(r"\bgit\b(?:\s+-c\s+\S+)*\s+commit\b")
_COMMIT_LINE = re.compile(r"^\[[^\]\n]*?\b([0-9a-f]{7,40})\]", re.M)
_FAILING = (
    re.compile(r"^(?:FAILED|ERROR) (\S+::\S+)", re.M),  # pytest's short summary
    re.compile(r"^(\S+::\S+) (?:FAILED|ERROR)\b", re.M),  # pytest -v
    re.compile(r"^(?:FAIL|ERROR): (\w+) \(([\w.]+)\)", re.M),  # unittest
    re.compile(r"^\s*--- FAIL: (\S+)", re.M),  # go test
    re.compile(r"^test (\S+) \.\.\. FAILED$", re.M),  # cargo test
    re.compile(r"^\s*(?:✕|×|✗) (.+?)(?: \(\d+(?:\.\d+)? ?m?s\))?$", re.M),  # jest, vitest
    re.compile(r"^\s*not ok \d+ - (.+)$", re.M),  # TAP, node --test
)
MAX_FAILING = 10
SUBAGENT_TOOLS = ("Task", "Agent")


def failing_tests(output: str) -> tuple[str, ...]:
    """The names of the failing tests a runner printed (at most `MAX_FAILING`)."""
    if not any(w in output for w in ("FAIL", "ERROR", "✕", "×", "✗", "not ok")):
        return ()
    found: dict[str, None] = {}
    for pattern in _FAILING:
        for m in pattern.finditer(output):
            if pattern.groups == 2:  # unittest: "test_add (test_calc.TestCalc.test_add)"
                name, where = m.group(1), m.group(2)
                found[where if where.endswith(name) else f"{where}.{name}"] = None
            else:
                found[m.group(1).strip()] = None
    return tuple(found)[:MAX_FAILING]


def _test_run(index: int, call: ToolCall) -> TestRun | None:
    if call.kind != "command" or call.denied:
        return None
    named = is_test_command(call.target)
    if not named and not any(w in call.output for w in ("pass", "ok", "OK", "fail", "FAIL")):
        return None
    summaries = extract(call.output).tests if call.output else ()
    known = tuple(s for s in summaries if s.runner != "generic")
    if not named and not known:
        return None
    if not summaries and call.exit_code is None and not call.error:
        return None  # started in the background: its result comes later (BashOutput)
    return TestRun(
        call=index,
        command=call.target,
        summaries=known or tuple(summaries),
        failing=failing_tests(call.output),
        exit_code=call.exit_code,
        error=call.error and call.exit_code is None,
    )


def _commits(calls: Iterable[ToolCall]) -> tuple[bool, tuple[str, ...]]:
    committed, hashes = False, []
    for call in calls:
        command = call.target
        made = GIT_COMMIT.search(command) and "--dry-run" not in command
        if call.kind == "command" and call.exit_code == 0 and made:
            committed = True
            hashes += _COMMIT_LINE.findall(call.output)
    return committed, tuple(dict.fromkeys(hashes))


def build(
    source: str,
    calls: Iterable[ToolCall],
    *,
    prompt: str | None = None,
    final_text: str | None = None,
    complete: bool = True,
) -> TurnRecord:
    """The record of a turn made of `calls` (see the module docstring)."""
    kept = tuple(calls)
    # A subagent's work sits in its own transcript: what this record lacks, it may have done.
    complete = complete and not any(c.tool in SUBAGENT_TOOLS for c in kept)
    tests = tuple(run for i, c in enumerate(kept) if (run := _test_run(i, c)) is not None)
    committed, commits = _commits(kept)
    return TurnRecord(
        source=source,
        calls=kept,
        prompt=prompt,
        final_text=final_text,
        complete=complete,
        tests=tests,
        commits=commits,
        committed=committed,
    )
