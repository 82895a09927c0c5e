"""The Redis store: many agents on many machines sharing one supervisor state.

Keys and the commit script: `redis_keys`.

Concurrency: a transaction reads the state and its version, runs the pure function, then
commits with one Lua script that checks the version is unchanged and, atomically, writes
the state, allocates ids with INCR, appends the records and queues the outbox entries.
On a version conflict the function runs again on the fresh state (optimistic
concurrency), so no update is ever lost and caps hold across processes and machines.
A session lives under the project it was first stored with; the script refuses a write
under another project (two first writers racing) and the loser retries under the winner's.
redis-py is imported lazily: it is the optional extra `coachloop[redis]`. The store
remembers the project of at most `PROJECT_CACHE` sessions (a long-running daemon sees
sessions without end; an unbounded map grew by one entry per session).
"""

from __future__ import annotations

import json
import random
import time
from dataclasses import replace
from typing import Any

from coachloop.core.session import SessionState
from coachloop.store.base import Cursor, R, Store, StoreError, TxnFn, UnknownSession
from coachloop.store.records import COMMITTED_STATE, EventRecord, Life, OutboxEntry
from coachloop.store.redis_keys import COMMIT, FORGET, escape, project_token

DEFAULT_URL = "redis://127.0.0.1:6379/0"
MAX_ATTEMPTS = 500

PROJECT_CACHE = 4096
ACTIVE_BATCH = 500


class RedisStore(Store):
    """A `Store` on a Redis server. `prefix` namespaces every key (tests use their own)."""

    def __init__(
        self, url: str = DEFAULT_URL, *, prefix: str = "coachloop", client: Any = None
    ) -> None:
        try:
            import redis
        except ImportError as exc:  # pragma: no cover - depends on the environment
            from coachloop.core.extras import install_hint

            raise StoreError(
                f"the Redis store needs redis-py (the 'redis' extra): {install_hint('redis')}"
            ) from exc
        self._redis_mod = redis
        self.prefix = prefix.rstrip(":")
        self.location = f"{url} (prefix {self.prefix!r})"
        self._r = client or redis.Redis.from_url(url, socket_timeout=10, socket_connect_timeout=5)
        try:
            self._r.ping()
        except redis.RedisError as exc:
            raise StoreError(f"cannot reach Redis at {url}: {exc}") from exc
        self._commit = self._r.register_script(COMMIT)
        self._forget = self._r.register_script(FORGET)
        self._projects: dict[str, str] = {}
        self._active_ok = False

    def _k(self, *parts: str) -> str:
        return ":".join((self.prefix, *parts))

    def _skeys(self, proj: str, sid: str) -> tuple[str, str]:
        base = self._k(proj, escape(sid))
        return base + ":state", base + ":events"

    def _life_key(self, proj: str, sid: str) -> str:
        """The sorted set of a session's lifecycle records, beside its state and events."""
        return self._k(proj, escape(sid)) + ":life"

    def _proj(self, session_id: str, hint: str | None = None) -> str | None:
        """The project token a session is stored under (None: not stored, no hint)."""
        tok = self._projects.get(session_id)
        if tok is None:
            raw = self._call(self._r.hget, self._k("sessions"), session_id)
            if raw is not None:
                tok = raw.decode()
                self._remember(session_id, tok)
        if tok is None and hint is not None:
            return project_token(hint)
        return tok

    def _remember(self, session_id: str, token: str) -> None:
        if len(self._projects) >= PROJECT_CACHE and session_id not in self._projects:
            self._projects.clear()  # bounded: a miss costs one HGET
        self._projects[session_id] = token

    def _call(self, method: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            return method(*args, **kwargs)
        except self._redis_mod.RedisError as exc:
            raise StoreError(f"Redis store {self.location}: {exc}") from exc

    def transact(
        self, session_id: str, fn: TxnFn[R], *, project: str = ""
    ) -> tuple[R, tuple[int, ...]]:
        for attempt in range(MAX_ATTEMPTS):
            proj = self._proj(session_id, project)
            assert proj is not None
            state_key, events_key = self._skeys(proj, session_id)
            raw, ver = self._call(self._r.hmget, state_key, ["state", "ver"])
            state = SessionState.from_dict(json.loads(raw)) if raw is not None else None
            write, result = fn(state)
            if write is None:
                return result, ()
            args: list[Any] = [
                (ver or b"0").decode(),
                json.dumps(write.state.to_dict()),
                session_id,
                proj,
                repr(float(write.state.updated_at)),
                len(write.events),
            ]
            for ev in write.events:
                data = ev.to_dict()
                del data["id"]
                args.append(json.dumps(data))
            now = time.time()
            for kind, text in write.outbox:
                entry = {
                    "session_id": session_id,
                    "kind": kind,
                    "text": text,
                    "created_at": now,
                    "sent_at": None,
                }
                args.append(json.dumps(entry))
            keys = [
                state_key,
                events_key,
                self._k("sessions"),
                self._k("seq", "event"),
                self._k("outbox"),
                self._k("outbox", "pending"),
                self._k("seq", "outbox"),
                self._k("sessions", "active"),
            ]
            ids = self._call(self._commit, keys, args)
            if ids == -1:  # another writer created the session under another project
                self._projects.pop(session_id, None)
                continue
            if ids is not None:
                self._remember(session_id, proj)
                got = tuple(int(i) for i in ids)
                if write.life is not None and got:  # after the commit, as a file was
                    life = write.life
                    kept = args[1] if life.state == COMMITTED_STATE else life.state
                    at = life.saved_at or now
                    self.save_life(
                        session_id, replace(life, event_id=got[0], saved_at=at, state=kept)
                    )
                return result, got
            time.sleep(random.uniform(0, 0.0005 * min(attempt + 1, 20)))
        raise StoreError(
            f"Redis store {self.location}: gave up on session {session_id!r} after "
            f"{MAX_ATTEMPTS} conflicting attempts"
        )

    def _keys_of(self, session_id: str) -> tuple[str, str]:
        proj = self._proj(session_id)
        if proj is None:
            raise UnknownSession(session_id, self.location)
        return self._skeys(proj, session_id)

    def get_session(self, session_id: str) -> SessionState:
        raw = self._call(self._r.hget, self._keys_of(session_id)[0], "state")
        if raw is None:
            raise UnknownSession(session_id, self.location)
        return SessionState.from_dict(json.loads(raw))

    def list_sessions(self, project: str | None = None) -> list[SessionState]:
        index: dict[bytes, bytes] = self._call(self._r.hgetall, self._k("sessions"))
        pipe = self._r.pipeline(transaction=False)
        for sid, proj in index.items():
            pipe.hget(self._skeys(proj.decode(), sid.decode())[0], "state")
        states = [SessionState.from_dict(json.loads(r)) for r in self._call(pipe.execute) if r]
        if project is not None:
            states = [s for s in states if s.project == project]
        return sorted(states, key=lambda s: s.updated_at, reverse=True)

    def session_page(
        self, limit: int, before: Cursor | None = None, project: str | None = None
    ) -> list[SessionState]:
        """Newest first from the `sessions:active` zset (ties: session id descending, as
        Redis orders equal scores); a project filter reads on until the page is full."""
        self._backfill_active()
        key = self._k("sessions", "active")
        top: str = "+inf" if before is None else repr(float(before[0]))
        out: list[SessionState] = []
        offset = 0
        while len(out) < limit:
            rows = self._call(
                self._r.zrevrangebyscore,
                key,
                top,
                "-inf",
                start=offset,
                num=max(limit, 50),
                withscores=True,
            )
            if not rows:
                break
            offset += len(rows)
            sids = [
                m.decode()
                for m, score in rows
                if before is None or score < before[0] or m.decode() < before[1]
            ]
            for state in self._states(sids):
                if project is None or state.project == project:
                    out.append(state)
        return out[: max(int(limit), 0)]

    def _states(self, sids: list[str]) -> list[SessionState]:
        if not sids:
            return []
        index = self._call(self._r.hmget, self._k("sessions"), sids)
        pipe = self._r.pipeline(transaction=False)
        for sid, proj in zip(sids, index, strict=True):
            pipe.hget(self._skeys(proj.decode() if proj else "_", sid)[0], "state")
        return [SessionState.from_dict(json.loads(r)) for r in self._call(pipe.execute) if r]

    def _backfill_active(self) -> None:
        """Index sessions stored before the activity zset existed (once per store)."""
        if self._active_ok:
            return
        active = self._k("sessions", "active")
        if self._call(self._r.zcard, active) < self._call(self._r.hlen, self._k("sessions")):
            states = self.list_sessions()
            for i in range(0, len(states), ACTIVE_BATCH):
                chunk = states[i : i + ACTIVE_BATCH]
                self._call(self._r.zadd, active, {s.session_id: s.updated_at for s in chunk})
        self._active_ok = True

    def lifecycle(self, session_id: str, limit: int = 50) -> list[Life]:
        proj = self._proj(session_id)
        if proj is None or limit <= 0:
            return []
        key = self._life_key(proj, session_id)
        out = []
        for raw in self._call(self._r.zrange, key, -limit, -1):
            event_id, label, saved_at, size, rest = raw.split(b"\x00", 4)
            n = int(size)
            state = rest[n + 1 :].decode() if rest[n : n + 1] == b"s" else None
            life = Life(label.decode(), rest[:n], float(saved_at), int(event_id), session_id, state)
            out.append(life)
        return out

    def save_life(self, session_id: str, life: Life) -> None:
        proj = self._proj(session_id)
        if proj is None:
            raise UnknownSession(session_id, self.location)
        key = self._life_key(proj, session_id)
        head = f"{life.event_id}\x00{life.label}\x00{life.saved_at!r}\x00{len(life.body)}\x00"
        tail = b"-" if life.state is None else b"s" + life.state.encode()
        pipe = self._r.pipeline(transaction=True)
        pipe.zadd(key, {head.encode() + life.body + tail: life.event_id})
        pipe.zadd(self._k("life", "saved"), {f"{key}\t{life.event_id}": life.saved_at})
        self._call(pipe.execute)

    def trim_lifecycle(self, saved_before: float, limit: int = 1000) -> int:
        saved = self._k("life", "saved")
        old = self._call(
            self._r.zrangebyscore, saved, "-inf", f"({saved_before!r}", start=0, num=limit
        )
        if not old:
            return 0
        pipe = self._r.pipeline(transaction=True)
        for member in old:
            key, event_id = member.decode().rsplit("\t", 1)
            pipe.zremrangebyscore(key, event_id, event_id)
        pipe.zrem(saved, *old)
        self._call(pipe.execute)
        return len(old)

    def trim_outbox(self, sent_before: float, limit: int = 1000) -> int:
        """Entries delivered before `sent_before`, at most `limit` per call (pending are
        never in `outbox:sent`, so never touched)."""
        sent: dict[bytes, bytes] = {}
        cursor = 0
        while True:  # HSCAN in steps: memory stays bounded on a large outbox
            cursor, chunk = self._call(
                self._r.hscan, self._k("outbox", "sent"), cursor, count=limit
            )
            sent.update(chunk)
            if cursor == 0 or len(sent) >= limit * 4:
                break
        old = [k for k, v in sent.items() if float(v) < sent_before][: max(int(limit), 0)]
        if old:
            pipe = self._r.pipeline(transaction=True)
            pipe.hdel(self._k("outbox"), *old)
            pipe.hdel(self._k("outbox", "sent"), *old)
            self._call(pipe.execute)
        return len(old)

    def timeline(self, session_id: str, limit: int | None = None) -> list[EventRecord]:
        self.get_session(session_id)
        start = -limit if limit else 0
        rows = self._call(self._r.lrange, self._keys_of(session_id)[1], start, -1)
        return [EventRecord.from_dict(json.loads(r)) for r in rows]

    def outbox_pending(self, limit: int = 100) -> list[OutboxEntry]:
        ids = self._call(self._r.zrange, self._k("outbox", "pending"), 0, limit - 1)
        if not ids:
            return []
        rows = self._call(self._r.hmget, self._k("outbox"), ids)
        return [OutboxEntry.from_dict(json.loads(r)) for r in rows if r is not None]

    def mark_sent(self, entry_id: int, sent_at: float | None = None) -> None:
        ts = time.time() if sent_at is None else sent_at
        if not self._call(self._r.hexists, self._k("outbox"), entry_id):
            raise StoreError(f"Redis store {self.location}: no outbox entry {entry_id}")
        pipe = self._r.pipeline(transaction=True)
        pipe.zrem(self._k("outbox", "pending"), entry_id)
        pipe.hsetnx(self._k("outbox", "sent"), entry_id, ts)
        self._call(pipe.execute)

    def delete_session(self, session_id: str) -> None:
        """Forget a session: its state and timeline (outbox entries stay)."""
        proj = self._proj(session_id)
        if proj is None:
            return
        state_key, events_key = self._skeys(proj, session_id)
        pipe = self._r.pipeline(transaction=True)
        pipe.delete(state_key, events_key, self._life_key(proj, session_id))
        pipe.hdel(self._k("sessions"), session_id)
        pipe.zrem(self._k("sessions", "active"), session_id)
        self._call(pipe.execute)
        self._projects.pop(session_id, None)

    def forget_session(self, session_id: str, idle_before: float) -> bool:
        """`delete_session`, in one script that reads the state's `updated_at` first: a
        stop committed between the caller's read and this call keeps the session."""
        proj = self._proj(session_id)
        if proj is None:
            return False
        state_key, events_key = self._skeys(proj, session_id)
        life_key = self._life_key(proj, session_id)
        keys = [state_key, events_key, life_key, self._k("sessions"), self._k("sessions", "active")]
        gone = bool(self._call(self._forget, keys, [session_id, repr(float(idle_before))]))
        if gone:
            self._projects.pop(session_id, None)
        return gone

    def purge_forgotten(self, limit: int = 1000) -> int:
        """Nothing is left to purge: `forget_session` deletes every key at once."""
        return 0

    def claim(self, name: str, interval: float, now: float | None = None) -> bool:
        """At most one caller per `interval` seconds gets True (SET NX with expiry; the
        interval runs on the Redis server's clock, `now` is only recorded)."""
        ts = time.time() if now is None else now
        key = self._k("meta", name)
        return bool(self._call(self._r.set, key, str(ts), ex=max(1, int(interval)), nx=True))

    def close(self) -> None:
        self._r.close()
