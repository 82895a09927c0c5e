"""The human's verdict from the chat: 👍 / 👎 on a delivered message, `/done` / `/reject`.

- 👍 (or `/done` as a reply) closes the session's job as done (`Supervisor.accept`).
- 👎 (or `/reject` as a reply) steers the session back to work with "The human does not
  accept this: <the delivered message, quoted briefly>": queued when its turn runs,
  else the session is resumed with it, as any reply.
- Both keep a correction when they override the judge (`supervisor.feedback`): a
  rejected delivery should have been sent back; an accepted message the judge would
  have sent back should have been delivered. A reply to such a message also counts.

The message reacted to must be one the bridge sent (its ledger maps it to a session);
anything else is ignored. Reactions go through the same allow-list guard as messages
(a stranger's reaction never gets here). Telegram sends reactions to a bot only when
its poller asks for `message_reaction` updates (the bridge does), and in a group only
when the bot is an administrator: elsewhere `/done` and `/reject` do the same (`reach`
says which applies; `coachloop doctor` prints it).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

from telegram import Bot, ReactionTypeEmoji, Update
from telegram.error import TelegramError
from telegram.ext import ContextTypes

from coachloop.chat.render import short_id
from coachloop.chat.routing import Router, Source
from coachloop.chat.split import escape, to_plain
from coachloop.supervisor.feedback import Label, delivered_stop, last_delivered, rejection

log = logging.getLogger("coachloop.chat.reactions")
Context = ContextTypes.DEFAULT_TYPE
ACCEPT = frozenset({"👍", "👌", "✅"})
REJECT = frozenset({"👎"})
Say = Callable[[int, str, int | None], Awaitable[Any]]
Resume = Callable[[int, str, Source, str, int | None], Awaitable[None]]


class Feedback:
    """Reactions and `/done` / `/reject` (see the module docstring)."""

    def __init__(self, router: Router, say: Say, resume: Resume) -> None:
        self.router = router
        self.say = say
        self.resume = resume

    async def reaction(self, update: Update, context: Context) -> None:
        got = update.message_reaction
        if got is None:
            return
        emojis = {r.emoji for r in got.new_reaction if isinstance(r, ReactionTypeEmoji)}
        how = next(iter(emojis & ACCEPT), None) or next(iter(emojis & REJECT), None)
        found = self.router.replied_session(got.chat.id, got.message_id)
        if how is None or found is None:
            return  # another emoji, a removed reaction, or a message that is not ours
        shown = self.shown(got.chat.id, got.message_id)
        await self.settle(
            how in ACCEPT, got.chat.id, found, how, reply_to=got.message_id, shown=shown
        )

    def shown(self, chat_id: int, message_id: int) -> str | None:
        """The text of the delivery message `message_id` belongs to, as the chat showed
        it (markup and the header dropped); None for an acknowledgement."""
        job = self.router.ledger.delivered(chat_id, message_id)
        if job is None or not job.parts:
            return None
        first = job.parts[0]
        if first.get("type") == "document":
            return str(first.get("content") or "")
        text = to_plain("".join(str(p.get("html") or "") for p in job.parts))
        return text.split("\n", 1)[1].strip() if "\n" in text else text  # the header line

    async def command(self, update: Update, context: Context) -> None:
        msg = update.effective_message
        if msg is None or msg.text is None:
            return
        how = "/done" if msg.text.split()[0].lower().startswith("/done") else "/reject"
        replied = msg.reply_to_message
        found = self.router.replied_session(msg.chat_id, replied.message_id) if replied else None
        if found is None:
            await self.say(msg.chat_id, f"Reply with {how} to a message of the session.", None)
            return
        shown = self.shown(msg.chat_id, replied.message_id) if replied else None
        await self.settle(
            how == "/done", msg.chat_id, found, how, reply_to=msg.message_id, shown=shown
        )

    async def settle(
        self,
        accept: bool,
        chat_id: int,
        found: tuple[str, Source],
        how: str,
        *,
        reply_to: int,
        shown: str | None,
    ) -> None:
        """The human's verdict on the session `found` names, from the message `shown`:
        `accept` (👍, `/done`) closes its job as done, else (👎, `/reject`) it is steered
        back with that message quoted; either keeps a correction when it overrides the
        judge. The answer goes to `chat_id`, as a reply to `reply_to`."""
        session_id, source = found
        sup = source.supervisor
        stop = delivered_stop(sup.reads, session_id, shown)
        if not accept:
            if stop is not None:
                sup.correct(session_id, stop, Label("status", "continue", how))
            await self.resume(chat_id, session_id, source, rejection(stop, shown), reply_to)
            return
        sup.accept(session_id, how)
        if stop is not None and (stop.verdict or {}).get("route") == "continue":
            sup.correct(session_id, stop, Label("completion", "deliver", how))
        sid = escape(short_id(session_id))
        await self.say(chat_id, f"✅ <code>{sid}</code> done: its job is closed ({how})", reply_to)

    def replied(self, session_id: str, source: Source, text: str) -> None:
        """A reply to the session's message: a correction when the judge had meant to
        send that message back (it was delivered only because of a cap or a repeat)."""
        stop = last_delivered(source.supervisor.reads, session_id)
        if stop is not None and (stop.verdict or {}).get("route") == "continue":
            source.supervisor.correct(session_id, stop, Label("question", "deliver", "reply", text))


async def reach(bot: Bot, chat_id: int) -> str:
    """Whether 👍/👎 reach the bot in `chat_id`, as one line (for `coachloop doctor`)."""
    if chat_id > 0:
        return f"chat {chat_id}: reactions reach the bot (private chat); /done and /reject work too"
    try:
        me = await bot.get_chat_member(chat_id, bot.id)
    except TelegramError as exc:
        return f"chat {chat_id}: cannot tell ({exc.message}); use /done and /reject as replies"
    if me.status in ("administrator", "creator"):
        return f"chat {chat_id}: reactions reach the bot (it is an administrator)"
    return (
        f"chat {chat_id}: reactions do not reach the bot (not an administrator);"
        " reply /done or /reject instead"
    )
