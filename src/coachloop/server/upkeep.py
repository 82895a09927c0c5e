"""Background maintenance in the warm processes: the periodic jobs off the stop path.

The daemon and `coachloop serve` start one `Upkeep` thread. About once a second it
gives every supervisor this process has open (`coachloop.agents.projects`) one
bounded step of its periodic jobs (`Supervisor.maintain`: a page of the watchdog walk,
a batch of retention deletes), so no hook call ever waits on them and no step holds a
store for more than a few milliseconds. The claims in the store keep two processes from
running the same job. A failing step is logged by the supervisor and never stops the
thread.
"""

from __future__ import annotations

import logging
import threading

log = logging.getLogger("coachloop.hookd")
TICK = 1.0  # seconds between steps


def step() -> int:
    """One maintenance step for every open supervisor; returns how many have more work."""
    from coachloop.agents import projects

    busy = 0
    for entry in projects.entries():
        try:
            entry.supervisor.maintain()
        except Exception:  # maintain never raises; a broken entry must not stop the rest
            log.exception("background maintenance failed")
            continue
        busy += entry.supervisor.maintaining
    return busy


class Upkeep(threading.Thread):
    """Runs `step` every `interval` seconds (at once again while a walk has more pages,
    after a short pause that leaves the stores to the hooks) until `stop` is set."""

    def __init__(self, stop: threading.Event, interval: float = TICK) -> None:
        super().__init__(name="coachloop-upkeep", daemon=True)
        self.stop = stop
        self.interval = interval

    def run(self) -> None:
        wait = self.interval
        while not self.stop.wait(wait):
            wait = self.interval / 20 if step() else self.interval
