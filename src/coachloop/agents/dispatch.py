"""Acting on a normalised `Hook`: the supervisor's side of every hook adapter.

`run(hook)` takes the supervisor of the hook's project (opened once per process and
reused: `coachloop.agents.projects`), acts, and returns the coaching to send the agent
back with (None: let it stop). Per action:

- "stop": judge the agent's text with the session's prompt, skill and plan, decide
  through the supervisor, record; return the coaching when the decision is "continue"
  and the agent can be sent back (never for a StopFailure). The job is the agent's own
  id, else derived from the session and its last human message, so a continuation keeps
  its job. The stop's context (a subagent? can the agent be sent back?) is part of the
  event: the policy drops a subagent's deliveries (its output goes back to its parent)
  and delivers, coaching attached, what it would continue for an agent that cannot be
  sent back (Codex notify).
- "prompt": a human message (resets the cap, records prompt and skill), unless it is our
  own continuation echoed back (the session was just continued and the "prompt" is the
  coaching).
- "tool": a tool call ended in a running turn; returns the human's queued messages
  (`coachloop.supervisor.steering`) to add to the turn, or None.
- "pretool": a tool call is about to run; when the human asked to stop (`/stop`), the
  turn ends here (returns the note; `supervisor.stopping`), else None. A stop of a
  session marked to stop is decided but never continued (`policy.decide`).
- "notice", "start", "end": see `coachloop.agents.lifecycle`.

At a stop of the main agent, messages the human queued during the turn come first: the
agent is sent back with them (`[Human] …`) and the stop is not judged.

The project is `coachloop.config.project.project_root(cwd)`. Every delivery is also
announced on the console channel (`coachloop.chat.delivery`).
"""

from __future__ import annotations

import hashlib
from dataclasses import replace
from typing import TYPE_CHECKING

from coachloop.agents import lifecycle
from coachloop.agents.payload import Hook, clip_middle
from coachloop.chat import delivery
from coachloop.config.project import project_root
from coachloop.core.events import HumanMessage, StopEvent

if TYPE_CHECKING:
    from coachloop.agents.projects import OpenProject
    from coachloop.config import Settings
    from coachloop.core.session import Decision, SessionState
    from coachloop.supervisor import Supervisor

REPLAY_WINDOW = 600.0  # seconds a recorded stop's answer is given again to the same stop


def run(hook: Hook) -> str | None:
    """Act on `hook`; returns the coaching that sends the agent back, or None."""
    from coachloop.agents.projects import opened

    hook = at_the_door(hook)
    root = project_root(hook.cwd)
    project = str(root) if root else hook.cwd
    ctx = opened(root)
    if hook.action == "stop":
        return _stop(ctx, hook, project)
    if hook.action == "tool":
        return _tool(ctx, hook)
    if hook.action == "pretool":
        return _pretool(ctx, hook)
    if hook.action == "prompt":
        _prompt(ctx, hook, project)
    elif hook.action == "notice":
        lifecycle.notice(ctx.supervisor, hook, project)
    elif hook.action == "start":
        lifecycle.start(ctx.supervisor, hook, project)
    elif hook.action == "end":
        lifecycle.end(ctx.supervisor, hook)
    return None


def at_the_door(hook: Hook) -> Hook:
    """`hook` with its texts redacted (`coachloop.redaction`): nothing after this point (the
    judge, which may be a remote model; the store; logs; deliveries) sees a secret the
    agent printed or the human typed."""
    from coachloop.redaction import redact

    text, prompt = redact(hook.text), redact(hook.prompt) if hook.prompt else hook.prompt
    error, detail = redact(hook.error) if hook.error else hook.error, redact(hook.detail)
    if (text, prompt, error, detail) == (hook.text, hook.prompt, hook.error, hook.detail):
        return hook
    return replace(hook, text=text, prompt=prompt, error=error, detail=detail)


# --- stops ------------------------------------------------------------------------------


def _stop(ctx: OpenProject, hook: Hook, project: str) -> str | None:
    from coachloop.supervisor import context_for

    sup = ctx.supervisor
    state = sup.state(hook.session_id)
    if replayed(hook, state):  # this very stop was decided already: answer the same
        reply = state.last_reply if state is not None else None
        return reply if reply and hook.can_block and hook.kind != "StopFailure" else None
    state = _new_turn(sup, hook, state, project, ctx.settings)
    job = hook.job_id or derived_job(hook.session_id, state)
    if hook.sub_id and job:
        job = f"{job}/{hook.sub_id}"
    event = StopEvent(
        hook.session_id,
        text=clip_middle(hook.text),
        agent=hook.agent,
        project=project,
        cwd=hook.cwd,
        kind=hook.kind,
        job_id=job,
        error=hook.error,
        transcript_path=hook.transcript_path,
        stop_hook_active=hook.stop_hook_active,
        can_block=hook.can_block,
        stop_id=hook.stop_id,
    )
    if hook.kind == "Stop" and hook.can_block and state is not None and state.steering:
        steered = sup.steer_at_stop(event)  # the human spoke during the turn: no judging
        if steered is not None:
            return steered.decision.text
    from coachloop.record import for_stop

    item = for_stop(context_for(state, event), event)
    decision = sup.on_stop(event, ctx.judge.judge(item), item.record).decision
    _announce(hook, project, decision)
    if decision.blocks and hook.can_block and hook.kind != "StopFailure":
        return decision.text
    return None


def replayed(hook: Hook, state: SessionState | None) -> bool:
    """True when `hook` is the stop the session recorded last (same `stop_id`, within
    `REPLAY_WINDOW` seconds): a client that lost its daemon's reply sends the same stop
    again, and it gets the recorded answer instead of a second decision."""
    import time

    return (
        hook.stop_id is not None
        and state is not None
        and state.last_stop_id == hook.stop_id
        and time.time() - state.updated_at < REPLAY_WINDOW
    )


def derived_job(session_id: str, state: SessionState | None) -> str | None:
    """A job id for agents that give none: the session and its last human message (so a
    continuation keeps the job and the next prompt starts a new one); None before any."""
    if state is None or state.last_human_at is None:
        return None
    seed = f"{session_id}\0{state.last_human_at!r}".encode("utf-8", "replace")
    return "h-" + hashlib.blake2b(seed, digest_size=8).hexdigest()


def _new_turn(
    sup: Supervisor, hook: Hook, state: SessionState | None, project: str, settings: Settings
) -> SessionState | None:
    """Record the human turn a stop reveals when the agent has no prompt hook (see
    `Hook.turn_rule`). Never right after a continuation: that stop is its reply."""
    if hook.turn_rule == "none" or hook.stop_hook_active:
        return state
    if state is not None and state.last_decision == "continue":
        return state
    if hook.turn_rule == "prompt":
        from coachloop.supervisor.policy import MAX_PROMPT_CHARS

        prompt = hook.prompt or ""
        if not prompt.strip():
            return state
        if state is not None and state.context.prompt == prompt[:MAX_PROMPT_CHARS]:
            return state
        return _human(sup, hook, prompt, project, settings)
    if state is None or not state.jobs or hook.job_id is None or state.job(hook.job_id):
        return state  # no ledger yet, or a human message cleared it, or a known job
    return _human(sup, hook, state.context.prompt or "", project, settings)


def _tool(ctx: OpenProject, hook: Hook) -> str | None:
    state = ctx.supervisor.state(hook.session_id)
    if state is None or not state.steering:
        return None  # the common case: one read, nothing written
    where = f"after a tool call ({hook.detail})" if hook.detail else "after a tool call"
    return ctx.supervisor.steer_mid_turn(hook.session_id, where).text or None


def _pretool(ctx: OpenProject, hook: Hook) -> str | None:
    state = ctx.supervisor.state(hook.session_id)
    if state is None or state.stop_requested is None:
        return None
    where = f"before a tool call ({hook.detail})" if hook.detail else "before a tool call"
    note = ctx.supervisor.stop_now(hook.session_id, where)
    if note is not None:
        delivery.announce(hook.session_id, hook.agent, hook.cwd, [("notice", note)])
    return note


# --- human prompts, notices, session start and end -----------------------------------


def _prompt(ctx: OpenProject, hook: Hook, project: str) -> None:
    from coachloop.coach import PLAIN, PREFIX

    sup = ctx.supervisor
    state = sup.state(hook.session_id)
    said = hook.text.strip()
    echoed = said.startswith(PREFIX) or said.lower() == PLAIN
    if echoed and state is not None and state.last_decision == "continue":
        return  # our own continuation, injected as a prompt: not the human
    _human(sup, hook, hook.text, project, ctx.settings)


def _human(
    sup: Supervisor, hook: Hook, text: str, project: str, settings: Settings
) -> SessionState:
    from coachloop.coach.skills import all_skills, detect_skill

    skill = detect_skill(texts=[text], skills=all_skills(settings.skills))
    msg = HumanMessage(
        hook.session_id,
        clip_middle(text),
        source="prompt",
        skill=skill.name if skill else None,
        phase=skill.phase if skill else None,
        project=project,
        agent=hook.agent,
    )
    return sup.on_human(msg)


# --- helpers -----------------------------------------------------------------------------


def _announce(hook: Hook, project: str, decision: Decision) -> None:
    items = [("deliver", decision.text)] if decision.kind == "deliver" else []
    items += [("notice", n) for n in decision.notices]
    if items:
        delivery.announce(hook.session_id, hook.agent, project, items)
