"""The bridge's configuration: environment variables over the user's config file.

    COACHLOOP_TELEGRAM_TOKEN     the bot token (else [telegram] token / token_file)
    COACHLOOP_TELEGRAM_ALLOWED   comma-separated user and chat ids (else [telegram] allowed)
    COACHLOOP_TELEGRAM_API_URL   Bot API root, default https://api.telegram.org

`$COACHLOOP_HOME/config.toml`:

    [telegram]
    allowed = [123456789, -1001234567890]
    default_chat = 123456789         # deliveries no chat claims (default: the first chat)
    admin_chats = [123456789]        # chats that see and steer every session (default: none
                                     # but the delivery chat, when it has no project)
    min_interval = 1.0               # seconds between two messages to one chat
    max_parts = 4                    # longer deliveries are sent as a document
    poll_timeout = 10.0              # getUpdates long-poll seconds
    outbox_interval = 1.0            # seconds between outbox checks
    stop_grace = 10.0                # /stop: seconds before the bridge's running turn is cancelled
    token_file = "~/.coachloop/telegram.token"   # or token = "..." (file must be 0600)

    [telegram.chats]
    "123456789" = "/home/me/src/project"   # new messages here start sessions there

A token read from a file is refused unless the file is owner-only (no group or other
permission bits): the token must never be readable by other users. Only the user's file
is read, never a project's (a project's config may be committed).
"""

from __future__ import annotations

import stat
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from coachloop.chat.security import Secret
from coachloop.config import ConfigError, home
from coachloop.config.env import TELEGRAM_ALLOWED as ENV_ALLOWED

DEFAULT_API_URL = "https://api.telegram.org"


@dataclass(frozen=True, slots=True)
class BridgeConfig:
    """Everything the bridge needs. `token` None means the console channel.

    `chats` maps a chat id to the project directory where its new messages start
    sessions. `state_path` is the bridge's own small database (message ids to sessions,
    per-entry send progress). Intervals are seconds.
    """

    token: Secret | None = None
    allowed: frozenset[int] = frozenset()
    api_url: str = DEFAULT_API_URL
    chats: dict[int, Path] = field(default_factory=dict)
    default_chat: int | None = None
    admin_chats: frozenset[int] = frozenset()
    min_interval: float = 1.0
    max_parts: int = 4
    poll_timeout: float = 10.0
    outbox_interval: float = 1.0
    max_retries: int = 3
    stop_grace: float = 10.0
    state_path: Path | None = None

    @property
    def delivery_chat(self) -> int | None:
        """Where deliveries go that no chat claims: `default_chat`, else the first
        configured chat, else the only allowed id (a one-person setup)."""
        if self.default_chat is not None:
            return self.default_chat
        if self.chats:
            return next(iter(self.chats))
        return next(iter(self.allowed)) if len(self.allowed) == 1 else None

    @property
    def ledger_path(self) -> Path:
        return self.state_path or home() / "telegram.db"

    def bot_urls(self) -> tuple[str, str]:
        """(base_url, base_file_url) for python-telegram-bot (which appends the token)."""
        root = self.api_url.rstrip("/")
        if "{token}" in root:
            return root, root.replace("/bot{token}", "/file/bot{token}")
        root = root.removesuffix("/bot")
        return f"{root}/bot", f"{root}/file/bot"


def parse_ids(raw: object, source: str) -> frozenset[int]:
    """Telegram ids from "1, -100 2" or a TOML list; a bad item raises `ConfigError`."""
    items: list[object]
    if isinstance(raw, str):
        items = [p for p in raw.replace(",", " ").split() if p]
    elif isinstance(raw, list):
        items = list(raw)
    else:
        raise ConfigError(f"{source}: expected a list of Telegram ids, got {type(raw).__name__}")
    out: set[int] = set()
    for item in items:
        try:
            if isinstance(item, bool):
                raise ValueError
            out.add(int(str(item).strip()))
        except ValueError:
            raise ConfigError(f"{source}: {item!r} is not a Telegram id") from None
    return frozenset(out)


def _owner_only(path: Path) -> None:
    mode = stat.S_IMODE(path.stat().st_mode)
    if mode & 0o077:
        raise ConfigError(
            f"refusing to read the Telegram token from {path}: other users may read it "
            f"(mode {mode:o}); run: chmod 600 {path}"
        )


def _file_token(table: dict[str, Any], config_file: Path) -> Secret | None:
    if "token" in table:
        _owner_only(config_file)
        return Secret(str(table["token"]).strip())
    if "token_file" in table:
        path = Path(str(table["token_file"])).expanduser()
        try:
            _owner_only(path)
            return Secret(path.read_text(encoding="utf-8").strip())
        except OSError as exc:
            raise ConfigError(f"cannot read token_file {path}: {exc.strerror}") from None
    return None


def _number(table: dict[str, Any], key: str, default: float, source: str) -> float:
    value = table.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
        raise ConfigError(f"{source}: [telegram] {key} must be a non-negative number")
    return float(value)


def user_table(path: Path | None = None) -> tuple[dict[str, Any], Path]:
    """The `[telegram]` table of the user's config file (empty when absent)."""
    from coachloop.config import document

    path = path or home() / "config.toml"
    try:
        data = document(path)  # parsed once per process and content, as every reader's
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"{path}: {exc}") from None
    if data is None:
        return {}, path
    table = data.get("coachloop", data).get("telegram", {})
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: [telegram] must be a table")
    return table, path


def load_config(env: dict[str, str] | None = None, path: Path | None = None) -> BridgeConfig:
    """The bridge configuration from `env` (default: this process's, through
    `coachloop.config.env.environment()`) and the user's file.
    Raises `ConfigError` with a message that never contains the token."""
    from coachloop.config.env import environment, from_mapping

    given = environment() if env is None else from_mapping(env)
    table, source = user_table(path)
    raw_token = (given.telegram_token or "").strip()
    token = Secret(raw_token) if raw_token else None
    if token is None:
        token = _file_token(table, source)
    allowed_raw: object = given.telegram_allowed or table.get("allowed", [])
    allowed = parse_ids(allowed_raw, ENV_ALLOWED if given.telegram_allowed else str(source))
    chats_raw = table.get("chats", {})
    if not isinstance(chats_raw, dict):
        raise ConfigError(f"{source}: [telegram.chats] must map chat ids to directories")
    chats: dict[int, Path] = {}
    for key, value in chats_raw.items():
        (chat_id,) = parse_ids([key], f"{source} [telegram.chats]")
        chats[chat_id] = Path(str(value)).expanduser()
    default = table.get("default_chat")
    return BridgeConfig(
        token=token,
        allowed=allowed,
        api_url=given.telegram_api_url or str(table.get("api_url", DEFAULT_API_URL)),
        chats=chats,
        default_chat=None if default is None else min(parse_ids([default], str(source))),
        admin_chats=parse_ids(table.get("admin_chats", []), f"{source} admin_chats"),
        min_interval=_number(table, "min_interval", 1.0, str(source)),
        max_parts=int(_number(table, "max_parts", 4, str(source))) or 1,
        poll_timeout=_number(table, "poll_timeout", 10.0, str(source)),
        outbox_interval=_number(table, "outbox_interval", 1.0, str(source)) or 0.05,
        stop_grace=_number(table, "stop_grace", 10.0, str(source)),
    )
