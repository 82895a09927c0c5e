"""Codex CLI: where its hooks live and what we add.

Codex reads Claude-compatible hooks from `hooks.json` next to each config layer:
`<project>/.codex/hooks.json` (scope "project"; loaded only in a project Codex
trusts) and `$CODEX_HOME/hooks.json` (scope "user", `~/.codex` by default). Command
handlers only; timeouts in seconds. Codex runs a new or changed hook only after the
user trusts it (`/hooks` in the Codex TUI).

    {"hooks": {"Stop": [{"hooks": [{"type": "command",
        "command": "coachloop hook codex", "timeout": 30}]}]}}

Older Codex versions have no hooks, only the `notify` program in `config.toml`
(`--notify` installs `notify = ["coachloop", "hook", "codex-notify"]` instead of the
Stop hook; a notify the user already set is never replaced). Only Stop is installed:
whether Codex fires UserPromptSubmit for a Stop-hook continuation is not documented,
and a prompt hook firing there would reset the auto-continue cap.
"""

from __future__ import annotations

import os
import shlex
from pathlib import Path
from typing import Any

from coachloop.agents.install.common import (
    Handler,
    coachloop_executable,
    hook_command,
    is_our_argv,
)

NAME = "codex"
SCOPES = ("project", "user")
EVENTS = ("Stop",)
TIMEOUT_S = 30
TIMEOUT_UNIT_S = 1.0
NOTIFY_ARG = "codex-notify"
TRUST_NOTE = (
    "Codex runs a new hook only after you trust it: open /hooks in Codex and trust "
    "coachloop's Stop hook (project hooks load only in a trusted project)"
)


def codex_home() -> Path:
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
    return {"Stop": {"type": "command", "command": hook_command(NAME), "timeout": TIMEOUT_S}}


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
