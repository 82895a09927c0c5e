"""`coachloop upgrade [PROJECT…]`: merge stores written per project by earlier versions.

Runs the upgrade step `0004_home_merge_project_stores` (`coachloop.store.upgrade`) for
each PROJECT (default: the project of the current directory, as the hooks find it): its
`.coachloop/coachloop.db` is merged into the store the project now uses (the home's,
unless its config names one of its own) and renamed `coachloop.db.merged`. The same step
runs by itself when a hook, the bridge or `sessions --project` first opens the project;
this command does it now and says what it did; `--scan` adds every project Claude Code,
Codex or Gemini recorded that still has an old store (`coachloop.install.known`).
Idempotent. Exit status: 0 when every project is merged (or had nothing to merge), 2
when one could not be.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

__all__ = ["upgrade"]


def _one(directory: Path) -> dict[str, Any]:
    from coachloop.config.project import project_root
    from coachloop.store import StoreError, open_store, resolve
    from coachloop.store.registry import register
    from coachloop.store.upgrade import merge_project

    root = project_root(str(directory.expanduser().resolve())) or directory.resolve()
    out: dict[str, Any] = {"project": str(root), "ok": True}
    try:
        where = resolve(project=root)
        store = open_store(where.text, prefix=where.prefix)
        try:
            merged = merge_project(root, store)
        finally:
            store.close()
        if where.own:
            register(root)
    except StoreError as exc:
        return {**out, "ok": False, "error": str(exc)}
    if merged is None:
        return {**out, "merged": None}
    return {
        **out,
        "merged": {
            "source": str(merged.source),
            "into": merged.into,
            "already": merged.already,
            "sessions": merged.sessions,
            "events": merged.events,
            "outbox": merged.outbox,
            "undelivered": merged.pending,
            "kept_as": str(merged.set_aside) if merged.set_aside else None,
        },
    }


def _line(report: dict[str, Any]) -> str:
    name = report["project"]
    if not report["ok"]:
        return f"{name}: not merged: {report['error']}"
    m = report["merged"]
    if m is None:
        return f"{name}: no store from an earlier version; nothing to merge"
    kept = f"; the old file is kept as {m['kept_as']}" if m["kept_as"] else ""
    if m["already"]:
        return f"{name}: {m['source']} was merged into {m['into']} before{kept}"
    return (
        f"{name}: merged {m['sessions']} sessions, {m['events']} events and {m['outbox']}"
        f" outbox rows ({m['undelivered']} undelivered, sent by the next bridge) from"
        f" {m['source']} into {m['into']}{kept}"
    )


@click.command("upgrade")
@click.argument("projects", nargs=-1, type=click.Path(file_okay=False, path_type=Path))
@click.option(
    "--scan",
    is_flag=True,
    help="Also every project Claude Code, Codex or Gemini knows that has an old store.",
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
def upgrade(projects: tuple[Path, ...], scan: bool, as_json: bool) -> None:
    """Merge each PROJECT's store from an earlier version into the home store (default:
    the current directory's project). The old file is renamed, never deleted."""
    from coachloop.install.known import old_stores

    chosen = list(projects) if projects or scan else [Path.cwd()]
    if scan:
        chosen += [p for p in old_stores() if p not in chosen]
    reports = [_one(p) for p in chosen]
    if as_json:
        click.echo(json.dumps({"projects": reports}, indent=2))
    elif scan and not reports:
        click.echo("No project the agents know has a store from an earlier version.")
    else:
        for report in reports:
            click.echo(_line(report))
    if not all(r["ok"] for r in reports):
        sys.exit(2)
