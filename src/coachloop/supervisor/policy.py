"""The routing policy: one pure function of (session state, stop event, verdict).

`decide` returns the `Decision` and the session's next state; it reads no clock, touches
no store and never raises for a well-formed input, so every rule is testable alone.
Rules, in order:

1. **Crash guard.** An error (verdict type "error", a StopFailure, or an `error` on the
   event) is never continued and marks the session "failed" until the next human
   message: no stop of a failed session is auto-continued. The first error of a run is
   delivered in full; later errors of the same run are dropped and counted. When the run
   ends (the next non-error stop, or a human message) one summary notice ("N more errors
   since T; last: X") is delivered alongside that step's decision. Errors bypass the
   duplicate gate: a failure signal is never lost as a "duplicate".
2. **Duplicate gate** (per `job_id`). Continuing a job or delivering its completion closes
   it: after a completion every later stop of the job is dropped; after a continuation
   only the agent's reply to it (`stop_hook_active`) is accepted, once; a re-send of the
   job's last delivered output (same text up to whitespace) is dropped. A human message
   clears the ledger.
3. **Delivered types** (question, completion, blocker) go to the human.
4. **Status** is auto-continued with the verdict's coaching unless: the output is empty,
   the session failed (no auto-continue until a human message), the session already used
   `max_auto_continues` since the last human message (delivered with a cap note), or the
   text is identical to the output continued just before (delivered with a note).
5. **A stop the human asked for** (`/stop`: `SessionState.stop_requested`): decided as
   above but never continued; what would have been sent back is delivered, the
   request's note attached, the request consumed.
6. **The stop's context.** A subagent's stop (`SubagentStop`) that would be delivered
   is dropped instead: its output goes back to its parent agent, not to the human
   (errors are still delivered). A stop that cannot block (`can_block` False, e.g. a
   Codex `notify`) is never continued: what would have been a continuation is delivered,
   the coaching attached, with the state of a zero cap.

`on_human` resets the count and replaces the prompt context; `context_for` rebuilds the
judge's input from the stored context, so the skill, plan and prompt survive every
continuation.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from coachloop.core.events import AGENT_LABELS, HumanMessage, StopEvent
from coachloop.core.judge_input import JudgeInput
from coachloop.core.session import (
    Context,
    Decision,
    JobMark,
    JobStatus,
    SessionState,
    SessionStatus,
    continue_with,
    deliver,
    digest,
    drop,
    evolve,
    when,
)
from coachloop.core.text import NOTE

if TYPE_CHECKING:
    from coachloop.config import Settings
    from coachloop.core.verdict import Verdict

CLAUDE_CODE_BLOCK_CAP = 8  # Claude Code ends a turn itself after 8 consecutive blocks
PLAIN_CONTINUE = "continue"
MAX_PROMPT_CHARS = 8_000  # the stored prompt is read and written at every stop
SUBAGENT_DROP = "subagent output goes back to its parent agent, not to the human"


@dataclass(frozen=True, slots=True)
class Policy:
    """The supervisor's limits. `max_auto_continues` is per session, since the last human
    message, and must stay below Claude Code's own cap of consecutive Stop-hook blocks."""

    max_auto_continues: int = 3

    def __post_init__(self) -> None:
        if not 0 <= self.max_auto_continues < CLAUDE_CODE_BLOCK_CAP:
            raise ValueError(
                f"max_auto_continues must be within 0..{CLAUDE_CODE_BLOCK_CAP - 1}, "
                f"got {self.max_auto_continues}"
            )

    @classmethod
    def from_settings(cls, settings: Settings) -> Policy:
        """The policy configured in `settings` (project config overrides user config)."""
        return cls(max_auto_continues=settings.max_auto_continues)


def cap_note(n: int) -> str:
    return (
        f"{NOTE} Auto-continue cap reached ({n} of {n} since the last human message); "
        "the agent has stopped and waits for you."
    )


REPEAT_NOTE = (
    f"{NOTE} The agent repeated the output it was just sent back with; "
    "continuing again would loop, so it waits for you."
)
FAILED_NOTE = f"{NOTE} This session failed earlier; it is not auto-continued until you reply."
EMPTY_NOTE = f"{NOTE} The agent stopped without any output."


def _with_note(text: str, note: str) -> str:
    return f"{text.rstrip()}\n\n{note}" if text.strip() else note


def _merge_context(ctx: Context, skill: str | None, phase: str | None, plan: str | None) -> Context:
    if not (skill or phase or plan):
        return ctx  # nothing named: the same context (no copy, at every stop)
    return replace(
        ctx,
        skill=skill or ctx.skill,
        phase=phase or ctx.phase,
        plan_file=plan or ctx.plan_file,
    )


def _end_error_run(state: SessionState) -> tuple[SessionState, tuple[str, ...]]:
    """Close an error run; returns the summary notice when errors were held back (unless
    the watchdog already alerted them: its "errors" flag)."""
    if state.error_run == 0:
        return state, ()
    notices: tuple[str, ...] = ()
    if state.error_run > 1 and "errors" not in state.flags:  # else the watchdog told already
        more = state.error_run - 1
        notices = (
            f"{NOTE} {more} more error{'s' if more > 1 else ''} since "
            f"{when(state.error_since)} were not sent one by one; last: {state.last_error}",
        )
    flags = tuple(f for f in state.flags if f != "errors")
    return evolve(state, error_run=0, error_since=None, last_error=None, flags=flags), notices


def _error(
    state: SessionState, event: StopEvent, verdict: Verdict
) -> tuple[Decision, SessionState]:
    err = (event.error or verdict.reason or "error").strip()[:300]
    base = evolve(state, status="failed", last_error=err, last_continued=None)
    if state.error_run == 0:
        text = event.text.strip() or f"{NOTE} The agent stopped with an error: {err}"
        new = evolve(base, error_run=1, error_since=event.timestamp, last_decision="deliver")
        why = f"error ({err}): delivered once, session marked failed, never auto-continued"
        return deliver(text, why), new
    n = state.error_run + 1
    new = evolve(base, error_run=n, last_decision="drop")
    why = (
        f"error run: error {n} since {when(state.error_since)} ({err}); "
        "summarised when the run ends instead of repeated"
    )
    return drop(why), new


def _gate(state: SessionState, event: StopEvent) -> tuple[str | None, SessionState]:
    """The duplicate gate: a reason to drop the stop, and the state with the job updated."""
    if event.job_id is None:
        return None, state
    job = event.job_id
    mark = state.job(job)
    if mark is None:  # a job first seen: nothing to remember until it is continued or delivered
        return None, state
    if mark.status == "closed":
        return f"duplicate: the completion of job {job} was already delivered", state
    if mark.status == "continued":
        if not event.stop_hook_active:
            return (
                f"duplicate: job {job} was continued and this stop is not the reply to it",
                state,
            )
        return None, state.with_job(replace(mark, status="open"))
    if mark.delivered is not None and mark.delivered == digest(event.text):
        return f"duplicate: job {job} already delivered this exact output", state
    return None, state


def _jobs(
    state: SessionState, event: StopEvent, status: JobStatus, fp: str | None
) -> tuple[JobMark, ...]:
    """The ledger after this stop: the event's job marked `status` (and `fp` delivered)."""
    if event.job_id is None:
        return state.jobs
    old = state.job(event.job_id)
    delivered = fp if fp is not None else (old.delivered if old else None)
    return state.ledger(JobMark(event.job_id, status, delivered))


def _delivered(
    state: SessionState, event: StopEvent, fp: str, *, close: bool, status: SessionStatus
) -> SessionState:
    jobs = _jobs(state, event, "closed" if close else "open", fp)
    return evolve(state, last_continued=None, last_decision="deliver", status=status, jobs=jobs)


def decide(
    state: SessionState, event: StopEvent, verdict: Verdict, policy: Policy | None = None
) -> tuple[Decision, SessionState]:
    """Decide what follows `event` judged as `verdict`; returns (decision, next state).

    Pure: the same inputs always give the same outputs. `state` must be the state of
    `event.session_id` (a new session starts from `SessionState.new`).
    """
    pol = policy or Policy()
    if state.stop_requested is not None and event.kind != "SubagentStop":
        return _stopped(state, event, verdict, pol)
    decision, new = _decide(state, event, verdict, pol)
    if event.kind == "SubagentStop":
        if decision.kind != "deliver" or verdict.type == "error" or event.failed:
            return decision, new
        kept = evolve(new, status=state.status, last_decision="drop")
        return drop(f"{SUBAGENT_DROP} ({decision.why})", decision.notices), kept
    if event.can_block or decision.kind != "continue":
        return decision, new
    held, held_state = _decide(state, event, verdict, Policy(max_auto_continues=0))
    label = AGENT_LABELS.get(event.agent, event.agent)
    note = (
        f"{NOTE} {label} cannot be sent back from this hook; "
        f"the coaching it would have had: {decision.text}"
    )
    text = f"{event.text.rstrip()}\n\n{note}"
    why = f"{decision.why}; delivered instead (the agent cannot be continued)"
    return deliver(text, why, held.notices), held_state


def _stopped(
    state: SessionState, event: StopEvent, verdict: Verdict, policy: Policy
) -> tuple[Decision, SessionState]:
    """A stop of a session the human asked to stop (`/stop`, `supervisor.stopping`):
    decided as usual but never continued (what would have been sent back is delivered),
    with the request's note attached; the request is consumed."""
    decision, new = _decide(state, event, verdict, policy)
    note = f"{state.stop_requested} The turn ended at the agent's stop."
    if decision.kind == "continue":
        held, held_state = _decide(state, event, verdict, Policy(max_auto_continues=0))
        why = f"{decision.why}; not continued: the human asked to stop"
        text = f"{event.text.rstrip()}\n\n{note}".strip()
        return deliver(text, why, held.notices), evolve(held_state, stop_requested=None)
    cleared = evolve(new, stop_requested=None)
    if decision.kind == "deliver":
        return replace(decision, text=f"{decision.text.rstrip()}\n\n{note}"), cleared
    return replace(decision, notices=(*decision.notices, note)), cleared


def _decide(
    state: SessionState, event: StopEvent, verdict: Verdict, policy: Policy
) -> tuple[Decision, SessionState]:
    if event.session_id != state.session_id:
        raise ValueError(
            f"event of session {event.session_id!r} given state of {state.session_id!r}"
        )
    now = event.timestamp
    base = evolve(
        state,
        stops=state.stops + 1,
        updated_at=max(state.updated_at, now),
        last_verdict=verdict.type,
        agent=state.agent or event.agent,
        project=state.project or event.project,
        cwd=event.cwd or state.cwd,
        context=_merge_context(state.context, event.skill, event.phase, event.plan_file),
        flags=tuple(f for f in state.flags if f != "silent"),
    )
    if verdict.type == "error" or event.failed:
        return _error(base, event, verdict)

    why_dup, base = _gate(base, event)
    if why_dup is not None:
        return drop(why_dup), evolve(base, last_decision="drop")

    base, notices = _end_error_run(base)
    text = event.text
    fp = digest(text)
    if verdict.route == "deliver":
        completion = verdict.type == "completion"
        status: SessionStatus = "done" if completion else "waiting"
        if base.status == "failed":
            status = "failed"  # sticky until a human message
        new = _delivered(base, event, fp, close=completion, status=status)
        return deliver(text, f"{verdict.type}: {verdict.reason}", notices), new

    cap = policy.max_auto_continues
    held: tuple[str, str] | None = None
    if not text.strip():
        held = (EMPTY_NOTE, "empty output is never auto-continued")
    elif base.status == "failed":
        held = (
            _with_note(text, FAILED_NOTE),
            "the session failed: no auto-continue until a human message",
        )
    elif base.continues >= cap:
        held = (
            _with_note(text, cap_note(cap)),
            f"auto-continue cap reached ({base.continues}/{cap})",
        )
    elif base.last_continued == fp:
        held = (_with_note(text, REPEAT_NOTE), "identical to the output continued just before")
    if held is not None:
        status = "failed" if base.status == "failed" else "waiting"
        new = _delivered(base, event, fp, close=False, status=status)
        return deliver(held[0], held[1], notices), new

    coaching = (verdict.coaching_message or "").strip() or PLAIN_CONTINUE
    n = base.continues + 1
    new = evolve(
        base,
        continues=n,
        status="running",
        last_continued=fp,
        last_decision="continue",
        jobs=_jobs(base, event, "continued", None),
    )
    decision = continue_with(coaching, f"status ({verdict.reason}): auto-continue {n}/{cap}")
    if notices:
        decision = replace(decision, notices=notices)
    return decision, new


def on_human(state: SessionState | None, msg: HumanMessage) -> tuple[SessionState, tuple[str, ...]]:
    """A human message: reset the count, start a new run, replace the prompt context.

    Returns the next state and the summary notice of an error run it ends (if any).
    Skill, phase and plan are replaced only when the message names them. The job ledger
    is cleared: the human's message starts new work, and a runner that reuses a job id
    across human messages must never see its later output dropped as a duplicate.
    """
    now = msg.timestamp
    st = state or SessionState.new(msg.session_id, now, agent=msg.agent, project=msg.project)
    if st.session_id != msg.session_id:
        raise ValueError(f"message of session {msg.session_id!r} given state of {st.session_id!r}")
    st, notices = _end_error_run(st)
    prompt = msg.text[:MAX_PROMPT_CHARS]
    ctx = _merge_context(replace(st.context, prompt=prompt), msg.skill, msg.phase, msg.plan_file)
    new = evolve(
        st,
        status="running",
        continues=0,
        context=ctx,
        last_continued=None,
        last_stop_id=None,  # the same stop after a human message is new work
        jobs=(),
        updated_at=max(st.updated_at, now),
        run_started_at=now,
        last_human_at=now,
        flags=(),
    )
    return new, notices


def context_for(state: SessionState | None, event: StopEvent) -> JudgeInput:
    """The judge's input for `event`: the event's own context first, then the session's."""
    ctx = state.context if state is not None else Context()
    ctx = _merge_context(ctx, event.skill, event.phase, event.plan_file)
    return JudgeInput(
        text=event.text,
        prompt=ctx.prompt,
        skill=ctx.skill,
        phase=ctx.phase,
        plan_file=ctx.plan_file,
        event=event.kind,
        error=event.error,
    )
