"""Handling one hook call in-process: normalise, judge, decide, reply.

`handle(agent, raw)` is the single entry point shared by the command hook, the warm
daemon and the HTTP endpoint. `agent` names a hook of the registry
(`coachloop.core.agents.HOOKS`); for "codex-notify" (Codex CLI `notify`) `raw` is its
JSON argument, the last argv item.

Contract: it never raises and always answers exit code 0. The reply's stdout is the
agent's "continue" reply (`{"decision": "block"|"deny", "reason": …}`, at most 10,000
characters) when the supervisor sends the agent back, else empty (the agent stops).
Anything unexpected (an unknown agent, malformed or binary JSON, wrong types, missing
fields, huge strings, a store or configuration error, a bug) fails open: empty stdout,
exit 0, and one line in `$COACHLOOP_HOME/logs/hook.log` (the error's type and its
message, redacted and cut; never the payload); a configuration error is also said once
on the hook's stderr (the agent shows it), until its message changes. Safe to call from
many threads at once: the store, settings and judge of a project are opened once per
process and shared (`coachloop.agents.projects`); stores serialise their own access,
and every decision is one store transaction.

The pieces: `payload` (untrusted JSON, the normalised `Hook`, replies), one adapter per
agent (`claude_code`, `codex`, `gemini`), `dispatch` (stops and prompts through the
supervisor), `lifecycle` (notifications, session start and end), `delivery` (the
console channel).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from coachloop.core.agents import HOOKS

LOG_NAME = "hook.log"
# A configuration error is said once on the hook's stderr: written here, shown and
# renamed to NOTICE_NAME + ".shown" by the hook client (`client.show_notice`).
NOTICE_NAME = "config-warning"
LOG_LIMIT = 4 * 1024 * 1024
MAX_LOGGED = 300

# hook name -> (module, normaliser attribute), from the registry (`coachloop.core.agents`);
# each module has `reply(reason) -> bytes`
ADAPTERS: dict[str, tuple[str, str]] = {
    name: (spec.adapter.partition(":")[0], spec.adapter.partition(":")[2])
    for name, spec in HOOKS.items()
}
AGENTS: tuple[str, ...] = tuple(ADAPTERS)


@dataclass(frozen=True, slots=True)
class HookReply:
    """What to print on stdout and the exit code; empty stdout lets the agent stop."""

    stdout: bytes = b""
    exit_code: int = 0


def handle(agent: str, raw: bytes) -> HookReply:
    """Handle one hook payload for `agent`; never raises (fails open). A payload the
    store could not take is kept and replayed once it can (`coachloop.agents.spill`)."""
    try:
        reply = _handle(agent, raw)
    except Exception as exc:  # fail open on anything, even a bug
        log_failure(agent, exc)
        if type(exc).__name__ == "StoreError":
            from coachloop.agents import spill

            spill.save(agent, raw)
        return HookReply()
    from coachloop.agents import spill

    if spill.pending():  # the store works again: what it missed goes in now
        spill.replay(lambda name, data: _handle(name, data, replay=True))
    return reply


def _handle(agent: str, raw: bytes, *, replay: bool = False) -> HookReply:
    import importlib

    from coachloop.agents import payload

    target = ADAPTERS.get(agent) if isinstance(agent, str) else None
    if target is None:
        raise payload.PayloadError(f"unknown agent {str(agent)[:40]!r}")
    module = importlib.import_module(target[0])
    normalise: Callable[[dict[str, Any]], payload.Hook | None] = getattr(module, target[1])
    hook = normalise(payload.load(raw))
    if hook is None:
        return HookReply()
    if hook.action == "stop":
        import hashlib
        from dataclasses import replace

        seed = agent.encode() + b"\0" + bytes(raw)
        hook = replace(hook, stop_id=hashlib.blake2b(seed, digest_size=12).hexdigest())
        if replay:  # the agent stopped long ago: it cannot be sent back any more
            hook = replace(hook, can_block=False)
    from coachloop.agents.dispatch import run

    coaching = run(hook)
    if not coaching or not hook.can_block:
        return HookReply()
    if hook.action in ("tool", "pretool"):
        name = "context_reply" if hook.action == "tool" else "halt_reply"
        answer: Callable[[str], bytes] | None = getattr(module, name, None)
        return HookReply(answer(coaching)) if answer is not None else HookReply()
    reply: Callable[[str], bytes] = module.reply
    return HookReply(reply(coaching))


def log_failure(agent: object, exc: BaseException) -> None:
    """One line in the hook log: time, agent, error type and redacted message. Never raises."""
    try:
        from coachloop.config import home
        from coachloop.redaction import redact

        message = " ".join(str(exc)[: 4 * MAX_LOGGED].split())[:MAX_LOGGED]
        name = str(agent)[:40] if isinstance(agent, str) else type(agent).__name__
        stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        line = f"{stamp} agent={name!r} failed open: {type(exc).__name__}: {redact(message)}\n"
        folder = home() / "logs"
        path = folder / LOG_NAME
        try:
            if path.stat().st_size > LOG_LIMIT:
                path.replace(folder / (LOG_NAME + ".1"))
        except OSError:
            pass
        from coachloop.config.private import append_private

        append_private(path, line)
        if type(exc).__name__ == "ConfigError":
            _notice(folder, redact(" ".join(str(exc).split())))
    except Exception:  # logging must never turn a fail-open into a crash
        return


def _notice(folder: Path, message: str) -> None:
    """Queue `message` for the hook's stderr, unless this very message was shown already."""
    text = (
        "coachloop: supervision is OFF (every stop is let through) until the configuration "
        f"is fixed: {message} (`coachloop doctor` checks it)\n"
    )
    shown = folder / (NOTICE_NAME + ".shown")
    try:
        if shown.read_text(encoding="utf-8") == text:
            return
    except OSError:
        pass
    from coachloop.config.private import private_file

    private_file(folder / NOTICE_NAME).write_text(text, encoding="utf-8")
