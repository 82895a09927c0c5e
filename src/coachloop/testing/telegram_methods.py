"""The Bot API methods of the local test server (`TelegramBotAPI`), and what it records.

`BotMethods.dispatch(token, method, params, files)` answers one call as (HTTP status,
JSON body) and records it. Faults registered with `fault` are answered first; then the
method's handler runs. Validation follows Telegram: HTML parse mode, 4096 visible
characters per message, 1024 per caption, no empty text.
"""

from __future__ import annotations

import itertools
import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from coachloop.testing import telegram_wire as wire
from coachloop.testing.telegram_wire import UploadedFile

Answer = tuple[int, dict[str, Any]]


@dataclass(frozen=True, slots=True)
class ApiCall:
    """One request: `at` is its arrival on `time.monotonic()`; `status` the HTTP answer."""

    method: str
    params: dict[str, str]
    files: dict[str, UploadedFile]
    at: float
    status: int = 0

    @property
    def chat_id(self) -> int | None:
        raw = self.params.get("chat_id")
        return int(raw) if raw not in (None, "") else None


@dataclass(frozen=True, slots=True)
class SentMessage:
    """A message the bot got accepted (sendMessage or sendDocument)."""

    chat_id: int
    message_id: int
    text: str  # visible text (or caption)
    raw: str  # as sent (HTML when parse_mode was HTML)
    parse_mode: str
    at: float
    reply_to: int | None = None
    document: UploadedFile | None = None


@dataclass(slots=True)
class Fault:
    """Answer the next `times` calls of `method` with `status` (and `retry_after`)."""

    method: str
    status: int = 429
    retry_after: int | None = None
    times: int = 1
    description: str = ""
    after: int = 0  # let this many calls of `method` through first


@dataclass(slots=True)
class BotState:
    updates: list[dict[str, Any]] = field(default_factory=list)
    messages: dict[tuple[int, int], dict[str, Any]] = field(default_factory=dict)
    next_message: dict[int, int] = field(default_factory=dict)
    calls: list[ApiCall] = field(default_factory=list)
    sent: list[SentMessage] = field(default_factory=list)
    faults: list[Fault] = field(default_factory=list)
    poll_generation: int = 0
    confirmed: int = 0
    # Update types getUpdates delivers (Telegram keeps the last `allowed_updates` a
    # poller named; by default every type but these three, which must be asked for).
    allowed: frozenset[str] | None = None
    admin_in: set[int] = field(default_factory=set)  # groups where the bot is an admin


OPT_IN_UPDATES = frozenset({"chat_member", "message_reaction", "message_reaction_count"})
FORCED = "_coachloop_forced"  # an update delivered whatever `allowed_updates` says (tests)


def update_type(update: dict[str, Any]) -> str:
    """The type of an Update: its one field besides `update_id`."""
    return next((k for k in update if k != "update_id"), "")


class BotMethods:
    """The server's state and its Bot API methods (a base class of `TelegramBotAPI`)."""

    def __init__(self, token: str, username: str, max_poll: float) -> None:
        self.token = token
        self.bot = wire.user_json(int(token.split(":", maxsplit=1)[0]), "coachloop", is_bot=True)
        self.bot["username"] = username
        self.max_poll = max_poll
        self._state = BotState()
        self._cond = threading.Condition()
        self._update_ids = itertools.count(1)
        self.closing = threading.Event()

    def _message_id(self, chat_id: int) -> int:
        n = self._state.next_message.get(chat_id, 0) + 1
        self._state.next_message[chat_id] = n
        return n

    def dispatch(
        self, token: str, method: str, params: dict[str, str], files: dict[str, Any]
    ) -> Answer:
        arrived = time.monotonic()
        status, body = self._answer(token, method, params, files)
        with self._cond:
            self._state.calls.append(ApiCall(method, params, files, arrived, status))
        return status, body

    def _answer(
        self, token: str, method: str, params: dict[str, str], files: dict[str, Any]
    ) -> Answer:
        if token != self.token:
            return 401, wire.error_json(401, "Unauthorized")
        with self._cond:
            for fault in self._state.faults:
                if fault.method == method and fault.times > 0:
                    if fault.after > 0:
                        fault.after -= 1
                        continue
                    fault.times -= 1
                    text = fault.description or (
                        f"Too Many Requests: retry after {fault.retry_after}"
                        if fault.status == 429
                        else "Bad Gateway"
                    )
                    return fault.status, wire.error_json(fault.status, text, fault.retry_after)
        handler = METHODS.get(method.lower())
        if handler is None:
            return 404, wire.error_json(404, "Not Found")
        try:
            return handler(self, params, files)
        except (KeyError, ValueError) as exc:
            return 400, wire.error_json(400, f"Bad Request: {exc}")

    def _ok(self, result: Any) -> Answer:
        return 200, {"ok": True, "result": result}

    def _get_me(self, params: dict[str, str], files: dict[str, Any]) -> Answer:
        return self._ok(self.bot)

    def _true(self, params: dict[str, str], files: dict[str, Any]) -> Answer:
        return self._ok(True)

    def _webhook_info(self, params: dict[str, str], files: dict[str, Any]) -> Answer:
        return self._ok({"url": "", "has_custom_certificate": False, "pending_update_count": 0})

    def _get_updates(self, params: dict[str, str], files: dict[str, Any]) -> Answer:
        offset = int(params.get("offset") or 0)
        limit = int(params.get("limit") or 100)
        timeout = min(float(params.get("timeout") or 0), self.max_poll)
        end = time.monotonic() + timeout
        named = params.get("allowed_updates")
        with self._cond:
            if named:
                self._state.allowed = frozenset(json.loads(named)) or None
            self._state.poll_generation += 1
            me = self._state.poll_generation
            if offset:
                self._state.confirmed = max(self._state.confirmed, offset)
                self._state.updates = [u for u in self._state.updates if u["update_id"] >= offset]
            while True:
                if self._state.poll_generation != me:
                    return 409, wire.error_json(
                        409,
                        "Conflict: terminated by other getUpdates request; make sure that"
                        " only one bot instance is running",
                    )
                allowed = self._state.allowed
                ready = [
                    u
                    for u in self._state.updates
                    if u["update_id"] >= offset
                    and (
                        u.get(FORCED)
                        or (
                            update_type(u) in allowed
                            if allowed is not None
                            else update_type(u) not in OPT_IN_UPDATES
                        )
                    )
                ]
                left = end - time.monotonic()
                if ready or left <= 0 or self.closing.is_set():
                    shown = [{k: v for k, v in u.items() if k != FORCED} for u in ready[:limit]]
                    return self._ok(shown)
                self._cond.wait(min(left, 0.5))

    def _get_chat_member(self, params: dict[str, str], files: dict[str, Any]) -> Answer:
        chat_id, user_id = int(params["chat_id"]), int(params["user_id"])
        me = user_id == self.bot["id"]
        status = "administrator" if me and chat_id in self._state.admin_in else "member"
        user = self.bot if me else wire.user_json(user_id, "Ada")
        return self._ok(
            {"status": status, "user": user, **(_ADMIN_RIGHTS if status != "member" else {})}
        )

    def _send_message(self, params: dict[str, str], files: dict[str, Any]) -> Answer:
        chat_id = int(params["chat_id"])
        raw = params.get("text", "")
        mode = params.get("parse_mode", "")
        visible, error = wire.check_html(raw) if mode.upper() == "HTML" else (raw, None)
        if error:
            return 400, wire.error_json(400, error)
        if not visible.strip():
            return 400, wire.error_json(400, "Bad Request: message text is empty")
        if wire.visible_length(visible) > 4096:
            return 400, wire.error_json(400, "Bad Request: message is too long")
        return self._store(chat_id, params, visible=visible, raw=raw, mode=mode, text=visible)

    def _send_document(self, params: dict[str, str], files: dict[str, Any]) -> Answer:
        chat_id = int(params["chat_id"])
        doc = files.get("document")
        if doc is None:
            return 400, wire.error_json(400, "Bad Request: there is no document in the request")
        raw = params.get("caption", "")
        mode = params.get("parse_mode", "")
        visible, error = wire.check_html(raw) if mode.upper() == "HTML" else (raw, None)
        if error:
            return 400, wire.error_json(400, error)
        if wire.visible_length(visible) > 1024:
            return 400, wire.error_json(400, "Bad Request: message caption is too long")
        document = {
            "file_id": f"doc-{chat_id}-{len(self._state.sent)}",
            "file_unique_id": f"u{len(self._state.sent)}",
            "file_name": doc.filename,
            "mime_type": doc.content_type,
            "file_size": len(doc.content),
        }
        return self._store(
            chat_id,
            params,
            visible=visible,
            raw=raw,
            mode=mode,
            doc=doc,
            caption=visible or None,
            document=document,
        )

    def _store(
        self,
        chat_id: int,
        params: dict[str, str],
        *,
        visible: str,
        raw: str,
        mode: str,
        doc: UploadedFile | None = None,
        **fields: Any,
    ) -> Answer:
        reply = json.loads(params["reply_parameters"]) if params.get("reply_parameters") else {}
        reply_to = reply.get("message_id") or (
            int(params["reply_to_message_id"]) if params.get("reply_to_message_id") else None
        )
        with self._cond:
            mid = self._message_id(chat_id)
            replied = self._state.messages.get((chat_id, reply_to)) if reply_to else None
            msg = wire.message_json(
                mid, wire.chat_json(chat_id), self.bot, reply_to_message=replied, **fields
            )
            self._state.messages[(chat_id, mid)] = msg
            self._state.sent.append(
                SentMessage(chat_id, mid, visible, raw, mode, time.monotonic(), reply_to, doc)
            )
        return self._ok(msg)

    def _edit_message_text(self, params: dict[str, str], files: dict[str, Any]) -> Answer:
        key = (int(params["chat_id"]), int(params["message_id"]))
        with self._cond:
            msg = self._state.messages.get(key)
            if msg is None:
                return 400, wire.error_json(400, "Bad Request: message to edit not found")
            msg["text"] = params.get("text", "")
            msg["edit_date"] = int(time.time())
            return self._ok(msg)


_ADMIN_RIGHTS: dict[str, Any] = dict.fromkeys(
    (
        "can_be_edited",
        "can_manage_chat",
        "can_change_info",
        "can_delete_messages",
        "can_invite_users",
        "can_restrict_members",
        "can_pin_messages",
        "can_promote_members",
        "can_manage_video_chats",
        "can_post_stories",
        "can_edit_stories",
        "can_delete_stories",
        "is_anonymous",
    ),
    False,
)
METHODS: dict[str, Callable[[BotMethods, dict[str, str], dict[str, Any]], Answer]] = {
    "getme": BotMethods._get_me,
    "getchatmember": BotMethods._get_chat_member,
    "getupdates": BotMethods._get_updates,
    "sendmessage": BotMethods._send_message,
    "senddocument": BotMethods._send_document,
    "editmessagetext": BotMethods._edit_message_text,
    "deletewebhook": BotMethods._true,
    "answercallbackquery": BotMethods._true,
    "setmycommands": BotMethods._true,
    "close": BotMethods._true,
    "logout": BotMethods._true,
    "getwebhookinfo": BotMethods._webhook_info,
}
