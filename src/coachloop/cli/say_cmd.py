"""`coachloop say SESSION TEXT`: steer a running session from a terminal.

The text is queued for the session (`coachloop.supervisor.steering`): the agent reads it
at its next tool call (Claude Code) or its next stop, before any judging, as `[Human] …`.
A session whose turn is not running is not steered: `say` names the command that
resumes it, unless `--queue` asks to keep the message for its next turn anyway.

Store selection as for `coachloop show`. Exit status: 0 queued (or already queued),
1 the session is idle (nothing queued), 2 an unknown session, an empty text, a full
queue or a store that cannot be used.
"""

from __future__ import annotations

import shlex
import sys
import uuid
from pathlib import Path

import click

__all__ = ["say"]


@click.command("say")
@click.argument("session_id")
@click.argument("text", nargs=-1, required=True)
@click.option(
    "--project",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Look in this project's store (the home's, or its own).",
)
@click.option("--store", "target", default=None, help="SQLite file or redis:// URL.")
@click.option("--queue", "anyway", is_flag=True, help="Queue it even if no turn is running.")
def say(
    session_id: str, text: tuple[str, ...], project: Path | None, target: str | None, anyway: bool
) -> None:
    """Send TEXT to the running session SESSION_ID ("-": read it from stdin)."""
    from coachloop.cli.ids import AmbiguousId, UnknownId
    from coachloop.cli.sessions_cmd import _fail, _locate, _open
    from coachloop.store import StoreError
    from coachloop.supervisor import Supervisor
    from coachloop.supervisor.steering import SteeringError

    body = sys.stdin.read() if text == ("-",) else " ".join(text)
    proj = project.expanduser().resolve() if project else None
    stores = _open(proj, target)
    if not stores:
        _fail(f"unknown session {session_id!r}: no store yet")
    chosen = None
    try:  # the full id, or the short form the tables print
        chosen, session_id = _locate(stores, session_id)
    except (StoreError, UnknownId, AmbiguousId) as exc:
        _fail(str(exc))
    finally:
        for other in stores:
            if other is not chosen:
                other.close()
    store = chosen
    try:
        sup = Supervisor(store, snapshots_on=False)
        result = sup.steer(
            session_id, body, key=f"say-{uuid.uuid4().hex}", source="say", running=anyway or None
        )
    except (StoreError, SteeringError) as exc:
        _fail(str(exc))
    finally:
        store.close()
    if result == "queued":
        click.echo(f"queued for {session_id}: the agent reads it at its next tool call or stop")
    elif result == "duplicate":
        click.echo(f"already queued for {session_id}")
    elif result == "full":
        _fail(f"the steering queue of {session_id} is full; wait for the agent to take it")
    else:
        again = f"coachloop run --resume {shlex.quote(session_id)} {shlex.quote(body)}"
        click.echo(
            f"{session_id} is not running a turn; nothing queued. Resume it: {again}"
            " (or `coachloop say --queue` to keep the message for its next turn)"
        )
        sys.exit(1)
