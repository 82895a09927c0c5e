"""`TelegramBotAPI`: a local HTTP server speaking the subset of the Telegram Bot API a
bridge uses, for tests and demos (point python-telegram-bot's `base_url` at it).

Methods: getMe, getUpdates (long polling with `timeout` and `offset`; a second poller
makes the first one's pending call answer 409 Conflict, as Telegram does; only the
`allowed_updates` named, else every type but reactions and chat members), getChatMember
(the bot is an administrator only where a test made it one), sendMessage,
sendDocument (multipart upload), editMessageText, deleteWebhook, getWebhookInfo,
answerCallbackQuery, setMyCommands. Calls go to `/bot<token>/<method>`; a wrong token
answers 401, an unknown method 404. sendMessage and captions are checked like Telegram
does: HTML parse mode (`telegram_wire.check_html`), at most 4096 (captions 1024)
visible characters, no empty text; violations answer 400.

Tests drive it with `push_text(...)` (an incoming message, optionally a reply to a
message the bot sent), `push_reaction(...)` (a reaction to a message),
`fault(method, status, retry_after, times)` (e.g. a 429 with `retry_after`, or a 502
outage) and read `calls` (every request, with its arrival time
on the monotonic clock and the status answered) and `sent` (the messages the bot got
accepted).

    with TelegramBotAPI() as api:
        app = ApplicationBuilder().token(api.token).base_url(api.bot_url).build()
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler
from types import TracebackType
from typing import Any
from urllib.parse import urlsplit

from coachloop.testing import telegram_wire as wire
from coachloop.testing._http import LocalHTTPServer
from coachloop.testing.telegram_methods import ApiCall, BotMethods, Fault, SentMessage
from coachloop.testing.telegram_wire import UploadedFile

__all__ = ["ApiCall", "Fault", "SentMessage", "TelegramBotAPI", "UploadedFile"]

DEFAULT_TOKEN = "123456789:AAH-local-test-token-for-coachloop-bot-api"
_DISCONNECTS = (BrokenPipeError, ConnectionResetError, ConnectionAbortedError, TimeoutError)


class TelegramBotAPI(BotMethods):
    """The local Bot API server (see the module docstring). Thread-safe."""

    def __init__(
        self,
        token: str = DEFAULT_TOKEN,
        *,
        username: str = "coachloop_test_bot",
        host: str = "127.0.0.1",
        port: int = 0,
        max_poll: float = 30.0,
    ) -> None:
        super().__init__(token, username, max_poll)
        self._http = LocalHTTPServer(self, _Handler, host=host, port=port, name="telegram-bot-api")

    # -- lifecycle -------------------------------------------------------------------
    @property
    def base_url(self) -> str:
        """The API root, e.g. "http://127.0.0.1:41234" (COACHLOOP_TELEGRAM_API_URL)."""
        return self._http.base_url

    @property
    def bot_url(self) -> str:
        """The `base_url` for python-telegram-bot (which appends the token)."""
        return f"{self.base_url}/bot"

    def start(self) -> TelegramBotAPI:
        """Serve in a daemon thread; returns self. Starting twice is a no-op."""
        self._http.start()
        return self

    def close(self) -> None:
        """Stop serving; pending long polls answer at once."""
        self.closing.set()
        with self._cond:
            self._cond.notify_all()
        self._http.close()

    def __enter__(self) -> TelegramBotAPI:
        return self.start()

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    # -- driving and reading -----------------------------------------------------------
    def push_text(
        self,
        chat_id: int,
        text: str,
        *,
        user_id: int | None = None,
        reply_to: int | None = None,
        first_name: str = "Ada",
    ) -> dict[str, Any]:
        """An incoming text message from `user_id` (default: the chat's id, a private
        chat) in `chat_id`, replying to message `reply_to` when given. Returns it."""
        with self._cond:
            mid = self._message_id(chat_id)
            replied = self._state.messages.get((chat_id, reply_to)) if reply_to else None
            msg = wire.message_json(
                mid,
                wire.chat_json(chat_id),
                wire.user_json(user_id if user_id is not None else chat_id, first_name),
                text=text,
                entities=wire.command_entities(text) or None,
                reply_to_message=replied,
            )
            self._state.messages[(chat_id, mid)] = msg
            self._state.updates.append({"update_id": next(self._update_ids), "message": msg})
            self._cond.notify_all()
            return msg

    def push_edit(self, chat_id: int, message_id: int, text: str) -> dict[str, Any]:
        """`chat_id`'s message `message_id` edited to `text`, delivered as an
        `edited_message` update even to a poller that did not ask for edits (what a
        client must survive if the Bot API ever sent one). Returns the edited message."""
        from coachloop.testing.telegram_methods import FORCED

        with self._cond:
            msg = dict(self._state.messages[(chat_id, message_id)])
            msg.update(text=text, edit_date=msg.get("date", 0) + 1)
            msg["entities"] = wire.command_entities(text) or None
            if msg["entities"] is None:
                del msg["entities"]
            update = {"update_id": next(self._update_ids), "edited_message": msg, FORCED: True}
            self._state.updates.append(update)
            self._cond.notify_all()
            return msg

    def push_reaction(
        self,
        chat_id: int,
        message_id: int,
        emoji: str,
        *,
        user_id: int | None = None,
        old: tuple[str, ...] = (),
    ) -> dict[str, Any] | None:
        """`user_id` (default: the chat's id) sets the reaction `emoji` ("" for none) on
        message `message_id` of `chat_id`, replacing `old`. As Telegram does, the update
        reaches the bot only in a private chat or a group where it is an admin
        (`make_admin`), and only when its poller asked for "message_reaction" updates.
        Returns the update's MessageReactionUpdated, or None when the bot never sees it."""
        with self._cond:
            if chat_id < 0 and chat_id not in self._state.admin_in:
                return None
            reaction = {
                "chat": wire.chat_json(chat_id),
                "message_id": message_id,
                "user": wire.user_json(user_id if user_id is not None else chat_id, "Ada"),
                "date": int(time.time()),
                "old_reaction": [{"type": "emoji", "emoji": e} for e in old],
                "new_reaction": [{"type": "emoji", "emoji": emoji}] if emoji else [],
            }
            update = {"update_id": next(self._update_ids), "message_reaction": reaction}
            self._state.updates.append(update)
            self._cond.notify_all()
            return reaction

    def make_admin(self, chat_id: int) -> None:
        """Make the bot an administrator of group `chat_id` (it then sees reactions)."""
        with self._cond:
            self._state.admin_in.add(chat_id)

    def fault(
        self,
        method: str,
        status: int = 429,
        *,
        retry_after: int | None = None,
        times: int = 1,
        description: str = "",
        after: int = 0,
    ) -> None:
        """Make `times` calls of `method` fail with `status`, after letting `after`
        calls through."""
        if status == 429 and retry_after is None:
            retry_after = 1
        with self._cond:
            self._state.faults.append(Fault(method, status, retry_after, times, description, after))

    @property
    def calls(self) -> list[ApiCall]:
        with self._cond:
            return list(self._state.calls)

    def calls_to(self, method: str) -> list[ApiCall]:
        return [c for c in self.calls if c.method == method]

    @property
    def sent(self) -> list[SentMessage]:
        with self._cond:
            return list(self._state.sent)

    @property
    def pending_updates(self) -> int:
        """Updates not yet confirmed by a getUpdates offset."""
        with self._cond:
            return sum(1 for u in self._state.updates if u["update_id"] >= self._state.confirmed)

    def wait_for(self, predicate: Callable[[TelegramBotAPI], bool], timeout: float = 10.0) -> bool:
        """Poll `predicate(self)` until true (returns True) or `timeout` (returns False)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if predicate(self):
                return True
            time.sleep(0.02)
        return predicate(self)

    # -- serving (called by the handler) -------------------------------------------------


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "coachloop-telegram-bot-api/1"
    sys_version = ""

    def log_message(self, format: str, *args: Any) -> None:
        """Silent: tests read `calls`."""

    def _serve(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length > 0 else b""
        url = urlsplit(self.path)
        segments = url.path.strip("/").split("/")
        owner: TelegramBotAPI = self.server.owner  # type: ignore[attr-defined]
        if len(segments) == 2 and segments[0].startswith("bot"):
            params, files = wire.parse_body(self.headers.get("Content-Type", ""), body, url.query)
            status, answer = owner.dispatch(segments[0][3:], segments[1], params, files)
        else:
            status, answer = 404, wire.error_json(404, "Not Found")
        data = json.dumps(answer).encode("utf-8")
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        except _DISCONNECTS:  # the client gave up (e.g. a long poll cancelled at shutdown)
            self.close_connection = True

    def do_GET(self) -> None:
        self._serve()

    def do_POST(self) -> None:
        self._serve()
