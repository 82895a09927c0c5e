"""`coachloop dashboard`: open the live dashboard of `coachloop serve` in the browser.

If no coachloop server answers on HOST:PORT, one is started in the background
(`coachloop serve --no-socket`, exiting after `--idle-timeout` seconds without a request;
an open dashboard page keeps it alive), then the browser (`$BROWSER`, else the system's)
opens the login URL: `/?token=…` with the server's token (`coachloop.server.token`:
`COACHLOOP_SERVE_TOKEN`, else `$COACHLOOP_HOME/serve.token`), which sets a cookie and
redirects to `/` (`--project DIR`: `/?project=DIR`, the list filtered to it).
`--print-url` prints that URL and starts and opens nothing. The server shows every
store: the home's, where every project's sessions are by default, and the projects' own
(`coachloop.store.registry`).
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import urlencode

import click

START_TIMEOUT = 20.0


def _health(host: str, port: int) -> dict[str, object] | None:
    """The server's /health answer, or None when nothing (or not coachloop) answers."""
    from coachloop.server.token import read_token

    shown = f"[{host}]" if ":" in host else host
    request = urllib.request.Request(
        f"http://{shown}:{port}/health", headers={"Authorization": f"Bearer {read_token()}"}
    )
    try:
        with urllib.request.urlopen(request, timeout=2) as resp:
            data = json.loads(resp.read())
    except (OSError, ValueError, urllib.error.URLError):
        return None
    return data if isinstance(data, dict) and data.get("ok") is True else None


def _start(host: str, port: int, idle_timeout: float) -> int:
    """Start `coachloop serve` detached; returns its pid once /health answers."""
    from coachloop.config import home
    from coachloop.config.private import private_dir

    logs = private_dir(home() / "logs")
    command = [sys.executable, "-m", "coachloop", "serve", "--host", host, "--port", str(port)]
    command += ["--no-socket", "--idle-timeout", str(idle_timeout)]
    with open(logs / "dashboard.log", "ab") as log:
        proc = subprocess.Popen(
            command,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=log,
            start_new_session=True,
            close_fds=True,
        )
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            log_file = logs / "dashboard.log"
            raise click.ClickException(
                f"coachloop serve exited with status {proc.returncode}; see {log_file}"
            )
        if _health(host, port) is not None:
            return proc.pid
        time.sleep(0.1)
    raise click.ClickException(f"coachloop serve did not answer on {host}:{port} in time")


@click.command("dashboard")
@click.option(
    "--project",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Open the list filtered to this project's sessions.",
)
@click.option("--host", default="127.0.0.1", show_default=True, help="The server's address.")
@click.option("--port", default=8787, show_default=True, type=click.IntRange(1, 65535))
@click.option("--print-url", is_flag=True, help="Print the login URL; start and open nothing.")
@click.option("--no-browser", is_flag=True, help="Start the server if needed, print the URL.")
@click.option(
    "--idle-timeout",
    default=3600.0,
    show_default=True,
    type=float,
    help="A server started here exits after this many seconds without a request.",
)
def dashboard(
    *,
    host: str,
    port: int,
    print_url: bool,
    no_browser: bool,
    idle_timeout: float,
    project: Path | None,
) -> None:
    """Open the live dashboard (every supervised session) in the browser."""
    from coachloop.dashboard import INSTALL_HINT, available
    from coachloop.dashboard.auth import login_url
    from coachloop.server.token import TokenError, ensure_token

    try:
        token = ensure_token()  # the server started below reads the same one
    except (TokenError, OSError) as exc:
        raise click.ClickException(str(exc)) from None
    url = login_url(host, port, token)
    if project is not None:  # the list filtered to the project as the hooks record it
        from coachloop.config.project import project_root

        folder = project.expanduser().resolve()
        shown = str(project_root(str(folder)) or folder)
        url += ("&" if "?" in url else "?") + urlencode({"project": shown})
    if print_url:
        click.echo(url)
        return
    if not available():
        raise click.ClickException(INSTALL_HINT)
    health = _health(host, port)
    if health is None:
        pid = _start(host, port, max(idle_timeout, 0.0))
        click.echo(f"Started coachloop serve on {host}:{port} (pid {pid}).", err=True)
    if no_browser:
        click.echo(url)
        return
    import webbrowser

    if not webbrowser.open(url):
        click.echo("No browser could be opened; visit:", err=True)
    click.echo(url)
