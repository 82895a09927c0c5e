"""`Bridge`: the one process that talks to Telegram for a bot token.

It long-polls `getUpdates` (only one poller per token may exist: hooks never call
Telegram, they write the outbox) and, alongside, drains the stores' outboxes into the
chats (`OutboxPump`). Messages from allow-listed people are routed (`ChatHandlers`);
agent turns they start run in the background (`Turns`).

python-telegram-bot does the HTTP: `ApplicationBuilder().token(...).base_url(...)` points
it at `COACHLOOP_TELEGRAM_API_URL` (api.telegram.org by default, a self-hosted Bot API
server, or the package's test server), with `ChatRateLimiter` for spacing and 429s.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import fcntl
import logging
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from telegram import InputFile, LinkPreviewOptions, Update
from telegram.constants import ParseMode
from telegram.error import BadRequest, ChatMigrated, Forbidden, InvalidToken, RetryAfter
from telegram.ext import Application, ApplicationBuilder, ExtBot

from coachloop.chat.agent import ChatAgent
from coachloop.chat.config import BridgeConfig
from coachloop.chat.handlers import ChatHandlers
from coachloop.chat.ledger import Ledger
from coachloop.chat.outbox import OutboxPump, Refused, RetryLater
from coachloop.chat.ratelimit import ChatRateLimiter
from coachloop.chat.routing import Router, Source, open_sources
from coachloop.chat.security import AllowList, install_redaction
from coachloop.chat.split import to_plain
from coachloop.redaction import redact

log = logging.getLogger("coachloop.chat.telegram")
MAX_BACKOFF = 5.0  # seconds between outbox retries in an outage: a recovered API is used soon
# python-telegram-bot 22 warns inside its own RetryAfter constructor on every 429 unless
# durations are opted in to timedelta (its announced next default); we read timedeltas.
os.environ.setdefault("PTB_TIMEDELTA", "true")
NO_PREVIEW = LinkPreviewOptions(is_disabled=True)


def _seconds(exc: RetryAfter) -> float:
    value: object = exc.retry_after
    if isinstance(value, dt.timedelta):
        return value.total_seconds()
    return float(value) if isinstance(value, int | float) else 1.0


class AlreadyRunning(RuntimeError):  # noqa: N818 - reads as a sentence
    """Another bridge process holds this bridge database: only one may send its outbox."""


@contextlib.contextmanager
def exclusive(path: Path) -> Iterator[None]:
    """Hold an exclusive lock on `path` + ".lock" for the block, or raise `AlreadyRunning`.
    Two bridges on one outbox would both send it; Telegram itself answers a second
    poller of a token with 409 Conflict."""
    lock = path.with_name(path.name + ".lock")
    lock.parent.mkdir(parents=True, exist_ok=True)
    with lock.open("a+") as fh:
        try:
            fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            fh.seek(0)
            raise AlreadyRunning(
                f"another coachloop bridge (pid {fh.read().strip() or '?'}) is running"
                f" with {path}; stop it first"
            ) from None
        fh.seek(0)
        fh.truncate()
        fh.write(str(os.getpid()))
        fh.flush()
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


class TelegramChannel:
    """Sends rendered parts with a bot; maps Telegram's errors to the pump's."""

    def __init__(self, bot: ExtBot[Any]) -> None:
        self.bot = bot

    async def send(self, chat_id: int, part: dict[str, Any]) -> int:
        try:
            return await self._send(chat_id, part)
        except RetryAfter as exc:
            raise RetryLater(_seconds(exc)) from None
        except (BadRequest, Forbidden, ChatMigrated) as exc:
            raise Refused(exc.message) from None

    async def _send(self, chat_id: int, part: dict[str, Any]) -> int:
        if part["type"] == "document":
            data = str(part["content"]).encode("utf-8")
            msg = await self.bot.send_document(
                chat_id,
                InputFile(data, filename=str(part["filename"])),
                caption=str(part["caption"]),
                parse_mode=ParseMode.HTML,
            )
            return msg.message_id
        text = str(part["html"])
        try:
            msg = await self.bot.send_message(
                chat_id, text, parse_mode=ParseMode.HTML, link_preview_options=NO_PREVIEW
            )
        except BadRequest as exc:
            if "entities" not in exc.message.lower():
                raise
            log.warning("chat %s refused the HTML (%s); sending plain text", chat_id, exc.message)
            msg = await self.bot.send_message(
                chat_id, to_plain(text), link_preview_options=NO_PREVIEW
            )
        return msg.message_id


class Bridge:
    """The Telegram bridge for `config` (which must carry a token).

    `agent` runs the turns replies start; `sources` default to `open_sources(config,
    store)`. `run(stop)` serves until `stop` is set (or a fatal error: a refused token).
    """

    def __init__(
        self,
        config: BridgeConfig,
        agent: ChatAgent,
        *,
        sources: list[Source] | None = None,
        store: str | None = None,
    ) -> None:
        if config.token is None:
            raise ValueError("the Telegram bridge needs a token (COACHLOOP_TELEGRAM_TOKEN)")
        install_redaction(config.token)
        self.config = config
        self.agent = agent
        self.ledger = Ledger(config.ledger_path)
        self._own_sources = sources is None
        self.router = Router(config, self.ledger, sources or open_sources(config, store))
        self.allow = AllowList(config.allowed)
        self.wake = asyncio.Event()

    def application(self) -> Application[Any, Any, Any, Any, Any, Any]:
        """The python-telegram-bot application, with our handlers added."""
        assert self.config.token is not None
        base, files = self.config.bot_urls()
        app = (
            ApplicationBuilder()
            .token(self.config.token.reveal())
            .base_url(base)
            .base_file_url(files)
            .rate_limiter(
                ChatRateLimiter(self.config.min_interval, max_retries=self.config.max_retries)
            )
            .get_updates_read_timeout(self.config.poll_timeout + 10)
            .build()
        )
        return app

    async def run(self, stop: asyncio.Event, ready: Callable[[Bridge], None] | None = None) -> None:
        """Poll and deliver until `stop` is set. Raises `InvalidToken` if Telegram
        refuses the token, with a message that never contains it (python-telegram-bot's
        own message quotes the token: it is replaced, and its traceback dropped), and
        `AlreadyRunning` when another bridge uses the same bridge database."""
        try:
            with exclusive(self.config.ledger_path):
                self.ledger.prune()
                await self._serve(stop, ready)
        except InvalidToken as exc:
            refused = redact(exc.message)
        else:
            return
        finally:
            self.close()
        raise InvalidToken(refused)

    async def _serve(self, stop: asyncio.Event, ready: Callable[[Bridge], None] | None) -> None:
        logging.getLogger("httpx").setLevel(logging.WARNING)
        if not self.config.allowed:
            log.warning("COACHLOOP_TELEGRAM_ALLOWED is empty: every incoming message is ignored")
        app = self.application()
        handlers = ChatHandlers(
            self.router, self.agent, self.allow, self.wake, stop_grace=self.config.stop_grace
        )
        handlers.install(app)
        pump = OutboxPump(
            self.router,
            self.ledger,
            TelegramChannel(app.bot),
            max_parts=self.config.max_parts,
            stopping=stop.is_set,
        )
        async with app:
            await app.start()
            assert app.updater is not None
            await app.updater.start_polling(
                timeout=dt.timedelta(seconds=self.config.poll_timeout),
                allowed_updates=[Update.MESSAGE, Update.MESSAGE_REACTION],
                error_callback=lambda exc: log.warning("polling Telegram: %s", redact(str(exc))),
            )
            log.info("Telegram bridge running as @%s", app.bot.username)
            if ready is not None:
                ready(self)
            try:
                await self._deliver(pump, stop)
            finally:
                await handlers.close()
                await app.updater.stop()
                await app.stop()

    async def _deliver(self, pump: OutboxPump, stop: asyncio.Event) -> None:
        interval = self.config.outbox_interval
        delay = interval
        while not stop.is_set():
            try:
                await pump.drain()
                delay = interval
            except InvalidToken:
                raise
            except Exception as exc:  # an outage: keep everything pending, back off
                delay = min(max(delay * 2, interval), MAX_BACKOFF)
                log.warning(
                    "delivering the outbox: %s (retrying in %.1f s)", redact(str(exc)), delay
                )
            waits = [asyncio.ensure_future(stop.wait()), asyncio.ensure_future(self.wake.wait())]
            await asyncio.wait(waits, timeout=delay, return_when=asyncio.FIRST_COMPLETED)
            for fut in waits:
                fut.cancel()
            self.wake.clear()

    def close(self) -> None:
        """Close the ledger, and the stores the bridge opened itself."""
        self.ledger.close()
        for source in self.router.sources if self._own_sources else ():
            source.supervisor.close()
