"""What the bridge does with a message from the chat.

1. Anyone not allow-listed (user AND chat) is ignored: no answer, one log line per
   stranger (`AllowList`). This guard runs before every other handler.
2. A reply to a message the bridge sent is for that message's session: a `HumanMessage`
   (source "chat") is recorded through the session's supervisor (this resets the
   auto-continue cap), then the agent is resumed in the session's directory in the
   background (`Turns`), with the reply as the prompt. The resumed turn's stops are
   judged by the agent's hooks like any other, and their deliveries come back through
   the outbox.
3. Any other text starts a new session in the chat's project (`[telegram.chats]`).
4. Commands: /sessions, /status SESSION, /stop SESSION, /continue SESSION [text], /help.

Handlers answer briefly (an acknowledgement naming the session); acknowledgements are
mapped to their session too, so replying to one also reaches the session.
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

from telegram import Message, ReplyParameters, Update
from telegram.constants import ParseMode
from telegram.error import TelegramError
from telegram.ext import (
    Application,
    ApplicationHandlerStop,
    CommandHandler,
    ContextTypes,
    MessageHandler,
    TypeHandler,
    filters,
)

from coachloop.chat import commands
from coachloop.chat.agent import ChatAgent, TurnOutcome
from coachloop.chat.render import short_id
from coachloop.chat.routing import Router, Source
from coachloop.chat.security import AllowList
from coachloop.chat.split import escape
from coachloop.chat.turns import TurnRequest, Turns
from coachloop.core.events import HumanMessage
from coachloop.core.session import SessionState
from coachloop.redaction import redact

log = logging.getLogger("coachloop.chat.handlers")
Context = ContextTypes.DEFAULT_TYPE


class ChatHandlers:
    """The bridge's update handlers (see the module docstring)."""

    def __init__(
        self, router: Router, agent: ChatAgent, allow: AllowList, wake: asyncio.Event
    ) -> None:
        self.router = router
        self.allow = allow
        self.wake = wake
        self.turns = Turns(agent, self._turn_done)
        self.app: Application[Any, Any, Any, Any, Any, Any] | None = None

    def install(self, app: Application[Any, Any, Any, Any, Any, Any]) -> None:
        self.app = app
        app.add_handler(TypeHandler(Update, self._guard), group=-1)
        app.add_handler(CommandHandler("sessions", self._sessions))
        app.add_handler(CommandHandler("status", self._status))
        app.add_handler(CommandHandler("stop", self._stop))
        app.add_handler(CommandHandler("continue", self._continue))
        app.add_handler(CommandHandler(["help", "start"], self._help))
        app.add_handler(MessageHandler(filters.TEXT & ~filters.COMMAND, self._text))

    # -- helpers -----------------------------------------------------------------
    async def _say(self, chat_id: int, html: str, reply_to: int | None = None) -> Message | None:
        """Send a short HTML answer; failures are logged, never raised."""
        assert self.app is not None
        try:
            sent: Message = await self.app.bot.send_message(
                chat_id,
                html,
                parse_mode=ParseMode.HTML,
                reply_parameters=ReplyParameters(reply_to, allow_sending_without_reply=True)
                if reply_to
                else None,
            )
            return sent
        except TelegramError as exc:
            log.warning("answering in chat %s: %s", chat_id, redact(exc.message))
            return None

    def _where(self, session_id: str, source: Source, chat_id: int) -> Path | None:
        """The directory to resume `session_id` in."""
        bound = self.router.ledger.binding(session_id)
        if bound is not None and bound.project_dir:
            return Path(bound.project_dir)
        state = source.state(session_id)
        for value in (state.cwd, state.project) if state is not None else ():
            if value and Path(value).is_dir():
                return Path(value)
        project = self.router.project_of(chat_id)
        return project[0] if project is not None else None

    # -- handlers ----------------------------------------------------------------
    async def _guard(self, update: Update, context: Context) -> None:
        user, chat = update.effective_user, update.effective_chat
        uid, cid = (user.id if user else None), (chat.id if chat else None)
        if not self.allow.permits(uid, cid):
            self.allow.stranger(uid, cid)
            raise ApplicationHandlerStop

    async def _text(self, update: Update, context: Context) -> None:
        msg = update.effective_message
        if msg is None or msg.text is None:
            return
        chat_id = msg.chat_id
        if msg.reply_to_message is not None:
            found = self.router.replied_session(chat_id, msg.reply_to_message.message_id)
            if found is None:
                await self._say(
                    chat_id,
                    "I can't tell which session that message belongs to. Reply to a"
                    " delivery, or send a new message (not a reply) to start a session.",
                    msg.message_id,
                )
                return
            await self.resume(chat_id, found[0], found[1], msg.text, msg.message_id)
            return
        project = self.router.project_of(chat_id)
        if project is None:
            await self._say(
                chat_id,
                "No project is configured for this chat. Add it to config.toml:\n"
                f'<code>[telegram.chats]\n"{chat_id}" = "/path/to/project"</code>',
                msg.message_id,
            )
            return
        directory, source = project
        ack = await self._say(
            chat_id, f"▶ starting a session in <b>{escape(directory.name)}</b>", msg.message_id
        )
        self.turns.submit(
            TurnRequest(
                chat_id,
                directory,
                msg.text,
                None,
                source.key,
                source.supervisor,
                msg.message_id,
                ack.message_id if ack else None,
            )
        )

    async def resume(
        self, chat_id: int, session_id: str, source: Source, text: str, reply_to: int | None
    ) -> None:
        """Record the human's `text` for the session and resume its agent with it."""
        directory = self._where(session_id, source, chat_id)
        if directory is None:
            await self._say(
                chat_id,
                f"I don't know where session <code>{escape(short_id(session_id))}</code> runs.",
                reply_to,
            )
            return
        state = source.state(session_id)
        source.supervisor.on_human(
            HumanMessage(
                session_id,
                text,
                source="chat",
                project=state.project if state else str(directory),
                agent=state.agent if state and state.agent else "claude-code",
            )
        )
        self.router.ledger.bind(session_id, chat_id, source.key, str(directory))
        busy = self.turns.running(session_id)
        self.turns.submit(
            TurnRequest(
                chat_id, directory, text, session_id, source.key, source.supervisor, reply_to
            )
        )
        after = " after its running turn" if busy else ""
        ack = await self._say(
            chat_id, f"↪ resuming <code>{escape(short_id(session_id))}</code>{after}", reply_to
        )
        if ack is not None:
            self.router.ledger.note_message(chat_id, ack.message_id, session_id, source.key)

    async def _turn_done(
        self, request: TurnRequest, outcome: TurnOutcome | None, error: BaseException | None
    ) -> None:
        ledger = self.router.ledger
        if outcome is not None and outcome.session_id:
            sid = outcome.session_id
            ledger.bind(sid, request.chat_id, request.store, str(request.project_dir))
            if request.ack is not None:
                ledger.note_message(request.chat_id, request.ack, sid, request.store)
        if error is not None:
            await self._say(
                request.chat_id,
                f"⚠️ the agent turn failed: <code>{escape(redact(str(error))[:500])}</code>",
                request.reply_to,
            )
        self.wake.set()  # its deliveries are in the outbox: send them now

    async def _help(self, update: Update, context: Context) -> None:
        if update.effective_chat is not None:
            await self._say(update.effective_chat.id, escape(commands.HELP))

    async def _sessions(self, update: Update, context: Context) -> None:
        if update.effective_chat is None:
            return
        chat_id = update.effective_chat.id
        pairs = self.router.sessions(chat_id)
        lines = [
            commands.session_line(s, self.turns.running(s.session_id))
            for s, _ in pairs[: commands.MAX_LISTED]
        ]
        await self._say(chat_id, commands.sessions_text(lines, len(pairs)))

    async def _one(self, update: Update, context: Context) -> tuple[SessionState, Source] | None:
        """The session named by the command's first argument, or None (answered)."""
        chat = update.effective_chat
        if chat is None:
            return None
        name = context.args[0] if context.args else ""
        if not name:
            await self._say(chat.id, "Name a session: an id or its first characters (/sessions).")
            return None
        found = self.router.find(chat.id, name)
        if len(found) != 1:
            await self._say(chat.id, commands.ambiguous_text(name, [s for s, _ in found]))
            return None
        return found[0]

    async def _status(self, update: Update, context: Context) -> None:
        found = await self._one(update, context)
        if found is None or update.effective_chat is None:
            return
        state, source = found
        sid = state.session_id
        cap = source.supervisor.policy.max_auto_continues
        text = commands.status_text(state, self.turns.running(sid), self.turns.queued(sid), cap)
        await self._say(update.effective_chat.id, text)

    async def _stop(self, update: Update, context: Context) -> None:
        found = await self._one(update, context)
        if found is None or update.effective_chat is None:
            return
        state, source = found
        dropped = self.turns.stop(state.session_id)
        source.supervisor.set_status(state.session_id, "done", "stopped from the chat")
        running = (
            " Its running turn finishes its current step."
            if self.turns.running(state.session_id)
            else ""
        )
        await self._say(
            update.effective_chat.id,
            f"⏹ <code>{escape(short_id(state.session_id))}</code> marked done;"
            f" {dropped} queued turn(s) dropped.{running}",
        )

    async def _continue(self, update: Update, context: Context) -> None:
        found = await self._one(update, context)
        msg = update.effective_message
        if found is None or msg is None:
            return
        state, source = found
        text = " ".join((context.args or [])[1:]).strip() or "continue"
        await self.resume(msg.chat_id, state.session_id, source, text, msg.message_id)
