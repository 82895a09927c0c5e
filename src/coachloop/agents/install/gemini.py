"""Gemini CLI: where its settings live and the handler we add.

Settings: `<project>/.gemini/settings.json` (scope "project") and
`~/.gemini/settings.json` (scope "user"). Gemini reads the same layout as Claude Code
under `hooks` (which may also hold its own `enabled` flag and `disabled` list). Its
AfterAgent hook gets `prompt`, `prompt_response` and `stop_hook_active`; a reply
`{"decision": "deny", "reason": ...}` sends the reason back as the next prompt.
Timeouts are milliseconds. The `name` lets `/hooks disable coachloop` find it.

    {"name": "coachloop", "type": "command", "command": "coachloop hook gemini",
     "timeout": 30000, "description": "..."}
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from coachloop.agents.install.common import Handler, hook_command

NAME = "gemini"
SCOPES = ("project", "user")
EVENTS = ("AfterAgent",)
TIMEOUT_MS = 30_000
TIMEOUT_UNIT_S = 0.001  # Gemini CLI timeouts are milliseconds
HOOK_NAME = "coachloop"
DESCRIPTION = "coachloop: judge the answer; deny sends the agent back with coaching"


def settings_path(scope: str, project: Path) -> Path:
    base = Path.home() if scope == "user" else project
    return base / ".gemini" / "settings.json"


def desired() -> dict[str, Handler]:
    """Our AfterAgent handler (Gemini CLI runs command hooks only)."""
    return {
        "AfterAgent": {
            "name": HOOK_NAME,
            "type": "command",
            "command": hook_command(NAME),
            "timeout": TIMEOUT_MS,
            "description": DESCRIPTION,
        }
    }


def notes(settings: dict[str, Any]) -> list[str]:
    """Settings that keep Gemini CLI from running our hook."""
    found = []
    config = settings.get("hooksConfig")
    if isinstance(config, dict) and config.get("enabled") is False:
        found.append("hooksConfig.enabled is false: Gemini CLI runs no hooks")
    tools = settings.get("tools")
    if isinstance(tools, dict) and tools.get("enableHooks") is False:
        found.append("tools.enableHooks is false: Gemini CLI runs no hooks")
    hooks = settings.get("hooks")
    if isinstance(hooks, dict):
        if hooks.get("enabled") is False:
            found.append("hooks.enabled is false: Gemini CLI runs no hooks")
        disabled = hooks.get("disabled")
        if isinstance(disabled, list) and HOOK_NAME in disabled:
            found.append(f"{HOOK_NAME!r} is in hooks.disabled")
    return found
