"""The `Store` protocol: persistence of sessions, timelines and the delivery outbox.

A backend implements these primitives, chiefly `transact`: read one session's state, let
a function compute what to write, and commit the new state, timeline records and outbox
messages atomically — or retry if another writer got there first. The store takes no
decision: what a stop, a human message or a watchdog flag writes is computed by the
supervisor (`coachloop.supervisor.writes`) and committed here, so the concurrency
guarantee rests in a single place per backend and the policy in a single place overall.
Backends subclass `Store` (one declaration of every method; mypy checks they implement
all of it).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, TypeVar

from coachloop.core.session import SessionState
from coachloop.store.records import EventRecord, Life, OutboxEntry, Write

R = TypeVar("R")
TxnFn = Callable[[SessionState | None], tuple[Write | None, R]]
Cursor = tuple[float, str]  # (updated_at, session_id) of the last session of a page


class StoreError(RuntimeError):
    """The store cannot be used (not a database, unreachable, newer schema, ...)."""


class UnknownSession(StoreError):  # noqa: N818 - reads as a sentence: raise UnknownSession
    """No session with this id exists in the store."""

    def __init__(self, session_id: str, location: str = "") -> None:
        where = f" in {location}" if location else ""
        super().__init__(f"unknown session {session_id!r}{where}")
        self.session_id = session_id


class StoreReader(Protocol):
    """The read side of a store: what display code (chat, dashboard, CLI) may use."""

    location: str

    def get_session(self, session_id: str) -> SessionState:
        """The stored state of a session; `UnknownSession` if there is none."""
        ...

    def list_sessions(self, project: str | None = None) -> list[SessionState]:
        """Every session (of `project` when given), most recently active first."""
        ...

    def session_page(
        self, limit: int, before: Cursor | None = None, project: str | None = None
    ) -> list[SessionState]:
        """At most `limit` sessions (of `project` when given), most recently active first
        (ties by session id, descending), strictly after the cursor `before`: the
        (updated_at, session_id) of the last session of the previous page. Reads only the
        page (an index), so paging a million sessions costs the same per page."""
        ...

    def timeline(self, session_id: str, limit: int | None = None) -> list[EventRecord]:
        """The session's records in commit order (the last `limit` when given)."""
        ...

    def outbox_pending(self, limit: int = 100) -> list[OutboxEntry]:
        """Unsent outbox entries, oldest first."""
        ...

    def lifecycle(self, session_id: str, limit: int = 50) -> list[Life]:
        """The session's last `limit` lifecycle records, oldest first."""
        ...


class Store(StoreReader, Protocol):
    """Sessions, their timelines, the delivery outbox and periodic-job claims.

    Every write is one atomic `transact`; concurrent writers (threads, processes,
    machines) never lose an update. Reading a session that does not exist raises
    `UnknownSession`.
    """

    location: str

    def transact(
        self, session_id: str, fn: TxnFn[R], *, project: str = ""
    ) -> tuple[R, tuple[int, ...]]:
        """Atomically: state = load(session_id) or None; (write, result) = fn(state);
        commit `write` unless None. Returns (result, ids of the records written).
        `fn` may run more than once (on a conflict) and must be pure. `project` names the
        namespace of a session not yet stored."""
        ...

    def mark_sent(self, entry_id: int, sent_at: float | None = None) -> None:
        """Mark an entry delivered (idempotent); an unknown id raises `StoreError`."""
        ...

    def delete_session(self, session_id: str) -> None:
        """Forget a session's state and timeline (pending outbox entries are kept)."""
        ...

    def forget_session(self, session_id: str, idle_before: float) -> bool:
        """Forget a session still idle since `idle_before` or earlier (its `updated_at`: no
        change came since the caller read it), as `delete_session` does; True when it
        was forgotten. The session is gone at once for every read and a change after it
        starts a new one; a backend may leave its rows (events, records, delivered outbox
        entries) to `purge_forgotten`, which never touches a row of the new one."""
        ...

    def purge_forgotten(self, limit: int = 1000) -> int:
        """Delete at most `limit` rows `forget_session` left (a bounded step); returns how
        many went: fewer than `limit` means none is left."""
        ...

    def save_life(self, session_id: str, life: Life) -> None:
        """Keep one lifecycle record (of a change committed already: `life.event_id`)."""
        ...

    def trim_lifecycle(self, saved_before: float, limit: int = 1000) -> int:
        """Delete at most `limit` lifecycle records saved before `saved_before` (a bounded
        step); returns how many went: fewer than `limit` means none is left (`maintain`
        stops there)."""
        ...

    def trim_outbox(self, sent_before: float, limit: int = 1000) -> int:
        """Delete at most `limit` outbox entries delivered before `sent_before` (unsent
        ones are never touched); returns how many went."""
        ...

    def claim(self, name: str, interval: float, now: float | None = None) -> bool:
        """True for at most one caller per `interval` seconds (periodic jobs such as the
        snapshot cleanup run once across all processes)."""
        ...

    def close(self) -> None:
        """Release the connection."""
        ...

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
