"""`coachloop doctor`'s chat check: does the bridge reach Telegram, and which way does
the human give a verdict in each chat: 👍/👎 reactions, or `/done` and `/reject` replies?

Telegram sends reactions to a bot in private chats, and in groups only when the bot is an
administrator (`coachloop.chat.reactions.reach` asks `getChatMember`). Without a token
nothing is asked. Never raises: a problem is the report's `detail`.
"""

from __future__ import annotations

import asyncio
from typing import Any

TIMEOUT = 10.0  # seconds for the whole check


def check_chat() -> dict[str, Any]:
    """{"configured": bool, "detail": str, "chats": [one line per chat]}."""
    try:
        from coachloop.chat.config import load_config
        from coachloop.config import ConfigError
    except ImportError as exc:  # pragma: no cover - the telegram extra is missing
        return {"configured": False, "detail": f"no chat bridge: {exc}", "chats": []}
    try:
        cfg = load_config()
    except ConfigError as exc:
        return {"configured": False, "detail": f"bridge configuration: {exc}", "chats": []}
    if cfg.token is None:
        detail = "no Telegram bot token (COACHLOOP_TELEGRAM_TOKEN): deliveries print on the console"
        return {"configured": False, "detail": detail, "chats": []}
    chats = sorted(cfg.chats) or sorted(cfg.allowed)
    try:
        lines = asyncio.run(asyncio.wait_for(_reach_all(cfg, chats), TIMEOUT))
    except Exception as exc:  # the check must never break doctor
        from coachloop.redaction import redact

        return {"configured": True, "detail": f"Telegram: {redact(str(exc))}", "chats": []}
    return {"configured": True, "detail": f"Telegram bot {lines[0]}", "chats": lines[1:]}


async def _reach_all(cfg: Any, chats: list[int]) -> list[str]:
    from telegram import Bot

    from coachloop.chat.reactions import reach

    base, files = cfg.bot_urls()
    bot = Bot(cfg.token.reveal(), base_url=base, base_file_url=files)
    async with bot:
        lines = [f"@{bot.username} answers"]
        for chat_id in chats:
            lines.append(await reach(bot, chat_id))
    return lines
