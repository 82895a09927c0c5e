"""`coachloop serve`: one warm process answering agent hooks.

- `http.py`: POST /hooks/<agent> for Claude Code `http` hook handlers (and Codex, Gemini),
  GET /health.
- `sock.py`: the unix-socket daemon behind the fast command hook
  (`coachloop.agents.client` speaks its protocol).
- `activity.py`: the one place both call `coachloop.agents.hook.handle`, counting
  requests for the idle timeout.
- `daemon.py`: process lifecycle: signals, idle exit, clean shutdown.
- `lock.py`: one daemon per socket; `daemon_pid`, `stop_daemon`.

Every request is handled by `handle(agent, raw)`, exactly as the in-process command hook
does; all state lives in the store, so replicas on one Redis store act as one.
"""

from coachloop.server.daemon import ServeOptions, run
from coachloop.server.lock import daemon_pid, stop_daemon

__all__ = ["ServeOptions", "daemon_pid", "run", "stop_daemon"]
