"""Which chat a delivery goes to, and which session a chat message is for.

Stores: by default every project's sessions are in the home store, so there is one
source; a project with a store of its own (its config's `[store] url`) adds one, whether
a chat is mapped to it or the home's registry of stores lists it (its hooks registered
it). A `Source` is one distinct store.

A delivery goes to, in order: the chat its session is bound to (the chat that started it
or last replied to it); a chat whose project directory contains the session's project or
working directory; the only chat mapped onto the entry's store; the default chat.

A chat message is for: the session of the message it replies to (any message the bridge
sent: parts of deliveries and acknowledgements); otherwise a new session in the chat's
project. `find` resolves a session named in a command by its id or a unique prefix.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from coachloop.chat.config import BridgeConfig
from coachloop.chat.ledger import Ledger, store_key
from coachloop.config.env import environment
from coachloop.core.session import SessionState
from coachloop.store import OutboxEntry, UnknownSession
from coachloop.supervisor import Supervisor


@dataclass(slots=True)
class Source:
    """One distinct store and the supervisor writing human messages into it."""

    key: str
    supervisor: Supervisor
    projects: list[Path] = field(default_factory=list)

    def state(self, session_id: str) -> SessionState | None:
        try:
            return self.supervisor.reads.get_session(session_id)
        except UnknownSession:
            return None


def open_sources(config: BridgeConfig, store: str | None = None) -> list[Source]:
    """One `Source` per distinct store among the chats' projects, the home store and the
    registered projects' stores (`coachloop.store.registry`; not with `store` or
    `COACHLOOP_STORE`, which name the one store). A chat's directory opens the store the
    hooks use for it: that of its project root (the enclosing git work tree, see
    `coachloop.config.project.project_root`), merging its old store in if it has one; so
    are the other projects the agents know that still have a store of an earlier version
    (`coachloop.install.known.old_stores`): their undelivered questions are sent too."""
    from coachloop.config.project import project_root
    from coachloop.install.known import old_stores
    from coachloop.store.registry import registered

    sources: dict[str, Source] = {}
    projects: list[Path | None] = [*config.chats.values(), None]
    roots: list[Path | None] = [project_root(str(p)) if p is not None else None for p in projects]
    if store is None and not environment().store:
        extra = [p for p in registered() if p not in roots]
        extra += [p for p in old_stores() if p not in roots and p not in extra]
        projects += extra
        roots += extra
    for project, root in zip(projects, roots, strict=True):
        sup = Supervisor.open(root, store=store)
        key = store_key(sup.reads.location)
        if key in sources:
            sup.close()
        else:
            sources[key] = Source(key, sup)
        if project is not None and project in config.chats.values():
            sources[key].projects.append(project)
    return list(sources.values())


def _within(value: str, directory: Path) -> bool:
    if not value:
        return False
    if value == directory.name:
        return True
    path = Path(value)
    return path.is_absolute() and (path == directory or directory in path.parents)


def belongs(state: SessionState, directory: Path) -> bool:
    """True when the session runs in `directory` (its project or cwd is inside it, or
    its project is named like the directory)."""
    return _within(state.project, directory) or _within(state.cwd, directory)


def label(state: SessionState | None) -> str:
    """A short project name for headers: the last path component of project or cwd."""
    if state is None:
        return ""
    for value in (state.project, state.cwd):
        if value:
            return Path(value).name or value
    return ""


class Router:
    """Routing decisions over the configuration, the ledger and the sources."""

    def __init__(self, config: BridgeConfig, ledger: Ledger, sources: list[Source]) -> None:
        self.config = config
        self.ledger = ledger
        self.sources = sources
        self._by_key = {s.key: s for s in sources}

    def source(self, key: str) -> Source | None:
        return self._by_key.get(key)

    def chat_for(self, entry: OutboxEntry, source: Source) -> int | None:
        """The chat that receives `entry` (None: nowhere to send it)."""
        bound = self.ledger.binding(entry.session_id)
        if bound is not None:
            return bound.chat_id
        state = source.state(entry.session_id)
        if state is not None:
            for chat_id, directory in self.config.chats.items():
                if belongs(state, directory):
                    return chat_id
        mapped = [c for c, d in self.config.chats.items() if d in source.projects]
        if len(mapped) == 1:
            return mapped[0]
        return self.config.delivery_chat

    def project_of(self, chat_id: int) -> tuple[Path, Source] | None:
        """The project directory where `chat_id` starts sessions, with its source."""
        directory = self.config.chats.get(chat_id)
        if directory is None:
            return None
        for src in self.sources:
            if directory in src.projects:
                return directory, src
        return None

    def replied_session(self, chat_id: int, message_id: int) -> tuple[str, Source] | None:
        """The session a reply to `message_id` in `chat_id` is for, if the bridge sent it.
        A message sent from a store that is no longer open (a project's old store, merged
        into the home by `coachloop.store.upgrade`) is for the session wherever it is now."""
        found = self.ledger.session_of(chat_id, message_id)
        if found is None:
            return None
        src = self._by_key.get(found[1])
        if src is None:
            src = next((s for s in self.sources if s.state(found[0]) is not None), None)
        return None if src is None else (found[0], src)

    def sessions(self, chat_id: int) -> list[tuple[SessionState, Source]]:
        """Sessions visible from `chat_id` (what its /sessions, /status, /stop and
        /continue may act on), most recently active first: those bound to it and those in
        its project. Only the owner's chat (`delivery_chat`, where the deliveries no chat
        claims go) sees every session: another allow-listed chat mapped to no project
        sees only the sessions it started or was sent. `admin_chats` (explicit
        configuration) see every session."""
        directory = self.config.chats.get(chat_id)
        owner = directory is None and chat_id == self.config.delivery_chat
        everything = owner or chat_id in self.config.admin_chats
        bound = {b.session_id for b in self.ledger.chat_sessions(chat_id)}
        out: list[tuple[SessionState, Source]] = []
        for src in self.sources:
            for state in src.supervisor.reads.list_sessions():
                mine = directory is not None and belongs(state, directory)
                if state.session_id in bound or everything or mine:
                    out.append((state, src))
        out.sort(key=lambda pair: pair[0].updated_at, reverse=True)
        return out

    def find(self, chat_id: int, name: str) -> list[tuple[SessionState, Source]]:
        """Sessions visible from `chat_id` whose id is `name` or starts with it (an exact
        match wins over prefixes)."""
        name = name.strip()
        if not name:
            return []
        found = [p for p in self.sessions(chat_id) if p[0].session_id.startswith(name)]
        exact = [p for p in found if p[0].session_id == name]
        return exact or found
