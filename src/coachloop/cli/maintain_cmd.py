"""`coachloop maintain`: run the periodic jobs now, to the end.

The daemon and `coachloop serve` run the watchdog and the retention cleanups in the
background, a bounded step at a time; this command runs them at once, for a store no
warm process serves (or before a backup): the watchdog over every session (alerts,
abandoned and forgotten sessions, whose rows are then purged), old snapshots and
lifecycle records past the retention, delivered outbox rows past their keep time.
Exit status: 0 on success; 2 when the store cannot be opened.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import click

__all__ = ["maintain"]


@click.command("maintain")
@click.option(
    "--project",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="The project whose store and settings to use (default: the user's store).",
)
@click.option("--store", "target", default=None, help="SQLite file or redis:// URL.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a summary.")
def maintain(project: Path | None, target: str | None, as_json: bool) -> None:
    """Run the watchdog and the retention cleanups now, over the whole store."""
    from coachloop.cli.sessions_cmd import _fail
    from coachloop.config import ConfigError
    from coachloop.store import StoreError, open_store
    from coachloop.supervisor import Supervisor
    from coachloop.supervisor.service import retention_days

    proj = project.expanduser().resolve() if project else None
    try:
        if target is None:
            sup = Supervisor.open(proj)
        else:
            sup = Supervisor(open_store(target), retention_days=retention_days(proj))
    except (StoreError, ConfigError) as exc:
        _fail(str(exc))
    start = time.perf_counter()
    try:
        done = sup.maintain_all()
    finally:
        sup.close()
    stale = done.stale
    report: dict[str, Any] = {
        "alerts": [
            {"session": a.session_id, "conditions": list(a.conditions)} for a in done.alerts
        ],
        "abandoned": stale.abandoned if stale else [],
        "forgotten": stale.forgotten if stale else [],
        "snapshots_removed": done.cleanup.removed if done.cleanup else 0,
        "outbox_trimmed": done.trimmed,
        "records_removed": done.records,
        "rows_purged": done.purged,
        "seconds": round(time.perf_counter() - start, 3),
    }
    if as_json:
        click.echo(json.dumps(report, indent=2))
        return
    click.echo(
        f"Watchdog: {len(report['alerts'])} new alert(s), {len(report['abandoned'])} "
        f"session(s) abandoned, {len(report['forgotten'])} forgotten "
        f"({report['rows_purged']} of their row(s) purged)."
    )
    click.echo(
        f"Cleanup: {report['snapshots_removed']} snapshot(s) and "
        f"{report['records_removed']} lifecycle record(s) removed, "
        f"{report['outbox_trimmed']} delivered outbox row(s) trimmed "
        f"({report['seconds']:g} s)."
    )
