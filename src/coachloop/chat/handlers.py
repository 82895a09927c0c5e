"""What the bridge does with a message from the chat.

1. Anyone not allow-listed (user AND chat) is ignored: no answer, one log line per
   stranger (`AllowList`). This guard runs before every other handler.
2. A reply to a message the bridge sent is for that message's session. While the
   session's turn runs (the bridge's own turn, or the store says it is running and it was
   active in the last `RECENT` seconds) the reply
   is queued for it (`Supervisor.steer`): the agent reads it at its next tool call or
   stop, and the bridge answers "queued". Otherwise a `HumanMessage` (source "chat") is
   recorded through the session's supervisor (this resets the auto-continue cap), then
   the agent is resumed in the session's directory in the background (`Turns`), with the
   reply as the prompt. The resumed turn's stops are judged by the agent's hooks like any
   other, and their deliveries come back through the outbox.
3. Any other text is queued for the chat's one running session (a session of the chat's
   project whose turn runs, active in the last `RECENT` seconds), else it starts a new
   session in the chat's project (`[telegram.chats]`).
4. Reactions and /done, /reject: see `coachloop.chat.reactions`.
5. Commands (/sessions, /status, /stop, /continue, /help): see `coachloop.chat.slash`.

Handlers answer briefly (an acknowledgement naming the session); acknowledgements are
mapped to their session too, so replying to one also reaches the session.
"""

from __future__ import annotations

import asyncio
import logging
import time
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
    MessageReactionHandler,
    TypeHandler,
    filters,
)

from coachloop.chat.agent import ChatAgent, TurnOutcome
from coachloop.chat.reactions import Feedback
from coachloop.chat.render import short_id
from coachloop.chat.routing import Router, Source
from coachloop.chat.security import AllowList
from coachloop.chat.slash import SlashCommands
from coachloop.chat.split import escape
from coachloop.chat.turns import TurnRequest, Turns
from coachloop.core.events import HumanMessage
from coachloop.redaction import redact
from coachloop.store import UnknownSession

log = logging.getLogger("coachloop.chat.handlers")
Context = ContextTypes.DEFAULT_TYPE
RECENT = 900.0  # seconds: a "running" session quiet for longer is not steered by default


class ChatHandlers:
    """The bridge's update handlers (see the module docstring)."""

    def __init__(
        self,
        router: Router,
        agent: ChatAgent,
        allow: AllowList,
        wake: asyncio.Event,
        stop_grace: float = 10.0,
    ) -> None:
        self.router = router
        self.feedback = Feedback(router, self._say, self.resume)
        self.allow = allow
        self.wake = wake
        self.turns = Turns(agent, self._turn_done)
        self.slash = SlashCommands(
            router, self.turns, self._say, self.resume, wake=wake, stop_grace=stop_grace
        )
        self.app: Application[Any, Any, Any, Any, Any, Any] | None = None

    async def close(self) -> None:
        """Cancel pending /stop timers, then close the turns (see `Turns.close`)."""
        self.slash.close()
        await self.turns.close()

    def install(self, app: Application[Any, Any, Any, Any, Any, Any]) -> None:
        self.app = app
        app.add_handler(TypeHandler(Update, self._guard), group=-1)
        self.slash.install(app)
        app.add_handler(CommandHandler(["done", "reject"], self.feedback.command))
        app.add_handler(MessageReactionHandler(self.feedback.reaction))
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
        if update.edited_message is not None or update.edited_channel_post is not None:
            raise ApplicationHandlerStop  # an edit is not a new instruction: never acted on

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
            self.feedback.replied(found[0], found[1], msg.text)
            await self.resume(chat_id, found[0], found[1], msg.text, msg.message_id)
            return
        running = self._running_in(chat_id)
        if running is not None:
            await self.resume(chat_id, running[0], running[1], msg.text, msg.message_id)
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
        if await self._steer(chat_id, session_id, source, text, reply_to):
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

    def _running_in(self, chat_id: int) -> tuple[str, Source] | None:
        """The one session of this chat whose turn runs (None: none, or several)."""
        now = time.time()
        found = []
        for state, src in self.router.sessions(chat_id):
            busy = self.turns.busy(state.session_id)
            recent = state.status == "running" and now - state.updated_at < RECENT
            if busy or (busy is None and recent):
                found.append((state.session_id, src))
        return found[0] if len(found) == 1 else None

    async def _steer(
        self, chat_id: int, session_id: str, source: Source, text: str, reply_to: int | None
    ) -> bool:
        """Queue `text` for the session when its turn runs; True when it was queued (or
        had been), answered in the chat; False when the session is idle."""
        from coachloop.supervisor.steering import SteeringError

        busy = self.turns.busy(session_id)
        state = source.state(session_id)
        if busy is None and state is not None and time.time() - state.updated_at > RECENT:
            busy = False  # "running" but silent for long (a turn killed mid-way): resume it
        key = f"tg:{chat_id}:{reply_to}" if reply_to is not None else f"tg:{chat_id}:{time.time()}"
        try:
            outcome = source.supervisor.steer(session_id, text, key=key, running=busy)
        except (SteeringError, UnknownSession):
            return False
        if outcome == "idle":
            return False
        sid = escape(short_id(session_id))
        answer = {
            "queued": f"⏸ queued for <code>{sid}</code>: the agent reads it at its next step",
            "duplicate": f"⏸ already queued for <code>{sid}</code>",
            "full": f"⚠️ <code>{sid}</code> has too many queued messages; wait for it to stop",
        }[outcome]
        self.router.ledger.bind(session_id, chat_id, source.key)
        self.wake.set()
        ack = await self._say(chat_id, answer, reply_to)
        if ack is not None:
            self.router.ledger.note_message(chat_id, ack.message_id, session_id, source.key)
        return True

    async def _turn_done(
        self, request: TurnRequest, outcome: TurnOutcome | None, error: BaseException | None
    ) -> None:
        ledger = self.router.ledger
        if outcome is not None and outcome.session_id:
            sid = outcome.session_id
            ledger.bind(sid, request.chat_id, request.store, str(request.project_dir))
            if request.ack is not None:
                ledger.note_message(request.chat_id, request.ack, sid, request.store)
        from coachloop.runners.turn import TurnCancelled

        if isinstance(error, TurnCancelled):
            await self._say(request.chat_id, "⏹ the running turn was cancelled", request.reply_to)
        elif error is not None:
            await self._say(
                request.chat_id,
                f"⚠️ the agent turn failed: <code>{escape(redact(str(error))[:500])}</code>",
                request.reply_to,
            )
        self.wake.set()  # its deliveries are in the outbox: send them now
