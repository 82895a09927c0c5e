"""`coachloop bridge`: deliveries to the human's chat, and the chat's replies to the agents.

With `COACHLOOP_TELEGRAM_TOKEN` (or a token in the owner-only config file) it runs the
Telegram bridge: the one process polling this bot (findings §6). Without a token it is
the console: pending deliveries are printed here and marked sent (they stay in the
outbox history). See `coachloop.chat.config` for every setting.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import sys
from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    from coachloop.chat.config import BridgeConfig
    from coachloop.chat.telegram import Bridge


def _logging(verbose: bool) -> None:
    from coachloop.chat.security import RedactingFilter

    handler = logging.StreamHandler(sys.stderr)
    handler.addFilter(RedactingFilter())
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.addHandler(handler)
    root.setLevel(logging.DEBUG if verbose else logging.INFO)


def _console(config: BridgeConfig, store: str | None, once: bool, interval: float) -> None:
    from coachloop.chat.console import follow, print_pending
    from coachloop.chat.routing import open_sources

    sources = open_sources(config, store)
    try:
        if once:
            print_pending(sources, sys.stdout)
            return
        click.echo("coachloop bridge: no Telegram token, printing deliveries here (Ctrl-C stops)")
        follow(sources, sys.stdout, interval=interval)
    except KeyboardInterrupt:
        pass
    finally:
        for source in sources:
            source.supervisor.close()


async def _serve(bridge: Bridge) -> None:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    await bridge.run(stop)


@click.command()
@click.option("--store", "store", default=None, help="Store URL or SQLite path for all chats.")
@click.option("--console", is_flag=True, help="Print deliveries here even with a token.")
@click.option("--once", is_flag=True, help="Console: print what is pending, then exit.")
@click.option(
    "--interval", type=float, default=None, help="Seconds between outbox checks (default 1)."
)
@click.option("-v", "--verbose", is_flag=True, help="Debug logging (the token is redacted).")
def bridge(
    store: str | None, console: bool, once: bool, interval: float | None, verbose: bool
) -> None:
    """Send deliveries to Telegram and route replies back to sessions (console without a
    token)."""
    from dataclasses import replace

    from coachloop.chat.config import load_config
    from coachloop.config import ConfigError
    from coachloop.redaction import redact
    from coachloop.store import StoreError

    _logging(verbose)
    try:
        config = load_config()
        if interval is not None:
            config = replace(config, outbox_interval=max(interval, 0.05))
        if console or once or config.token is None:
            _console(config, store, once, config.outbox_interval)
            return
        from telegram.error import InvalidToken, NetworkError

        from coachloop.chat.agent import RunnerAgent
        from coachloop.chat.telegram import AlreadyRunning, Bridge
        from coachloop.runners.claude_env import ClaudeNotFound, describe_claude, find_claude

        log = logging.getLogger("coachloop.bridge")
        try:  # replies start Claude Code turns: say which one, or that none can start
            log.info("replies run Claude Code %s", describe_claude(find_claude()))
        except ClaudeNotFound as exc:
            log.warning("replies cannot start turns: %s", exc)

        try:
            asyncio.run(_serve(Bridge(config, RunnerAgent(), store=store)))
        except InvalidToken:
            raise click.ClickException(
                "Telegram refused the bot token (check COACHLOOP_TELEGRAM_TOKEN)"
            ) from None
        except AlreadyRunning as exc:
            raise click.ClickException(str(exc)) from None
        except NetworkError as exc:
            raise click.ClickException(
                f"cannot reach the Telegram Bot API at {redact(config.api_url)} "
                f"({redact(str(exc))}): check the network, or COACHLOOP_TELEGRAM_API_URL"
            ) from None
    except (ConfigError, StoreError) as exc:
        raise click.ClickException(redact(str(exc))) from None
