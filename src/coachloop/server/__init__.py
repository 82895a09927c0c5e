"""`coachloop serve`: one warm process answering agent hooks.

- `http.py`: POST /hooks/<agent> for Claude Code `http` hook handlers (and Codex, Gemini),
  GET /health.
- `sock.py`: the unix-socket daemon behind the fast command hook
  (`coachloop.agents.client` speaks its protocol).
- `activity.py`: the one place both call `coachloop.agents.hook.handle`, counting
  requests for the idle timeout.
- `daemon.py`: process lifecycle: the socket's lock, signals, idle exit, clean shutdown.

Every request is handled by `handle(agent, raw)`, exactly as the in-process command hook
does; all state lives in the store, so replicas on one Redis store act as one.
"""

from coachloop.server.daemon import ServeOptions, run, stop_daemon

__all__ = ["ServeOptions", "run", "stop_daemon"]
