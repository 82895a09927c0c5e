"""Will an installed hook actually run? What would stop it, per agent and scope, with the fix.

`check(agent, scope, project, hooks_path, hooks)` returns `(problems, notes)`: problems
keep the installed hook from running when the agent works in `project` (`doctor` fails on
them), notes are conditions worth knowing (the hook runs in some setups and not in
others). Each text names the cause and the exact step that fixes it. Claude Code has no
such gate. The rules for Codex are in `codex_trust`, those for Gemini CLI in `gemini`.
Files that cannot be read count as absent here (the caller reports them).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from coachloop.install import codex, gemini
from coachloop.install.codex_trust import project_trusted, trust_problems
from coachloop.install.common import is_our_handler
from coachloop.install.toml_notify import read_toml

__all__ = ["check"]


def check(
    agent: str, scope: str, project: Path, hooks_path: Path, hooks: dict[str, Any]
) -> tuple[list[str], list[str]]:
    """(problems, notes) for our hooks found in `hooks` (read from `hooks_path`)."""
    if agent == "codex":
        return _codex(scope, project, hooks_path, hooks), []
    if agent == "gemini":
        return _gemini(scope, project)
    return [], []


def _user_codex_config() -> tuple[Path, dict[str, Any]]:
    path = codex.config_path("user", Path())
    try:
        return path, read_toml(path)[0]
    except ValueError:  # SettingsError: reported with the installation
        return path, {}


def _codex(scope: str, project: Path, hooks_path: Path, hooks: dict[str, Any]) -> list[str]:
    config_path, config = _user_codex_config()
    problems = []
    if scope == "project" and not project_trusted(project, config):
        problems.append(
            f"Codex will not load {hooks_path}: it reads a project's .codex/ only when the "
            f"project is trusted; fix: run codex in {project} and trust the project, or add "
            f'[projects."{project}"] with trust_level = "trusted" to {config_path}'
        )
    problems += trust_problems(hooks_path.absolute(), hooks, config, is_our_handler)
    return problems


def _read_json(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _gemini(scope: str, project: Path) -> tuple[list[str], list[str]]:
    user_path = gemini.settings_path("user", project)
    user = _read_json(user_path)
    trusted = gemini.folder_trusted(project, user)
    problems: list[str] = []
    notes: list[str] = []
    if not trusted:
        explicit = trusted is False or scope == "project"
        (problems if explicit else notes).append(gemini.untrusted_note(project, scope))
    files = [(user_path, user)]
    if trusted:
        project_path = gemini.settings_path("project", project)
        files.append((project_path, _read_json(project_path)))
    problems += gemini.switched_off(files)
    return problems, notes
