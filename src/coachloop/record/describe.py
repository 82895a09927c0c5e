"""A turn's record as short plain lines: what the LLM judge is told, what a person reads.

`describe(record)` lists the tool calls (the last `max_calls`), each with its outcome,
then the facts the judge checks: the last test run and whether code changed after it,
the commits, permission denials. Every line is cut to `LINE` characters.
"""

from __future__ import annotations

from coachloop.core.record import TestRun, ToolCall, TurnRecord

__all__ = ["LINE", "describe"]

LINE = 240


def _short(text: str, limit: int = 120) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _run(run: TestRun) -> str:
    failing = f" (failing: {', '.join(run.failing[:5])})" if run.failing else ""
    return f"test run, {run.outcome()}{failing}"


def _call(index: int, call: ToolCall, runs: dict[int, TestRun]) -> str:
    if call.denied:
        return f"{call.tool}: refused (permission denied)"
    if call.kind == "command":
        what = f"ran `{_short(call.target)}`"
        if index in runs:
            return f"{what}: {_run(runs[index])}"
        status = f"exit {call.exit_code}" if call.exit_code is not None else "no exit status"
        wrote = f", wrote {', '.join(call.paths[:3])}" if call.paths else ""
        return f"{what}: {status}{wrote}"
    if call.kind == "edit":
        return f"{call.tool} {', '.join(call.paths[:3]) or call.target}" + (
            " (failed)" if call.error else ""
        )
    if call.kind == "read":
        return f"read {call.target}"
    return f"{call.tool}" + (" (error)" if call.error else "")


def describe(record: TurnRecord, max_calls: int = 30) -> list[str]:
    """The record as lines (see the module docstring); [] for an unusable record."""
    if not record.usable:
        return []
    runs = {run.call: run for run in record.tests}
    lines: list[str] = []
    if not record.complete:
        lines.append("(only the end of the turn was read: earlier calls are not listed)")
    skipped = max(0, len(record.calls) - max_calls)
    if skipped:
        lines.append(f"({skipped} earlier tool calls not listed)")
    for i, call in enumerate(record.calls[skipped:], start=skipped + 1):
        lines.append(f"{i}. {_call(i - 1, call, runs)}")
    if not record.calls:
        lines.append("no tool calls in this turn")
    last = record.last_test
    if last is None:
        lines.append("test runs: none in this turn")
    else:
        edited = record.edits_after(last.call)
        after = (
            f"code changed after it: {', '.join(edited[:5])}"
            if edited
            else "no code changed after it"
        )
        lines.append(f"last test run: `{_short(last.command)}`: {last.outcome()}; {after}")
    if record.committed:
        lines.append("commits made: " + (", ".join(record.commits) or "yes (hash not printed)"))
    else:
        lines.append("commits made: none")
    if record.denials:
        tools = ", ".join(dict.fromkeys(c.tool for c in record.denials))
        lines.append(f"refused for lack of permission: {tools}")
    return [line[:LINE] for line in lines]
