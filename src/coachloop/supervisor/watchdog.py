"""The watchdog: notice sessions that went quiet, ran too long or spin on one tool call.

`check(supervisor)` evaluates every session against `Limits` and raises, per session,
the conditions not already flagged: they are flagged through the supervisor (so a
condition is alerted once, not at every run) and delivered together as ONE outbox
alert. Conditions:

- "silent": a running session with no event for `silent_after` seconds;
- "running": a run (since the last human message) longer than `max_running`;
- "repeat": the same tool call `repeat_threshold` times in a row within a turn (read
  from the turn's record at its stop: `tool_run`; the supervisor flags it right there);
- "errors": a failed session whose run of errors never ended, so the held-back errors
  are summarised instead of lost.

Flags clear themselves: "silent" at the next stop, "repeat" at a stop whose turn's
longest run is of another call, all of them at the next human message. `cleanup_stale`
marks running sessions silent for `abandon_after` as "abandoned" (so nothing keeps
waking them) and forgets sessions idle for `forget_after`. `run` does both. Standard library only.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from coachloop.core.session import when

if TYPE_CHECKING:
    from coachloop.core.record import TurnRecord
    from coachloop.core.session import SessionState
    from coachloop.supervisor.service import Supervisor


@dataclass(frozen=True, slots=True)
class Limits:
    """Thresholds, in seconds (and a count for repeats)."""

    silent_after: float = 30 * 60
    max_running: float = 4 * 3600
    repeat_threshold: int = 5
    abandon_after: float = 24 * 3600
    forget_after: float = 30 * 86_400

    def __post_init__(self) -> None:
        if self.repeat_threshold < 2:
            raise ValueError("repeat_threshold must be at least 2")
        if min(self.silent_after, self.max_running, self.abandon_after, self.forget_after) <= 0:
            raise ValueError("watchdog durations must be positive")


@dataclass(frozen=True, slots=True)
class Alert:
    """Conditions newly raised for one session by one `check` (delivered as one message)."""

    session_id: str
    conditions: tuple[str, ...]


@dataclass(slots=True)
class Report:
    """What one watchdog `run` did."""

    alerts: list[Alert] = field(default_factory=list)
    abandoned: list[str] = field(default_factory=list)
    forgotten: list[str] = field(default_factory=list)
    done: int = 0  # sessions read (`sweep`)


def tool_signature(tool: str, tool_input: Mapping[str, Any] | str | None = None) -> str:
    """A stable fingerprint of one tool call (name plus canonical JSON of its input)."""
    payload = json.dumps([tool, tool_input], sort_keys=True, default=str, ensure_ascii=False)
    return f"{tool}:{hashlib.sha1(payload.encode()).hexdigest()[:16]}"


def tool_run(record: TurnRecord | None) -> tuple[str, int] | None:
    """The longest run of one identical tool call in the turn's record (the same tool
    on the same target: command line, path): (signature, length). None when the record
    is missing, unusable or has no call. The first of equally long runs wins."""
    if record is None or not record.usable or not record.calls:
        return None
    best: tuple[str, int] | None = None
    sig, n = "", 0
    for call in record.calls:
        this = tool_signature(call.tool, call.target)
        sig, n = (sig, n + 1) if this == sig else (this, 1)
        if best is None or n > best[1]:
            best = (sig, n)
    return best


def _span(seconds: float) -> str:
    minutes = int(seconds // 60)
    if minutes < 120:
        return f"{minutes} min"
    return f"{seconds / 3600:.1f} h"


def conditions(state: SessionState, now: float, limits: Limits) -> dict[str, str]:
    """The watchdog conditions `state` meets at `now` (condition -> message). Pure."""
    who = f"Session {state.session_id} ({state.agent or 'agent'}, {state.project or 'no project'})"
    out: dict[str, str] = {}
    idle = now - state.updated_at
    if state.status == "running":
        if idle >= limits.silent_after:
            out["silent"] = f"{who} has been silent for {_span(idle)}."
        run = now - state.run_started_at
        if run >= limits.max_running:
            out["running"] = (
                f"{who} has been running for {_span(run)} since the last human message."
            )
    if state.tool_repeats >= limits.repeat_threshold:
        out["repeat"] = f"{who} repeated the same tool call {state.tool_repeats} times in a row."
    if state.status == "failed" and state.error_run > 1 and idle >= limits.silent_after:
        out["errors"] = (
            f"{who} failed: {state.error_run} errors since {when(state.error_since)} "
            f"(only the first was sent); last: {state.last_error}."
        )
    return out


def check(sup: Supervisor, now: float | None = None, limits: Limits | None = None) -> list[Alert]:
    """Flag every session's new conditions (through `sup`, so each alert gets its
    snapshot); returns the alerts raised by this call. `limits` default to `sup.limits`."""
    ts = time.time() if now is None else now
    lim = limits or sup.limits
    alerts: list[Alert] = []
    for state in sup.reads.list_sessions():
        found = conditions(state, ts, lim)
        if not found or all(c in state.flags for c in found):
            continue
        raised = sup.flag(state.session_id, found, ts)
        if raised:
            alerts.append(Alert(state.session_id, raised))
    return alerts


def cleanup_stale(
    sup: Supervisor, now: float | None = None, limits: Limits | None = None
) -> Report:
    """Abandon long-silent running sessions; forget sessions idle past `forget_after`
    (unless a stop came since the list was read) and purge their rows before returning."""
    ts = time.time() if now is None else now
    lim = limits or sup.limits
    report = Report()
    for state in sup.reads.list_sessions():
        idle = ts - state.updated_at
        if idle >= lim.forget_after:
            if sup.forget(state.session_id, ts - lim.forget_after):
                report.forgotten.append(state.session_id)
        elif state.status == "running" and idle >= lim.abandon_after:
            why = f"silent for {_span(idle)}: marked abandoned"
            sup.set_status(state.session_id, "abandoned", why, ts)
            report.abandoned.append(state.session_id)
    if report.forgotten:
        sup.purge_all()  # a command: nothing runs later steps for it
    return report


def sweep(
    sup: Supervisor, states: Iterable[SessionState], now: float, seconds: float = 0.0
) -> Report:
    """`check` and `cleanup_stale` on these sessions only: one page of the walk that
    `Supervisor.maintain` makes over a store in steps of bounded work. With `seconds`,
    it stops after the session during which that much time went by (`report.done` says
    how many were read). Between two sessions it lets other threads (a hook call
    waiting for the store) go first."""
    lim = sup.limits
    report = Report()
    until = time.perf_counter() + seconds if seconds else None
    for state in states:
        if until is not None and report.done and time.perf_counter() >= until:
            break
        report.done += 1
        time.sleep(0)  # a stop waiting on the store's lock takes it now, not after the page
        idle = now - state.updated_at
        if idle >= lim.forget_after:  # unless a stop came since the page was read
            if sup.forget(state.session_id, now - lim.forget_after):
                report.forgotten.append(state.session_id)
            continue
        found = conditions(state, now, lim)
        if found and not all(c in state.flags for c in found):
            raised = sup.flag(state.session_id, found, now)
            if raised:
                report.alerts.append(Alert(state.session_id, raised))
        if state.status == "running" and idle >= lim.abandon_after:
            why = f"silent for {_span(idle)}: marked abandoned"
            sup.set_status(state.session_id, "abandoned", why, now)
            report.abandoned.append(state.session_id)
    return report


def run(sup: Supervisor, now: float | None = None, limits: Limits | None = None) -> Report:
    """One watchdog pass: `check`, then `cleanup_stale`."""
    ts = time.time() if now is None else now
    alerts = check(sup, ts, limits)
    report = cleanup_stale(sup, ts, limits)
    report.alerts = alerts
    return report
