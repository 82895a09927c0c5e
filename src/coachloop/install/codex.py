"""Codex CLI: where its hooks live and what we add.

Codex reads Claude-compatible hooks from `hooks.json` next to each config layer:
`<project>/.codex/hooks.json` (scope "project"; loaded only in a project Codex
trusts) and `$CODEX_HOME/hooks.json` (scope "user", `~/.codex` by default). Command
handlers only; timeouts in seconds. Codex runs every file's hooks (the same handler in
both scopes runs twice), and a new or changed hook only after the user trusts it
(`codex_trust` says how that is read).

    {"hooks": {"Stop": [{"hooks": [{"type": "command",
        "command": "coachloop hook codex", "timeout": 30}]}],
     "UserPromptSubmit": [...the same handler...]}}

Stop judges each stop; UserPromptSubmit records the human's prompt (Codex CLI 0.169 does
not fire it for a Stop-hook continuation, checked by running it, so it never resets the
auto-continue cap in the middle of a coached turn).

Older Codex versions have no hooks, only the `notify` program in the user's
`config.toml` (`--notify --user` installs `notify = ["coachloop", "hook",
"codex-notify"]` instead of the hooks; a notify the user already set is never
replaced). Codex ignores `notify` in a project's config.toml, so `--notify` at project
scope is refused.
"""

from __future__ import annotations

import os
import shlex
from pathlib import Path
from typing import Any

from coachloop.core.agents import events
from coachloop.install.common import (
    Handler,
    coachloop_executable,
    hook_command,
    is_our_argv,
)

NAME = "codex"
SCOPES = ("project", "user")
EVENTS = events("codex")  # from the registry (`coachloop.core.agents`)
TIMEOUT_S = 30
TIMEOUT_UNIT_S = 1.0
NOTIFY_ARG = "codex-notify"
NOTIFY_PROJECT = (
    "Codex ignores notify in a project's .codex/config.toml (it reads notify only from "
    "the user's config.toml); use: coachloop install --agent codex --user --notify, or "
    "the hooks (install without --notify), which work in both scopes"
)


def codex_home() -> Path:
    # Codex's own variable, not coachloop's: read where it is used.
    return Path(os.environ.get("CODEX_HOME") or Path.home() / ".codex")


def _base(scope: str, project: Path) -> Path:
    return codex_home() if scope == "user" else project / ".codex"


def settings_path(scope: str, project: Path) -> Path:
    """The hooks file of `scope`."""
    return _base(scope, project) / "hooks.json"


def config_path(scope: str, project: Path) -> Path:
    """The `config.toml` of `scope` (where `notify` lives)."""
    return _base(scope, project) / "config.toml"


def desired() -> dict[str, Handler]:
    handler = {"type": "command", "command": hook_command(NAME), "timeout": TIMEOUT_S}
    return {event: dict(handler) for event in EVENTS}


def notify_argv() -> list[str]:
    return [*coachloop_executable(), "hook", NOTIFY_ARG]


def is_our_notify(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value) and is_our_argv(value)


def notify_display(value: Any) -> str:
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return shlex.join(value)
    return repr(value)


def notes(config: dict[str, Any]) -> list[str]:
    """`config.toml` settings that keep Codex from running hooks."""
    features = config.get("features")
    if isinstance(features, dict) and (
        features.get("hooks") is False or features.get("codex_hooks") is False
    ):
        return ["[features] turns hooks off in config.toml: Codex runs no hooks"]
    return []
