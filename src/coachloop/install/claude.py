"""Claude Code: where its settings live and the handlers we add.

Settings files (all merged by Claude Code): `<project>/.claude/settings.json`
(scope "project", shared with the team), `<project>/.claude/settings.local.json`
(scope "local", not committed) and `~/.claude/settings.json` (scope "user";
`$CLAUDE_CONFIG_DIR` replaces `~/.claude` when set, as it does for Claude Code).

One handler per event, in its own matcher group (these events take no matcher):

    command: {"type": "command", "command": "coachloop hook claude-code", "timeout": 30}
    http:    {"type": "http", "url": "<URL>/hooks/claude-code", "timeout": 30}
    http:    ... "headers": {"Authorization": "Bearer $VAR"}, "allowedEnvVars": ["VAR"]
             (VAR: `--token-env`, by default COACHLOOP_SERVE_TOKEN; Claude Code fills
             in $VAR from its environment, so the file never holds the token itself;
             `coachloop serve` refuses a request without it)

Claude Code does not run `http` handlers for SessionStart (checked with Claude Code
2.1.330: the POST never comes, while a command handler runs), so with `--http`
SessionStart gets no handler.
"""

from __future__ import annotations

import copy
import os
from pathlib import Path

from coachloop.core.agents import events
from coachloop.install.common import Handler, hook_command

NAME = "claude-code"
SCOPES = ("project", "local", "user")
EVENTS = events("claude-code")  # from the registry (`coachloop.core.agents`)
NO_HTTP = frozenset({"SessionStart"})
TIMEOUT_S = 30
TIMEOUT_UNIT_S = 1.0  # Claude Code timeouts are seconds


def config_dir() -> Path:
    """Claude Code's user configuration directory."""
    # Claude Code's own variable, not coachloop's: read where it is used.
    return Path(os.environ.get("CLAUDE_CONFIG_DIR") or Path.home() / ".claude")


def settings_path(scope: str, project: Path) -> Path:
    if scope == "user":
        return config_dir() / "settings.json"
    name = "settings.local.json" if scope == "local" else "settings.json"
    return project / ".claude" / name


def hook_url(base: str) -> str:
    """`<base>/hooks/claude-code` (a base that already names the endpoint is kept)."""
    base = base.rstrip("/")
    return base if base.endswith("/hooks/claude-code") else f"{base}/hooks/claude-code"


def desired(http_url: str | None = None, token_env: str | None = None) -> dict[str, Handler]:
    """Our handler per event: the command hook, or the http hook at `http_url` (sending
    `Authorization: Bearer $token_env` when `token_env` names a variable)."""
    if http_url:
        handler: Handler = {"type": "http", "url": hook_url(http_url), "timeout": TIMEOUT_S}
        if token_env:
            handler["headers"] = {"Authorization": f"Bearer ${token_env}"}
            handler["allowedEnvVars"] = [token_env]
        return {event: copy.deepcopy(handler) for event in EVENTS if event not in NO_HTTP}
    command = hook_command(NAME)
    handler = {"type": "command", "command": command, "timeout": TIMEOUT_S}
    return {event: dict(handler) for event in EVENTS}
