"""The duel's report: per turn the player's claims, the evidence, the decision, tokens
and time. `to_json` is what `duel.json` holds (and `--json` prints); `render` draws the
table on a rich console.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rich.console import Console

    from coachloop.duel.files import Coordination
    from coachloop.duel.findings import Finding
    from coachloop.duel.orchestrator import DuelResult, DuelTurn

__all__ = ["render", "to_json", "turn_json", "write_report"]


def turn_json(record: DuelTurn, decision_path: str = "") -> dict[str, Any]:
    """One turn as JSON."""
    p, e, r = record.player, record.evidence, record.coach_reply
    t = e.tests
    return {
        "turn": record.turn,
        "seconds": round(record.seconds, 3),
        "player": {
            "exit_code": p.exit_code,
            "timed_out": p.timed_out,
            "error": p.error,
            "seconds": round(p.duration_s, 3),
            "tokens": p.tokens,
            "cost_usd": p.cost_usd,
            "session_id": p.session_id,
        },
        "claims": e.report,
        "report_error": e.report_error,
        "evidence": {
            "tests": {
                "status": t.status,
                "command": t.command,
                "exit_code": t.exit_code,
                "passed": t.passed,
                "failed": t.failed,
                "skipped": t.skipped,
                "failing": [{"test": n, "reason": w} for n, w in t.failing],
                "seconds": t.duration_s,
                "note": t.note,
                "output_tail": t.output_tail[-1500:],
            },
            "changed_this_turn": list(e.changed_this_turn),
            "changed_since_start": list(e.changed_since_start),
            "coverage_percent": e.coverage_percent,
            "contradictions": {
                "files_unchanged": list(e.claims.files_unchanged),
                "tests_absent": list(e.claims.tests_absent),
            },
            "blockers": [b.issue for b in e.blockers()],
            "integrity": [_finding(f) for f in e.integrity],
            "reach": [_finding(f) for f in e.reach],
        },
        "decision": record.decision.to_json(),
        "decision_file": decision_path,
        "coach": {
            "seconds": round(record.coach_seconds, 3),
            "tokens": r.tokens if r else None,
            "tokens_estimated": r.tokens_estimated if r else False,
            "cost_usd": r.cost_usd if r else None,
            "attempts": r.attempts if r else 0,
        },
        "error": record.error,
    }


def _finding(f: Finding) -> dict[str, Any]:
    return {
        "kind": f.kind,
        "issue": f.issue,
        "location": f.location,
        "blocking": f.blocking,
        "asked_by": f.asked_by,
    }


def to_json(result: DuelResult) -> dict[str, Any]:
    """The whole duel as JSON."""
    from coachloop.duel.files import Coordination

    files = Coordination(result.root, result.task_id)
    turns = [turn_json(t, str(files.decision_path(t.turn))) for t in result.turns]
    tokens = [
        n
        for t in result.turns
        for n in (t.player.tokens, t.coach_reply.tokens if t.coach_reply else None)
        if n
    ]
    costs = [
        c
        for t in result.turns
        for c in (t.player.cost_usd, t.coach_reply.cost_usd if t.coach_reply else None)
        if c
    ]
    return {
        "task_id": result.task_id,
        "outcome": result.outcome,
        "exit_code": result.exit_code,
        "reason": result.reason,
        "player": result.player,
        "coach": result.coach,
        "root": str(result.root),
        "started_at": result.started_at,
        "seconds": round(result.seconds, 3),
        "workspace": str(result.workspace) if result.workspace else None,
        "baseline": (
            {
                "status": result.baseline.status,
                "tests": len(result.baseline.outcomes or {}),
                "failing": list(result.baseline.failing),
                "seconds": round(result.baseline.seconds, 3),
            }
            if result.baseline
            else None
        ),
        "applied": list(result.applied),
        "conflicts": list(result.conflicts),
        "turns": turns,
        "totals": {"tokens": sum(tokens), "cost_usd": round(sum(costs), 6)},
    }


def write_report(files: Coordination, result: DuelResult) -> None:
    """Write `duel.json` under the duel's root."""
    files.write_json(files.run_report_path, to_json(result))


def _esc(text: str) -> str:
    from rich.markup import escape

    return escape(text)


def _claims(record: DuelTurn) -> str:
    e = record.evidence
    if e.report is None:
        return f"[red]no valid report[/red]\n{_esc(e.report_error or '')}"
    lines = [f"files: {len(e.report['files_modified'])}, tests: {len(e.report['tests_written'])}"]
    claim = e.report.get("tests_passing")
    if claim is not None:
        lines.append("claims tests pass" if claim else "says tests fail")
    return "\n".join(lines)


def _evidence(record: DuelTurn) -> str:
    e = record.evidence
    t = e.tests
    colour = "green" if t.status == "passed" else "red"
    line = f"[{colour}]tests {t.status}[/{colour}]"
    if t.passed is not None:
        line += f" {t.passed} passed, {t.failed or 0} failed"
    lines = [line, f"changed: {len(e.changed_this_turn)} this turn"]
    lines += [f"failing: {_esc(n)}" for n, _ in t.failing[:3]]
    if e.claims.contradicted:
        lines.append("[red]report contradicts repo[/red]")
    for f in [f for f in e.findings() if f.blocking][:3]:
        lines.append(f"[red]{_esc(f.issue[:160])}[/red]")
    return "\n".join(lines)


def _decision(record: DuelTurn) -> str:
    d = record.decision
    colour = "green" if d.decision == "approve" else "yellow"
    text = f"[{colour}]{d.decision}[/{colour}] ({d.level})"
    if d.overrides and d.coach_decision == "approve":
        text += "\n[red]approval overridden[/red]"
    if record.error:
        text += f"\n[red]{_esc(record.error[:80])}[/red]"
    return text


def _cost(record: DuelTurn) -> str:
    p, r = record.player, record.coach_reply
    player = f"player {p.duration_s:.1f}s" + (f", {p.tokens} tok" if p.tokens else "")
    coach = f"coach {record.coach_seconds:.1f}s"
    if r and r.tokens:
        coach += f", {'~' if r.tokens_estimated else ''}{r.tokens} tok"
    return f"{player}\n{coach}"


def render(result: DuelResult, console: Console) -> None:
    """The per-turn table and the outcome line."""
    from rich.table import Table

    table = Table(title=f"duel {result.task_id}: {result.player} vs {result.coach}")
    for column in ("turn", "player's claims", "evidence", "decision", "time / tokens"):
        table.add_column(column)
    for record in result.turns:
        table.add_row(
            str(record.turn),
            _claims(record),
            _evidence(record),
            _decision(record),
            _cost(record),
        )
    console.print(table)
    colour = "green" if result.outcome == "approved" else "red"
    console.print(
        f"[bold {colour}]{result.outcome}[/bold {colour}] after {len(result.turns)} turn(s), "
        f"{result.seconds:.1f}s: {_esc(result.reason)}"
    )
    if result.applied:
        console.print(f"applied to the project: {len(result.applied)} file(s)")
    if result.conflicts:
        console.print(
            "[red]not applied[/red]: the project changed meanwhile under "
            + _esc(", ".join(result.conflicts[:5]))
            + f"; the approved work is in {result.workspace}"
        )
    console.print(f"report: {result.root / 'duel.json'}")
