"""The live dashboard that `coachloop serve` shows at `/`: every supervised session,
each session's timeline, judgement counts; new stops arrive without a reload.

- `data.py`: the one door to the store (`DashboardData`: bounded, indexed queries);
  `generic.py` the same through the `Store` protocol for stores without SQL;
  `combined.py` several stores (the home's and projects' own) shown as one.
- `build.py`: stored records to `views.py`'s dataclasses, every text redacted.
- `app.py`: routes and Jinja2 pages; `live.py`: server-sent events; `auth.py`: the token
  gate and the local-host check; `web.py`: the request/response types the server fills.
- `templates/`, `static/`: HTML, one stylesheet, one small script (no build step).

Needs the `dashboard` extra (Jinja2). Nothing here is imported on the hook path: the
server builds the dashboard only when it serves HTTP.
"""

from __future__ import annotations

import importlib.util
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from coachloop.core.extras import install_hint

if TYPE_CHECKING:
    from coachloop.dashboard.app import Dashboard

log = logging.getLogger("coachloop.dashboard")
INSTALL_HINT = f"the dashboard needs Jinja2 (the 'dashboard' extra): {install_hint('dashboard')}"


def available() -> bool:
    """True when the dashboard's dependencies are installed."""
    return importlib.util.find_spec("jinja2") is not None


def make_dashboard(
    *,
    token: str | None,
    port: int,
    host: str,
    touch: Callable[[], None] | None = None,
    store: str | None = None,
    poll: float = 1.0,
) -> Dashboard:
    """The dashboard for a server on `host:port`; its stores are opened at the first
    request: `open_store(store)` when `store` is given, else every store a reader sees
    (`coachloop.store.registry.open_stores`: the home store and the projects' own, shown
    as one by `combined.Combined`). The server's token is kept off every page."""
    from coachloop.dashboard.app import Dashboard
    from coachloop.dashboard.auth import Gate
    from coachloop.dashboard.data import open_data
    from coachloop.dashboard.live import Streams
    from coachloop.dashboard.seam import DashboardData
    from coachloop.store import open_store

    def data() -> DashboardData:
        secrets = [token] if token else []
        if store is not None:
            return open_data(open_store(store), secrets)
        from coachloop.store.registry import open_stores

        found = open_stores()  # the home store, and the projects' own stores
        for problem in found.problems:
            log.warning("dashboard: %s", problem)
        if len(found.stores) <= 1:
            return open_data(found.stores[0] if found.stores else open_store(), secrets)
        from coachloop.dashboard.combined import Combined

        return Combined([open_data(s, secrets) for s in found.stores])

    return Dashboard(data, Gate(token, port, host), streams=Streams(poll=poll), touch=touch)
