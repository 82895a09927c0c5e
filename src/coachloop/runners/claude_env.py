"""Running the real Claude Code: where its binary is, an offline environment, our hooks.

- `find_claude()`: `$COACHLOOP_CLAUDE`, else `claude` on PATH (the user's own, logged in),
  else the binary bundled in the `claude-agent-sdk` wheel (the `claude` extra); raises
  `ClaudeNotFound` with what to install. `describe_claude(path)` says which one it is.
- `offline_env(base_url, home)`: the environment that points Claude Code at a local
  Messages API server (the package's `ScriptedModel`) with a throw-away `HOME`, so it
  never reaches the network nor touches the user's `~/.claude`. Credentials of the
  calling environment are removed, never copied.
- `hook_settings()`: the Claude Code settings that run `coachloop hook claude-code` at
  every stop (the shape `coachloop install` writes), with an absolute command path so the
  hook works whatever PATH the agent runs with.
"""

from __future__ import annotations

import importlib.util
import os
import shlex
import shutil
import sys
import sysconfig
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from coachloop.core.agents import events

__all__ = [
    "ALLOWED_TOOLS",
    "ENV_CLAUDE",
    "HOOK_EVENTS",
    "ClaudeNotFound",
    "coachloop_command",
    "describe_claude",
    "find_claude",
    "hook_settings",
    "offline_env",
]

ENV_CLAUDE = "COACHLOOP_CLAUDE"
# The tools a supervised headless run may use without a permission prompt (as root,
# Claude Code refuses bypassPermissions; an allow-list works everywhere).
ALLOWED_TOOLS = ("Bash", "Edit", "Write", "Read")
# The hook events coachloop handles for Claude Code (the registry's).
HOOK_EVENTS = events("claude-code")
# Variables that could carry real credentials or redirect Claude Code elsewhere.
_SCRUBBED = (
    "ANTHROPIC_API_KEY",
    "ANTHROPIC_AUTH_TOKEN",
    "ANTHROPIC_BASE_URL",
    "ANTHROPIC_BEDROCK_BASE_URL",
    "ANTHROPIC_VERTEX_BASE_URL",
    "CLAUDE_CODE_OAUTH_TOKEN",
    "CLAUDE_CODE_USE_BEDROCK",
    "CLAUDE_CODE_USE_VERTEX",
    "CLAUDE_CONFIG_DIR",
    "AWS_BEARER_TOKEN_BEDROCK",
)


class ClaudeNotFound(RuntimeError):  # noqa: N818 - reads as a sentence
    """No Claude Code binary could be found."""


def _bundled() -> Path | None:
    spec = importlib.util.find_spec("claude_agent_sdk")
    for root in (spec.submodule_search_locations or []) if spec else []:
        path = Path(root) / "_bundled" / "claude"
        if path.is_file() and os.access(path, os.X_OK):
            return path
    return None


def find_claude() -> Path:
    """The Claude Code binary: `$COACHLOOP_CLAUDE`, PATH, the `claude-agent-sdk` bundle."""
    from coachloop.config.env import environment

    named = environment().claude
    if named:
        path = Path(named).expanduser()
        if not (path.is_file() and os.access(path, os.X_OK)):
            raise ClaudeNotFound(f"{ENV_CLAUDE}={named} is not an executable file")
        return path
    found = shutil.which("claude") or _bundled()
    if found is None:
        from coachloop.core.extras import install_hint

        raise ClaudeNotFound(
            "Claude Code was not found: put `claude` on PATH, install the bundled one "
            f"(the 'claude' extra: {install_hint('claude')}), or set {ENV_CLAUDE}"
        )
    return Path(found)


def describe_claude(path: Path) -> str:
    """`path` and where it came from: `$COACHLOOP_CLAUDE`, PATH, or the bundle."""
    from coachloop.config.env import environment

    if environment().claude:
        origin = f"from ${ENV_CLAUDE}"
    elif path == _bundled():
        origin = "bundled in claude-agent-sdk"
    else:
        origin = "on PATH"
    return f"{path} ({origin})"


def _scripts_dir() -> Path:
    return Path(sysconfig.get_path("scripts"))


def coachloop_command() -> str:
    """A shell command line that starts this installation's `coachloop`, with absolute
    paths: the console script next to this interpreter, else `python -m coachloop`."""
    for script in (_scripts_dir() / "coachloop", Path(sys.executable).parent / "coachloop"):
        if script.is_file() and os.access(script, os.X_OK):
            return shlex.quote(str(script))
    return f"{shlex.quote(sys.executable)} -m coachloop"


def hook_settings(
    command: str | None = None,
    *,
    agent: str = "claude-code",
    timeout: int = 30,
    events: Iterable[str] = HOOK_EVENTS,
) -> dict[str, Any]:
    """Claude Code settings running `<command> hook <agent>` at each of `events`.

    `command` defaults to `coachloop_command()`. The hook timeout is in seconds.
    """
    line = f"{command or coachloop_command()} hook {agent}"
    handler = {"type": "command", "command": line, "timeout": timeout}
    return {"hooks": {event: [{"hooks": [dict(handler)]}] for event in events}}


def offline_env(
    base_url: str,
    home: Path | str,
    *,
    base: Mapping[str, str] | None = None,
    api_key: str = "offline-test-key",
    max_retries: int = 0,
    extra: Mapping[str, str] | None = None,
) -> dict[str, str]:
    """The environment for Claude Code talking to the Messages API at `base_url` only.

    Starts from `base` (default: this process's environment) without its credentials,
    sets `HOME` (Claude Code keeps its config and transcripts there),
    `ANTHROPIC_BASE_URL`, a dummy `ANTHROPIC_API_KEY`, turns non-essential traffic off,
    sets `CLAUDE_CODE_MAX_RETRIES` (0: a failing model call fails at once), and puts this
    interpreter's scripts directory first on PATH so the hook command is found.
    `extra` is applied last.
    """
    # Builds Claude Code's environment from ours, scrubbed (not a settings read).
    env = {k: v for k, v in (os.environ if base is None else base).items() if k not in _SCRUBBED}
    scripts = str(_scripts_dir())
    path = env.get("PATH", os.defpath)
    env.update(
        HOME=str(home),
        ANTHROPIC_BASE_URL=base_url,
        ANTHROPIC_API_KEY=api_key,
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1",
        DISABLE_AUTOUPDATER="1",
        DISABLE_TELEMETRY="1",
        DISABLE_ERROR_REPORTING="1",
        CLAUDE_CODE_MAX_RETRIES=str(max_retries),
        PATH=path if path.split(os.pathsep)[0] == scripts else f"{scripts}{os.pathsep}{path}",
    )
    env.update(extra or {})
    return env
