"""`coachloop sessions` and `coachloop show SESSION`: what the supervisor did, and why.

Stores read: `--store` (a SQLite path or a redis:// URL) or the `COACHLOOP_STORE`
variable alone; else the home store (`[store] url` of the user's config, else
`$COACHLOOP_HOME/coachloop.db`, where every project's sessions are by default) and the
store of each project in the home's registry (projects with a store of their own, see
`coachloop.store.registry`). `--project` keeps that project's sessions (its directory or
below). Reading never creates a database (with no store yet, `sessions` lists nothing),
except to merge `--project`'s store from a previous version (`coachloop.store.upgrade`).
Exit status: 0 on success; 2 for an unknown session, a store that cannot be opened (for
instance a file that is not a database) or bad configuration; a registered project's
store that cannot be read is a warning on stderr.
"""

from __future__ import annotations

import json
import sys
import time
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import click

if TYPE_CHECKING:
    from coachloop.core.session import SessionState
    from coachloop.store import EventRecord, Store

__all__ = ["sessions", "show"]

_PREVIEW = 240
SESSIONS_SHOWN = 20  # rows of `sessions` by default: a screen
EVENTS_SHOWN = 100  # events of `show` by default (text)


def _fail(message: str, code: int = 2) -> NoReturn:
    click.echo(f"Error: {message}", err=True)
    sys.exit(code)


def _age(seconds: float) -> str:
    seconds = max(0.0, seconds)
    for unit, size in (("d", 86_400), ("h", 3600), ("m", 60)):
        if seconds >= size:
            return f"{int(seconds // size)}{unit}"
    return f"{int(seconds)}s"


def _open(project: Path | None, target: str | None) -> list[Store]:
    """The stores to read (none when no store exists yet: nothing is created)."""
    from coachloop.store import StoreError
    from coachloop.store.registry import open_stores

    try:
        found = open_stores(target, project)
    except StoreError as exc:
        _fail(str(exc))
    for problem in found.problems:
        click.echo(f"Warning: {problem}", err=True)
    return found.stores


def _open_for(project: Path | None, target: str | None, session_id: str) -> Store | None:
    """The one store to act on `session_id` in: the store that has it, else the first
    one read (whose error then names the unknown session); None when none exists yet.
    The other stores are closed."""
    stores = _open(project, target)
    chosen = _holder(stores, session_id) or (stores[0] if stores else None)
    for store in stores:
        if store is not chosen:
            store.close()
    return chosen


def _holder(stores: list[Store], session_id: str) -> Store | None:
    """The first store that has `session_id` exactly."""
    from coachloop.store import UnknownSession

    for store in stores:
        try:
            store.get_session(session_id)
        except UnknownSession:
            continue
        return store
    return None


def _locate(stores: list[Store], session_id: str) -> tuple[Store, str]:
    """The store holding `session_id`, and its full id: the id itself, or the one id
    starting with it (the short form the tables print). Raises `UnknownId` (with "did
    you mean") or `AmbiguousId` from `coachloop.cli.ids`."""
    from coachloop.cli.ids import resolve

    store = _holder(stores, session_id)
    if store is not None:
        return store, session_id
    owner: dict[str, Store] = {}
    for each in stores:
        for known in each.list_sessions():
            owner.setdefault(known.session_id, each)
    where = stores[0].location if len(stores) == 1 else ""
    full = resolve(session_id, owner, where=where)
    return owner[full], full


def _within(value: str, project: Path) -> bool:
    from coachloop.cli.pages import within

    return within(value, project)


def _cap(project: Path | None) -> int:
    from coachloop.config import ConfigError, load_settings

    try:
        return load_settings(project).max_auto_continues
    except ConfigError as exc:
        _fail(f"bad configuration: {exc}")


def _row(state: SessionState, cap: int, now: float) -> dict[str, Any]:
    return {
        "session": state.session_id,
        "agent": state.agent,
        "project": state.project,
        "status": state.status,
        "continues": state.continues,
        "cap": cap,
        "last_verdict": state.last_verdict,
        "last_decision": state.last_decision,
        "age_seconds": round(now - state.created_at, 1),
        "idle_seconds": round(now - state.updated_at, 1),
        "flags": list(state.flags),
    }


def _print_table(rows: list[dict[str, Any]]) -> None:
    from rich.console import Console

    from coachloop.cli.render import sessions_table

    # a terminal gets its width and colour; a pipe gets 80 plain columns
    Console(highlight=False, emoji=False).print(sessions_table(rows, _age))


@click.command("sessions")
@click.option(
    "--project",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Only this project's sessions (its directory and below).",
)
@click.option("--store", "target", default=None, help="SQLite file or redis:// URL to read.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
@click.option("--watchdog", is_flag=True, help="Run the watchdog first (flags and alerts).")
@click.option("--cleanup", is_flag=True, help="Remove old snapshots and stale sessions first.")
@click.option(
    "--limit",
    type=click.IntRange(min=0),
    default=SESSIONS_SHOWN,
    show_default=True,
    help="The newest N sessions (0: all of them).",
)
def sessions(
    *,
    project: Path | None,
    target: str | None,
    as_json: bool,
    watchdog: bool,
    cleanup: bool,
    limit: int,
) -> None:
    """List sessions, newest first: agent, project, status, auto-continues used, last
    verdict, age. Reads one page per store on an index, whatever the store's size."""
    from coachloop.cli.pages import newest
    from coachloop.store import StoreError

    proj = project.expanduser().resolve() if project else None
    stores = _open(proj, target)
    cap = _cap(proj)
    now = time.time()
    extra: dict[str, Any] = {}
    states: list[SessionState] = []
    try:
        for store in stores:
            if watchdog or cleanup:
                found = _maintain(store, proj, watchdog=watchdog, cleanup=cleanup, now=now)
                _add(extra, found)
                cleanup = False  # snapshots are the home's: cleaned once
            states.extend(newest(store, proj, limit + 1 if limit else 0))
    except StoreError as exc:
        _fail(str(exc))
    finally:
        for store in stores:
            store.close()
    if proj is not None:
        states = [s for s in states if _within(s.project, proj) or _within(s.cwd, proj)]
    states.sort(key=lambda s: (s.updated_at, s.session_id), reverse=True)
    more = bool(limit) and len(states) > limit
    rows = [_row(s, cap, now) for s in (states[:limit] if limit else states)]
    messages = extra.pop("messages", [])
    if as_json:
        click.echo(json.dumps({"sessions": rows, **extra}, indent=2))
        return
    for line in messages:
        click.echo(line)
    if not rows:
        click.echo("No sessions recorded yet.")
        return
    _print_table(rows)
    if more:
        click.echo(f"(the newest {limit} shown; --limit N for more, --limit 0 for all)")


def _add(total: dict[str, Any], part: dict[str, Any]) -> None:
    """Sum the maintenance reports of several stores (alerts listed, lines kept)."""
    for key, value in part.items():
        if isinstance(value, list):
            total.setdefault(key, []).extend(value)
        else:
            total.setdefault(key, value)


def _maintain(
    store: Store, project: Path | None, *, watchdog: bool, cleanup: bool, now: float
) -> dict[str, Any]:
    from coachloop import snapshots
    from coachloop.config import ConfigError
    from coachloop.supervisor import Supervisor
    from coachloop.supervisor import watchdog as wd
    from coachloop.supervisor.service import retention_days

    sup = Supervisor(store)  # the one door: alerts and status changes get their snapshots
    out: dict[str, Any] = {"messages": []}
    if watchdog:
        alerts = wd.check(sup, now)
        out["alerts"] = [
            {"session": a.session_id, "conditions": list(a.conditions)} for a in alerts
        ]
        out["messages"].append(f"Watchdog: {len(alerts)} new alert(s).")
    if cleanup:
        try:
            days = retention_days(project)
        except ConfigError as exc:
            _fail(f"bad configuration: {exc}")
        snap = snapshots.cleanup(days, now=now)
        stale = wd.cleanup_stale(sup, now)
        out["cleanup"] = {
            "snapshots_removed": snap.removed,
            "snapshot_errors": snap.errors,
            "abandoned": stale.abandoned,
            "forgotten": stale.forgotten,
        }
        out["messages"].append(
            f"Cleanup: {snap.removed} snapshot(s) older than {days:g} days removed, "
            f"{len(stale.abandoned)} session(s) abandoned, {len(stale.forgotten)} forgotten."
        )
    return out


def _preview(text: str, full: bool) -> str:
    text = text.strip()
    if full or len(text) <= _PREVIEW:
        return text
    return text[:_PREVIEW].rstrip() + " …"


def _event_lines(e: EventRecord, full: bool) -> list[str]:
    stamp = time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(e.ts))
    if e.kind == "stop" and e.verdict is not None:
        v = e.verdict
        head = f"#{e.id} {stamp} stop    {v.get('type')} ({v.get('confidence')}, {e.source})"
        head += f" -> {e.decision}: {e.why}"
        lines = [head]
        if e.job_id:
            lines.append(f"    job: {e.job_id}")
        lines.append(f"    agent: {_preview(e.text, full) or '(no text)'}")
        evidence = v.get("evidence")
        recorded = evidence.get("recorded") if isinstance(evidence, dict) else None
        lines.extend(f"    {fact}" for fact in recorded or () if isinstance(fact, str))
        if e.decision == "continue":
            lines.append(f"    coaching: {_preview(e.message, full)}")
        elif e.decision == "deliver" and e.message != e.text:
            lines.append(f"    delivered: {_preview(e.message, full)}")
    elif e.kind == "human":
        lines = [f"#{e.id} {stamp} human   ({e.source}) {_preview(e.text, full)}"]
    else:
        lines = [f"#{e.id} {stamp} {e.kind:<7} {e.why}: {_preview(e.message, full)}"]
    lines.extend(f"    notice: {_preview(n, full)}" for n in e.notices)
    return lines


@click.command("show")
@click.argument("session_id")
@click.option(
    "--project",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Look in this project's store (the home's, or its own).",
)
@click.option("--store", "target", default=None, help="SQLite file or redis:// URL to read.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
@click.option("--full", is_flag=True, help="Do not shorten long texts.")
@click.option(
    "--limit",
    type=click.IntRange(min=1),
    default=None,
    help=f"Only the last N events (text: {EVENTS_SHOWN} unless --all).",
)
@click.option("--all", "show_all", is_flag=True, help="Every event, however long the timeline.")
@click.option(
    "--snapshot",
    "snapshot_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Also write the session's lifecycle records (redacted JSON) into this folder.",
)
def show(
    session_id: str,
    *,
    project: Path | None,
    target: str | None,
    as_json: bool,
    full: bool,
    limit: int | None,
    show_all: bool,
    snapshot_dir: Path | None,
) -> None:
    """The timeline of one session: every stop with its verdict, decision and coaching
    (a long one is paged: the last events, and how to see more)."""
    from coachloop.store import StoreError
    from coachloop.store.records import job_summaries

    proj = project.expanduser().resolve() if project else None
    stores = _open(proj, target)
    if not stores:
        _fail(f"unknown session {session_id!r}: no store has been written yet")
    from coachloop.cli.ids import AmbiguousId, UnknownId

    try:
        store, session_id = _locate(stores, session_id)
        state = store.get_session(session_id)
        if limit is None and not as_json and not show_all:
            limit = EVENTS_SHOWN
        events = store.timeline(session_id, limit + 1 if limit else None)
        older = bool(limit) and len(events) > (limit or 0)
        events = events[1:] if older else events
        lives = store.lifecycle(session_id, 1_000_000) if snapshot_dir is not None else []
        records = {e.id: e for e in store.timeline(session_id)} if lives else {}
        jobs = job_summaries(state, store.timeline(session_id)) if as_json else []
    except (StoreError, UnknownId, AmbiguousId) as exc:
        _fail(str(exc))
    finally:
        for store in stores:
            store.close()
    if snapshot_dir is not None:
        from coachloop.snapshot_pack import export

        written = export(lives, snapshot_dir, records)
        click.echo(f"Wrote {len(written)} lifecycle record(s) to {snapshot_dir}", err=as_json)
    from coachloop.redaction import redact_value

    if as_json:
        payload = {
            "session": state.to_dict(),
            "jobs": [asdict(j) for j in jobs],
            "events": [e.to_dict() for e in events],
        }
        click.echo(json.dumps(redact_value(payload), indent=2))
        return
    from coachloop.cli.render import emit

    ctx = state.context
    from coachloop.redaction import shown

    # stored texts may predate redaction; agents' texts may hold terminal escapes
    head = [
        f"Session {state.session_id} ({state.agent or 'agent'}, {state.project or '-'})",
        f"status {state.status}, auto-continues {state.continues} since the last human "
        f"message, {state.stops} stops, last verdict {state.last_verdict or '-'}",
    ]
    if ctx.skill or ctx.plan_file:
        head.append(f"skill {ctx.skill or '-'}, plan {ctx.plan_file or '-'}")
    if state.flags:
        head.append(f"watchdog flags: {', '.join(state.flags)}")
    head.append("")
    if older:
        head.append(f"(older events not shown: the last {limit}; --limit N or --all for more)")
    emit([shown(line) for line in head])
    for e in events:
        emit([shown(line) for line in _event_lines(e, full)])
