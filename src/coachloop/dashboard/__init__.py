"""The live dashboard that `coachloop serve` shows at `/`: every supervised session,
each session's timeline, judgement counts; new stops arrive without a reload.

- `data.py`: the one door to the store (`DashboardData`: bounded, indexed queries);
  `generic.py` the same through the `Store` protocol for stores without SQL.
- `build.py`: stored records to `views.py`'s dataclasses, every text redacted.
- `app.py`: routes and Jinja2 pages; `live.py`: server-sent events; `auth.py`: the token
  gate and the local-host check; `web.py`: the request/response types the server fills.
- `templates/`, `static/`: HTML, one stylesheet, one small script (no build step).

Needs the `dashboard` extra (Jinja2). Nothing here is imported on the hook path: the
server builds the dashboard only when it serves HTTP.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from coachloop.dashboard.app import Dashboard

INSTALL_HINT = "the dashboard needs Jinja2: pip install 'coachloop[dashboard]'"


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
    """The dashboard for a server on `host:port`; the store (`open_store(store)`) is
    opened at the first request. The server's token is kept off every page."""
    from coachloop.dashboard.app import Dashboard
    from coachloop.dashboard.auth import Gate
    from coachloop.dashboard.data import DashboardData, open_data
    from coachloop.dashboard.live import Streams
    from coachloop.store import open_store

    def data() -> DashboardData:
        return open_data(open_store(store), [token] if token else [])

    return Dashboard(data, Gate(token, port, host), streams=Streams(poll=poll), touch=touch)
