"""The bridge's slash commands: /sessions, /status, /stop, /continue, /help.

SESSION may be left out in a reply to one of the session's messages. `/stop` of a running
session marks it to end its turn at the next tool call or stop (its queued messages are
dropped; `Supervisor.request_stop`); the bridge's own headless turn is cancelled if it is
still running `stop_grace` seconds later. `/stop` of an idle session marks it done.
Answers are texts of `coachloop.chat.commands`, sent through the handlers' `say`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from telegram import Message, Update
from telegram.ext import Application, CommandHandler, ContextTypes

from coachloop.chat import commands
from coachloop.chat.render import short_id
from coachloop.chat.routing import Router, Source
from coachloop.chat.split import escape
from coachloop.chat.turns import Turns
from coachloop.core.session import SessionState

Context = ContextTypes.DEFAULT_TYPE
MAX_NAME = 256  # characters of a session id argument (ids are at most this long)
Say = Callable[[int, str, "int | None"], Awaitable["Message | None"]]
Resume = Callable[[int, str, Source, str, "int | None"], Awaitable[None]]


class SlashCommands:
    """The command handlers of the bridge (see the module docstring)."""

    def __init__(
        self,
        router: Router,
        turns: Turns,
        say: Say,
        resume: Resume,
        *,
        wake: asyncio.Event,
        stop_grace: float = 10.0,
    ) -> None:
        self.router = router
        self.turns = turns
        self._say_to = say
        self.resume = resume
        self.wake = wake
        self.stop_grace = stop_grace
        self._timers: set[asyncio.Task[None]] = set()

    def install(self, app: Application[Any, Any, Any, Any, Any, Any]) -> None:
        app.add_handler(CommandHandler("sessions", self._sessions))
        app.add_handler(CommandHandler("status", self._status))
        app.add_handler(CommandHandler("stop", self._stop))
        app.add_handler(CommandHandler("continue", self._continue))
        app.add_handler(CommandHandler(["help", "start"], self._help))

    def close(self) -> None:
        """Cancel the pending /stop timers."""
        for timer in list(self._timers):
            timer.cancel()

    async def _say(self, chat_id: int, html: str, reply_to: int | None = None) -> Message | None:
        return await self._say_to(chat_id, html, reply_to)

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
        msg = update.effective_message
        replied = msg.reply_to_message if msg is not None else None
        if not name and replied is not None:
            hit = self.router.replied_session(chat.id, replied.message_id)
            state = hit[1].state(hit[0]) if hit is not None else None
            if hit is not None and state is not None:
                return state, hit[1]
        if not name:
            await self._say(chat.id, "Name a session: an id or its first characters (/sessions).")
            return None
        if len(name) > MAX_NAME:
            await self._say(chat.id, f"That is not a session id (over {MAX_NAME} characters).")
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
        queued = self.turns.queued(sid) + len(state.steering)
        text = commands.status_text(state, self.turns.running(sid), queued, cap)
        await self._say(update.effective_chat.id, text)

    async def _stop(self, update: Update, context: Context) -> None:
        found = await self._one(update, context)
        if found is None or update.effective_chat is None:
            return
        state, source = found
        sid = state.session_id
        dropped = self.turns.stop(sid)
        busy = self.turns.busy(sid)
        name = f"<code>{escape(short_id(sid))}</code>"
        if not (busy or (busy is None and state.status == "running")):
            source.supervisor.set_status(sid, "done", "stopped from the chat")
            await self._say(
                update.effective_chat.id, f"⏹ {name} marked done; {dropped} queued turn(s) dropped."
            )
            return
        dropped += source.supervisor.request_stop(sid)
        await self._say(
            update.effective_chat.id,
            f"⏹ {name} stops at its next tool call or stop; {dropped} queued item(s) dropped.",
        )
        if busy:
            timer = asyncio.get_running_loop().create_task(self._cancel_later(sid, source))
            self._timers.add(timer)
            timer.add_done_callback(self._timers.discard)

    async def _cancel_later(self, session_id: str, source: Source) -> None:
        """Cancel the bridge's own running turn of a session asked to stop, when its hooks
        have not ended it within `stop_grace` seconds (e.g. a long model call)."""
        await asyncio.sleep(self.stop_grace)
        state = source.state(session_id)
        if state is None or state.stop_requested is None or not self.turns.cancel(session_id):
            return
        source.supervisor.stop_now(session_id, "when its running turn was cancelled")
        self.wake.set()

    async def _continue(self, update: Update, context: Context) -> None:
        found = await self._one(update, context)
        msg = update.effective_message
        if found is None or msg is None:
            return
        state, source = found
        text = " ".join((context.args or [])[1:]).strip() or "continue"
        await self.resume(msg.chat_id, state.session_id, source, text, msg.message_id)
