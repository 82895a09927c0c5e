"""`coachloop hook AGENT`: the process an agent starts at every stop.

Contract: read the hook JSON from stdin, write the agent's reply to stdout, exit 0.
Any internal failure lets the agent stop (fail open): nothing printed, exit 0, and the
error logged. This module imports only the standard library.
"""

from __future__ import annotations

import sys


def main(args: list[str]) -> int:
    """Run one hook call for `args[0]` (the agent name); always returns an exit code."""
    try:
        from coachloop.agents.hook import handle

        raw = sys.stdin.buffer.read()
        reply = handle(args[0], raw)
        if reply.stdout:
            sys.stdout.buffer.write(reply.stdout)
            sys.stdout.flush()
        return reply.exit_code
    except Exception:  # fail open: the agent must always be able to stop
        return 0
