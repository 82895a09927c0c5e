"""Handling one hook call in-process: normalise, judge, decide, reply.

`handle(agent, raw)` is the single entry point shared by the command hook, the warm
daemon and the HTTP endpoint. (Being built: see issue 4.)
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class HookReply:
    """What to print on stdout and the exit code; empty stdout lets the agent stop."""

    stdout: bytes = b""
    exit_code: int = 0


def handle(agent: str, raw: bytes) -> HookReply:
    """Handle one hook payload for `agent`; never raises (fails open)."""
    return HookReply()
