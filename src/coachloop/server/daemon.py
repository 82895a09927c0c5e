"""The warm process's lifecycle: lock, listen, watch, shut down cleanly.

`run(options)` serves the HTTP endpoint and/or the unix socket until SIGTERM/SIGINT, the
idle timeout (no request for `idle_timeout` seconds; 0 = never), or, with a socket, the
socket file being removed or replaced, or `$COACHLOOP_HOME` being deleted. Shutdown
stops listening, removes the socket file, lets requests in flight finish (at most
`DRAIN_TIMEOUT` s), then releases the lock.

One daemon per socket (`lock.py`): a daemon that cannot take the socket's lock within
`lock_wait` seconds leaves the socket to the holder (and exits, when it has no HTTP
endpoint to serve).
"""

from __future__ import annotations

import contextlib
import importlib
import logging
import os
import signal
import sys
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from coachloop.server.activity import Activity
from coachloop.server.http import BODY_BUDGET, HookHTTPServer
from coachloop.server.lock import acquire_lock, release_lock
from coachloop.server.sock import HookSocketServer

log = logging.getLogger("coachloop.server")

WATCH_INTERVAL = 0.5
DRAIN_TIMEOUT = 10.0
# Imported before the first request, so that it pays only for its own work.
WARM_MODULES = (
    "coachloop.agents.hook",
    "coachloop.agents.dispatch",
    "coachloop.agents.projects",
    "coachloop.core.events",
    "coachloop.config",
    "coachloop.judge",
    "coachloop.judge.rules",
    "coachloop.supervisor",
    "coachloop.store",
    "coachloop.store.sqlite",
)


@dataclass(frozen=True, slots=True)
class ServeOptions:
    """What `run` serves. `socket_path` None: no unix socket; `http` False: no HTTP."""

    host: str = "127.0.0.1"
    port: int = 8787
    http: bool = True
    socket_path: str | None = None
    idle_timeout: float = 0.0
    token: str | None = None
    lock_wait: float = 2.0
    dashboard: bool = True
    body_budget: int = BODY_BUDGET


def run(options: ServeOptions, out: TextIO | None = None) -> int:
    """Serve until told to stop; returns the process exit code (1: could not listen)."""
    out = out or sys.stderr
    from coachloop.config import home

    data_dir: Path | None = home() if home().is_dir() else None  # before anyone may wait on us
    _log_to_file()
    _warm()
    activity = Activity()
    stop = threading.Event()
    servers: list[HookSocketServer | HookHTTPServer] = []
    sock_server: HookSocketServer | None = None
    lock_fd: int | None = None
    threads: list[threading.Thread] = []
    try:
        if options.socket_path:
            path = options.socket_path
            try:  # the directory must exist: a daemon never recreates a deleted one
                lock_fd = acquire_lock(path + ".lock", options.lock_wait)
            except OSError as exc:
                print(f"coachloop serve: cannot use {path}: {exc}", file=out)
                return 1
            if lock_fd is None:
                print(f"coachloop serve: another daemon serves {path}", file=out)
                if not options.http:
                    return 0
            else:
                try:
                    sock_server = HookSocketServer(path, activity)
                except OSError as exc:
                    print(f"coachloop serve: cannot listen on {path}: {exc}", file=out)
                    return 1
                servers.append(sock_server)
        if options.http:
            try:
                servers.append(
                    HookHTTPServer(
                        options.host,
                        options.port,
                        activity,
                        options.token,
                        dashboard=options.dashboard,
                        body_budget=options.body_budget,
                    )
                )
            except OSError as exc:
                print(
                    f"coachloop serve: cannot listen on {options.host}:{options.port}: {exc}",
                    file=out,
                )
                return 1
        _on_signals(stop)
        from coachloop.server.upkeep import Upkeep

        Upkeep(stop).start()  # the periodic jobs, never inside a hook call
        for server in servers:
            thread = threading.Thread(
                target=server.serve_forever, kwargs={"poll_interval": 0.25}, daemon=True
            )
            thread.start()
            threads.append(thread)
        print(f"coachloop serve: {describe(servers)} (pid {os.getpid()})", file=out, flush=True)
        if options.http and not options.token:
            print(
                "coachloop serve: warning: no token: anyone who reaches "
                f"{options.host} can post hooks and read the dashboard",
                file=out,
                flush=True,
            )
        log.info("serving %s", describe(servers))
        reason = _watch(stop, activity, sock_server, options.idle_timeout, data_dir)
        log.info("stopping: %s (%d requests served)", reason, activity.served)
        return 0
    finally:
        stop.set()  # ends the upkeep thread
        if sock_server is not None:
            sock_server.remove_path()  # new hooks go elsewhere from now on
        for server, _ in zip(servers, threads, strict=False):
            server.shutdown()
        for server in servers:
            server.server_close()
        activity.wait_drained(DRAIN_TIMEOUT)
        if lock_fd is not None and options.socket_path:
            # The spawn stamp stands for this daemon's whole life, not just its start: a
            # hook that found the socket not yet listening must not start a second one.
            # Removed here, a hook may start the next daemon at once.
            with contextlib.suppress(OSError):
                os.unlink(options.socket_path + ".spawn")
            release_lock(options.socket_path + ".lock", lock_fd)


def _loopback(host: str) -> bool:
    import ipaddress

    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def describe(servers: list[HookSocketServer | HookHTTPServer]) -> str:
    parts = []
    for server in servers:
        if isinstance(server, HookHTTPServer):
            parts.append(f"http on {server.url}/hooks/<agent>")
            if server.dashboard is not None:
                parts.append(f"dashboard on {server.url}/")
        else:
            parts.append(f"unix socket {server.path}")
    return ", ".join(parts)


def _watch(
    stop: threading.Event,
    activity: Activity,
    sock_server: HookSocketServer | None,
    idle_timeout: float,
    data_dir: Path | None,
) -> str:
    """Block until a reason to stop; returns it. A daemon serving a socket also stops
    when `data_dir` (its data directory, when it existed at start) is deleted: a
    throw-away home (tests, demos) takes its daemon with it."""
    watch_home = data_dir if sock_server is not None else None
    while not stop.wait(WATCH_INTERVAL):
        if idle_timeout > 0 and activity.idle_for() >= idle_timeout:
            return f"idle for {idle_timeout:g} s"
        if sock_server is not None and not sock_server.owns_path():
            return "socket file removed"
        if watch_home is not None and not watch_home.is_dir():
            return f"data directory {watch_home} removed"
    return "signal"


def _on_signals(stop: threading.Event) -> None:
    if threading.current_thread() is not threading.main_thread():
        return
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stop.set())


def _warm() -> None:
    """Import what the first request would (the hook adapters too), so it pays only for
    its own work; a `warm()` in `coachloop.agents.hook` is called when it exists."""
    names = list(WARM_MODULES)
    for name in names:
        try:
            module = importlib.import_module(name)
        except Exception:  # a missing optional piece must not stop the daemon
            log.exception("warm-up import of %s failed", name)
            continue
        if name != "coachloop.agents.hook":
            continue
        adapters = getattr(module, "ADAPTERS", {})
        names += [target[0] for target in adapters.values() if target[0] not in names]
        warm = getattr(module, "warm", None)
        if callable(warm):
            try:
                warm()
            except Exception:
                log.exception("hook warm-up failed")


def _log_to_file() -> None:
    """Log the daemon's own lines (start, stop, failures) to `$COACHLOOP_HOME/logs/hookd.log`."""
    if log.handlers:
        return
    from coachloop.config import home

    try:
        from coachloop.config.private import in_private, private_file

        target = private_file(in_private(home() / "logs" / "hookd.log"))
        handler = logging.FileHandler(target, encoding="utf-8")
    except OSError:
        return
    handler.setFormatter(
        logging.Formatter("%(asctime)s hookd[%(process)d] %(levelname)s %(message)s")
    )
    from coachloop.redaction import LogFilter

    handler.addFilter(LogFilter())  # an error may quote a URL's password or a key
    log.addHandler(handler)
    log.setLevel(logging.INFO)
