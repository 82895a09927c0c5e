"""Gemini CLI: where its settings live, the handler we add, and whether it will run.

Settings: `<project>/.gemini/settings.json` (scope "project") and
`~/.gemini/settings.json` (scope "user"). Gemini reads the same layout as Claude Code
under `hooks`. Its AfterAgent hook gets `prompt`, `prompt_response` and
`stop_hook_active`; a reply `{"decision": "deny", "reason": ...}` sends the reason back
as the next prompt. Timeouts are milliseconds. The `name` lets `/hooks disable
coachloop` find it. Identical handlers (same name and command) in both files run once.

Whether the hook runs (read from Gemini CLI 0.61 and checked by running it):
- `hooksConfig.enabled: false` switches every hook off; a hook whose name (or command)
  is in `hooksConfig.disabled` (the union over the settings files; `/hooks disable`
  writes it) does not run. `hooks.enabled`, `hooks.disabled` and `tools.enableHooks`
  are not read.
- Folder trust (on unless `security.folderTrust.enabled` is false): a project's
  settings, hooks included, are loaded only in a folder the user trusts
  (`~/.gemini/trustedFolders.json`, or `GEMINI_CLI_TRUSTED_FOLDERS_PATH`), and in a
  folder it does not trust Gemini runs no hooks at all. Headless, an untrusted folder
  makes `gemini -p` refuse to start; `--skip-trust` starts it without the project's
  settings; `GEMINI_CLI_TRUST_WORKSPACE=true` trusts the folder for that run.

    {"name": "coachloop", "type": "command", "command": "coachloop hook gemini",
     "timeout": 30000, "description": "..."}
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from coachloop.core.agents import events
from coachloop.install.common import Handler, hook_command

NAME = "gemini"
SCOPES = ("project", "user")
EVENTS = events("gemini")  # from the registry (`coachloop.core.agents`)
TIMEOUT_MS = 30_000
TIMEOUT_UNIT_S = 0.001  # Gemini CLI timeouts are milliseconds
HOOK_NAME = "coachloop"
DESCRIPTION = "coachloop: judge the answer; deny sends the agent back with coaching"
_LEVELS = ("TRUST_FOLDER", "TRUST_PARENT", "DO_NOT_TRUST")


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
    """Keys of `settings` that look like switches for hooks but that Gemini CLI does not
    read (it reads `hooksConfig.enabled` and `hooksConfig.disabled`)."""
    found = []
    tools = settings.get("tools")
    if isinstance(tools, dict) and "enableHooks" in tools:
        found.append("tools.enableHooks is not read by Gemini CLI (hooksConfig.enabled is)")
    hooks = settings.get("hooks")
    if isinstance(hooks, dict):
        for key in ("enabled", "disabled"):
            if key in hooks:
                found.append(
                    f"hooks.{key} is not read by Gemini CLI (hooksConfig.{key} is): "
                    "it neither switches coachloop's hook off nor on"
                )
    return found


def switched_off(files: list[tuple[Path, dict[str, Any]]]) -> list[str]:
    """Why the settings `files` (user first, then project: a later file's
    `hooksConfig.enabled` wins, `hooksConfig.disabled` lists add up) keep Gemini CLI from
    running our hook, each with its fix."""
    found: list[str] = []
    enabled: tuple[Path, bool] | None = None
    ours = {HOOK_NAME, hook_command(NAME)}
    for path, settings in files:
        config = settings.get("hooksConfig")
        if not isinstance(config, dict):
            continue
        if isinstance(config.get("enabled"), bool):
            enabled = (path, config["enabled"])
        disabled = config.get("disabled")
        if isinstance(disabled, list) and ours & {d for d in disabled if isinstance(d, str)}:
            found.append(
                "Gemini CLI will not run coachloop's hook: it is in hooksConfig.disabled in "
                f"{path}; fix: run /hooks enable {HOOK_NAME} in Gemini CLI, or remove it "
                "from that list"
            )
    if enabled is not None and not enabled[1]:
        found.insert(
            0,
            f"Gemini CLI runs no hooks: hooksConfig.enabled is false in {enabled[0]}; "
            "fix: set it to true",
        )
    return found


# --- folder trust ------------------------------------------------------------------------


def trusted_folders_path() -> Path:
    """Gemini CLI's trusted folders file."""
    # Gemini CLI's own variable, not coachloop's: read where it is used.
    override = os.environ.get("GEMINI_CLI_TRUSTED_FOLDERS_PATH")
    return Path(override) if override else Path.home() / ".gemini" / "trustedFolders.json"


def folder_trusted(project: Path, user_settings: dict[str, Any]) -> bool | None:
    """Whether Gemini CLI trusts `project`: True or False by a rule in the trusted folders
    file (the longest rule path that contains it; TRUST_PARENT rules cover the rule's
    parent directory), or by folder trust being switched off
    (`security.folderTrust.enabled` false); None when no rule says (Gemini asks in its
    TUI and refuses to start headless without `--skip-trust`)."""
    security = user_settings.get("security")
    folder_trust = security.get("folderTrust") if isinstance(security, dict) else None
    if isinstance(folder_trust, dict) and folder_trust.get("enabled") is False:
        return True
    try:
        rules = json.loads(trusted_folders_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(rules, dict):
        return None
    where = _real(project)
    best, verdict = -1, None
    for rule, level in rules.items():
        if not isinstance(rule, str) or level not in _LEVELS:
            continue
        base = _real(Path(rule).parent if level == "TRUST_PARENT" else Path(rule))
        if (where == base or base in where.parents) and len(rule) > best:
            best, verdict = len(rule), level != "DO_NOT_TRUST"
    return verdict


def _real(path: Path) -> Path:
    try:
        return path.resolve()
    except (OSError, RuntimeError):
        return path


def untrusted_note(project: Path, scope: str) -> str:
    """What an untrusted folder means for our hook in `scope`, and the fix."""
    fix = (
        f"fix: run gemini in {project} and trust the folder, or add "
        f'"{project}": "TRUST_FOLDER" to {trusted_folders_path()}; headless, '
        "GEMINI_CLI_TRUST_WORKSPACE=true also trusts it"
    )
    if scope == "project":
        return (
            f"Gemini CLI will not run this project's hooks: it does not trust {project} "
            f"(and --skip-trust does not load a project's settings); {fix}"
        )
    return (
        f"Gemini CLI runs no hooks in {project} until it trusts the folder "
        f"(headless it refuses to start there without --skip-trust); {fix}"
    )
