"""`coachloop serve`: one warm process answering hooks over HTTP and a unix socket."""

from __future__ import annotations

import os
import sys

import click


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="HTTP address.")
@click.option(
    "--port",
    default=8787,
    show_default=True,
    type=click.IntRange(0, 65535),
    help="HTTP port (0: any).",
)
@click.option(
    "--socket",
    "socket_path",
    default=None,
    help="Unix socket for the command hook, in an existing directory (default: the one "
    "`coachloop hook` looks for in this environment, under $COACHLOOP_HOME/run/).",
)
@click.option("--no-http", is_flag=True, help="Serve only the unix socket.")
@click.option("--no-socket", is_flag=True, help="Serve only HTTP.")
@click.option("--no-dashboard", is_flag=True, help="No dashboard at / (hooks and /health only).")
@click.option(
    "--body-budget",
    default=256,
    show_default=True,
    type=click.IntRange(1, 1 << 20),
    help="MiB of request bodies held at once over HTTP; more is answered 503.",
)
@click.option(
    "--idle-timeout",
    default=0.0,
    show_default=True,
    type=float,
    help="Exit after this many seconds without a request (0: never).",
)
def serve(  # noqa: PLR0917 - click passes every option as an argument
    host: str,
    port: int,
    socket_path: str | None,
    no_http: bool,
    no_socket: bool,
    no_dashboard: bool,
    body_budget: int,
    idle_timeout: float,
) -> None:
    """Serve agent hooks from one warm process.

    \b
    HTTP, for Claude Code `http` hooks (one supervisor for many agents):
      POST /hooks/claude-code | /hooks/codex | /hooks/gemini   (the hook JSON)
      GET  /health
      GET  /            the live dashboard (`coachloop dashboard` opens it)
    The unix socket is the fast path of `coachloop hook AGENT` (command hooks).
    Every HTTP request needs `Authorization: Bearer <token>`: COACHLOOP_SERVE_TOKEN, else
    the token generated on the first start in $COACHLOOP_HOME/serve.token (0600). The
    dashboard asks for it (a login form, or the URL `coachloop dashboard` opens).
    Requests from browsers (Origin), for another Host, or not JSON are refused.
    All state lives in the store: replicas on one Redis store act as one.
    """
    from coachloop.agents.client import socket_path as default_socket
    from coachloop.server import ServeOptions, run

    if no_http and no_socket:
        raise click.UsageError("--no-http and --no-socket leave nothing to serve")
    if not no_socket and socket_path is None:
        socket_path = default_socket()
        os.makedirs(os.path.dirname(socket_path), mode=0o700, exist_ok=True)
    token = None
    if not no_http:
        from coachloop.server.token import TokenError, ensure_token

        try:
            token = ensure_token()
        except (TokenError, OSError) as exc:
            raise click.ClickException(str(exc)) from None
    options = ServeOptions(
        host=host,
        port=port,
        http=not no_http,
        socket_path=None if no_socket else socket_path,
        idle_timeout=max(idle_timeout, 0.0),
        token=token,
        dashboard=not no_dashboard,
        body_budget=body_budget * 1024 * 1024,
    )
    sys.exit(run(options))
