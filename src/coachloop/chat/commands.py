"""The texts the bridge answers with (HTML, escaped): session lists, status, help."""

from __future__ import annotations

import time

from coachloop.chat.render import short_id
from coachloop.chat.routing import label
from coachloop.chat.split import escape
from coachloop.core.session import SessionState

HELP = (
    "Reply to a delivered message to answer its session (the agent resumes there).\n"
    "Send a new message to start a session in this chat's project.\n\n"
    "/sessions — the sessions of this chat\n"
    "/status SESSION — where a session stands\n"
    "/stop SESSION — end its running turn at the next tool call or stop (else mark it done)\n"
    "/continue SESSION [text] — resume it (with “continue” or your text)\n"
    "👍 on a delivered message, or /done as a reply — its job is done\n"
    "👎 on a delivered message, or /reject as a reply — send it back to work\n\n"
    "SESSION is an id or its first characters; in a reply to a session's message, leave it out."
)
MAX_LISTED = 15


def ago(ts: float, now: float | None = None) -> str:
    """`ts` as a short age: "12s", "5m", "3h", "2d"."""
    secs = max(0.0, (time.time() if now is None else now) - ts)
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60)):
        if secs >= size:
            return f"{int(secs // size)}{unit}"
    return f"{int(secs)}s"


def session_line(state: SessionState, running: bool, now: float | None = None) -> str:
    """One line of `/sessions`."""
    name = label(state)
    where = f" · {escape(name)}" if name else ""
    busy = " · ▶ turn running" if running else ""
    when = ago(state.updated_at, now)
    return f"<code>{escape(short_id(state.session_id))}</code> {state.status}{where} · {when}{busy}"


def sessions_text(lines: list[str], total: int) -> str:
    if not lines:
        return "No sessions yet. Send a message to start one."
    more = f"\n… and {total - len(lines)} more" if total > len(lines) else ""
    return "\n".join(lines) + more


def status_text(state: SessionState, running: bool, queued: int, cap: int) -> str:
    """The answer to `/status SESSION`."""
    rows = [
        ("session", f"<code>{escape(state.session_id)}</code>"),
        ("status", state.status + (" (turn running)" if running else "")),
        ("project", escape(state.project or state.cwd or "?")),
        ("agent", escape(state.agent or "?")),
        ("auto-continues", f"{state.continues}/{cap} since the last human message"),
        ("stops", str(state.stops)),
        ("last verdict", escape(state.last_verdict or "-")),
        ("last decision", escape(state.last_decision or "-")),
        ("active", f"{ago(state.updated_at)} ago"),
    ]
    if queued:
        rows.append(("queued replies", str(queued)))
    if state.flags:
        rows.append(("watchdog", escape(", ".join(state.flags))))
    return "\n".join(f"<b>{k}</b>: {v}" for k, v in rows)


def ambiguous_text(name: str, matches: list[SessionState]) -> str:
    if not matches:
        return f"No session of this chat matches <code>{escape(name)}</code> (see /sessions)."
    ids = ", ".join(f"<code>{escape(s.session_id[:12])}</code>" for s in matches[:5])
    return f"<code>{escape(name)}</code> matches several sessions: {ids}. Give more characters."
