"""`coachloop install` / `uninstall` / `doctor`: our hooks in each agent's settings.

    install(agent, scope, project, http_url=None, notify=False) -> Change
    uninstall(agent, scope, project) -> Change
    inspect(agent, scope, project) -> Installed

Agents: those of the registry with an installer (`coachloop.core.agents`; the
`claude`, `codex`, `gemini` modules say where each keeps its settings and which
handlers we add). Scopes: "project" (files
under the project directory), "user" (the home directory), and for Claude Code also
"local" (`.claude/settings.local.json`).

Whether an installed hook will actually run (Codex hook and project trust, Gemini folder
trust and `hooksConfig`, a Codex `notify` where Codex ignores it) is part of what
`inspect` finds (`Installed.problems`, each with its fix, from `runs`) and of the notes
`install` prints.

Guarantees: installing is idempotent (a second install writes nothing); every hook,
key and matcher group that is not ours is kept; a file that is not valid JSON (or
TOML) raises `SettingsError` before anything is written; writes are atomic, and with
`backup` the first one keeps the previous file as `.bak`; uninstalling leaves the files
as they were before install (a settings file that holds nothing then is removed, with
the folder install created for it). Ours are recognised by their command
(`coachloop hook ...`, any path to `coachloop`) or URL (`.../hooks/<agent>`).
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from coachloop.core.agents import installable, spec, with_option
from coachloop.install import (
    claude,
    codex,
    gemini,
    runs,
)
from coachloop.install.common import (
    SettingsError,
    dump_json,
    find_ours,
    is_our_handler,
    merge_hooks,
    read_json_object,
    remove_emptied,
    remove_hooks,
    write_text_atomic,
)
from coachloop.install.toml_notify import read_toml, remove_notify, set_notify

__all__ = [
    "AGENTS",
    "Change",
    "FoundHook",
    "InstallUsageError",
    "Installed",
    "SettingsError",
    "inspect",
    "install",
    "scopes",
    "uninstall",
]

AGENTS = installable()  # from the registry: the agents with an installer
_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class InstallUsageError(ValueError):
    """A request that makes no sense (an unknown agent, a scope or option it lacks)."""


@dataclass(frozen=True, slots=True)
class Change:
    """What install/uninstall did to one agent's settings in one scope."""

    agent: str
    scope: str
    path: Path
    changed: bool
    message: str
    ok: bool = True  # False: the request could not be carried out (nothing was changed)
    notes: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class FoundHook:
    """One of our handlers as found in a settings file (`file`)."""

    event: str
    kind: str  # command | http | notify
    target: str  # the shell command, the URL, or the notify argv
    timeout_s: float | None = None
    argv: tuple[str, ...] = ()  # notify only: the program and its arguments
    headers: tuple[tuple[str, str], ...] = ()  # http only: as written ($VAR not filled in)
    allowed_env: tuple[str, ...] = ()  # http only: the variables Claude Code fills in
    file: str = ""  # the settings file it is in


@dataclass(frozen=True, slots=True)
class Installed:
    """What of ours one agent's settings in one scope contain. `problems`: why those
    hooks will not run when the agent works in the project, each with its fix (see
    `runs`); `notes`: anything else worth knowing."""

    agent: str
    scope: str
    path: Path
    exists: bool
    hooks: tuple[FoundHook, ...] = ()
    error: str | None = None
    notes: tuple[str, ...] = field(default_factory=tuple)
    problems: tuple[str, ...] = field(default_factory=tuple)


def scopes(agent: str) -> tuple[str, ...]:
    """The scopes `agent` has."""
    return tuple(_module(agent).SCOPES)


def _module(agent: str) -> ModuleType:
    """The installer of `agent`, named in the registry (`coachloop.core.agents`)."""
    found = spec(agent) if isinstance(agent, str) else None
    if found is None or found.installer is None:
        raise InstallUsageError(f"unknown agent {agent!r} (use {', '.join(AGENTS)})")
    return importlib.import_module(found.installer)


def _check_scope(agent: str, scope: str) -> ModuleType:
    module = _module(agent)
    if scope not in module.SCOPES:
        raise InstallUsageError(f"{agent} has no {scope!r} scope (use {', '.join(module.SCOPES)})")
    return module


# --- planning writes: everything is read and checked before anything is written ----------


@dataclass
class _Plan:
    """The writes of one install/uninstall, made only once all were read and checked.
    A JSON settings file our removal leaves as `{}` is deleted (`text` None)."""

    backup: bool = False
    writes: list[tuple[Path, str | None, bytes | None]] = field(default_factory=list)

    def json(self, path: Path, transform: Callable[[dict[str, Any]], dict[str, Any]]) -> bool:
        data, raw = read_json_object(path)
        new = transform(data)
        if new == data:
            return False
        self.writes.append((path, None if not new and raw is not None else dump_json(new), raw))
        return True

    def run(self) -> None:
        for path, text, raw in self.writes:
            if text is None and raw is not None:
                remove_emptied(path, raw, backup=self.backup)
            elif text is not None:
                write_text_atomic(path, text, raw, backup=self.backup)


def _summary(desired: dict[str, dict[str, Any]]) -> str:
    first = next(iter(desired.values()))
    target = first.get("url") if first.get("type") == "http" else first.get("command")
    return f"{', '.join(desired)} ({first.get('type', 'command')}: {target})"


def install(
    agent: str,
    scope: str,
    project: Path,
    *,
    http_url: str | None = None,
    token_env: str | None = None,
    notify: bool = False,
    backup: bool = False,
) -> Change:
    """Add our hooks for `agent` in `scope`; see the module docstring for guarantees.
    `http_url` (Claude Code only) installs http hooks instead of command hooks, sending
    `Authorization: Bearer $<token_env>` when `token_env` is given."""
    module = _check_scope(agent, scope)
    if http_url and agent not in with_option("http"):
        for_whom = ", ".join(with_option("http"))
        raise InstallUsageError(f"{agent} runs command hooks only; --http is for {for_whom}")
    if token_env and not http_url:
        raise InstallUsageError("--token-env goes with --http")
    if token_env and not _ENV_NAME.fullmatch(token_env):
        raise InstallUsageError(f"{token_env!r} is not an environment variable name")
    if notify and agent not in with_option("notify"):
        raise InstallUsageError(f"--notify is for {', '.join(with_option('notify'))} only")
    path = module.settings_path(scope, project)
    plan = _Plan(backup=backup)
    if agent == "codex":
        return _install_codex(scope, project, notify, plan)
    desired = claude.desired(http_url, token_env) if agent == "claude-code" else module.desired()
    changed = plan.json(path, lambda d: merge_hooks(d, desired, is_our_handler, path))
    plan.run()
    message = f"{'installed' if changed else 'already installed'}: {_summary(desired)}"
    return Change(agent, scope, path, changed, message, notes=_will_it_run(agent, scope, project))


def _will_it_run(agent: str, scope: str, project: Path) -> tuple[str, ...]:
    """What `inspect` says would keep the hooks just installed from running."""
    found = inspect(agent, scope, project)
    return (*found.problems, *found.notes)


def _unique(notes: list[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(notes))


def _install_codex(scope: str, project: Path, notify: bool, plan: _Plan) -> Change:
    hooks_path = codex.settings_path(scope, project)
    config_path = codex.config_path(scope, project)
    desired = codex.desired()
    if not notify:
        changed = plan.json(
            hooks_path, lambda d: merge_hooks(d, desired, is_our_handler, hooks_path)
        )
        notes: list[str] = []
        config, text = _read_config_tolerant(config_path, notes)
        if text is not None and codex.is_our_notify(config.get("notify")):
            new_text = remove_notify(text, codex.is_our_notify, config_path)
            if new_text is not None:  # one mechanism per scope: no double judging
                plan.writes.append((config_path, new_text, text.encode("utf-8")))
                changed = True
                notes.append(f"removed coachloop's notify from {config_path}")
        plan.run()
        message = f"{'installed' if changed else 'already installed'}: {_summary(desired)}"
        notes.extend(_will_it_run("codex", scope, project))
        return Change("codex", scope, hooks_path, changed, message, notes=_unique(notes))
    if scope != "user":
        return Change("codex", scope, config_path, False, codex.NOTIFY_PROJECT, ok=False)
    config, text = read_toml(config_path)
    argv = codex.notify_argv()
    current = config.get("notify")
    if current is not None and not codex.is_our_notify(current):
        message = (
            f"notify is already set to {codex.notify_display(current)}: left as it is; "
            "install without --notify to use the Stop hook instead"
        )
        return Change("codex", scope, config_path, False, message, ok=False)
    changed = plan.json(hooks_path, lambda d: remove_hooks(d, is_our_handler, hooks_path))
    if current != argv:
        base = text or ""
        if current is not None:  # ours, from another path to coachloop
            base = remove_notify(base, codex.is_our_notify, config_path) or base
        plan.writes.append((config_path, set_notify(base, argv, config_path), _bytes(text)))
        changed = True
    plan.run()
    message = f"{'installed' if changed else 'already installed'}: notify = {argv}"
    return Change("codex", scope, config_path, changed, message)


def _bytes(text: str | None) -> bytes | None:
    return None if text is None else text.encode("utf-8")


def _read_config_tolerant(path: Path, notes: list[str]) -> tuple[dict[str, Any], str | None]:
    try:
        return read_toml(path)
    except SettingsError as exc:
        notes.append(f"not checked for a notify entry: {exc}")
        return {}, None


def uninstall(agent: str, scope: str, project: Path, *, backup: bool = False) -> Change:
    """Remove our hooks (and, for Codex, our notify) for `agent` in `scope`; a settings
    file left holding nothing is removed, with its folder when that is empty then."""
    module = _check_scope(agent, scope)
    path = module.settings_path(scope, project)
    plan = _Plan(backup=backup)
    changed = plan.json(path, lambda d: remove_hooks(d, is_our_handler, path))
    notes: list[str] = []
    if agent == "codex":
        config_path = codex.config_path(scope, project)
        config, text = _read_config_tolerant(config_path, notes)
        if text is not None and codex.is_our_notify(config.get("notify")):
            new_text = remove_notify(text, codex.is_our_notify, config_path)
            if new_text is None:
                raise SettingsError(f"{config_path}: could not remove notify; edit it by hand")
            plan.writes.append((config_path, new_text, text.encode("utf-8")))
            changed = True
    plan.run()
    message = "removed coachloop's hooks" if changed else "no coachloop hooks found"
    return Change(agent, scope, path, changed, message, notes=tuple(notes))


def inspect(agent: str, scope: str, project: Path) -> Installed:
    """What of ours `agent`'s settings in `scope` contain; never raises on a bad file."""
    module = _check_scope(agent, scope)
    path = module.settings_path(scope, project)
    hooks: list[FoundHook] = []
    notes: list[str] = []
    error = None
    try:
        data, raw = read_json_object(path)
    except SettingsError as exc:
        data, raw, error = {}, b"", str(exc)
    for event, handlers in find_ours(data, is_our_handler).items():
        for handler in handlers:
            hooks.append(_found(event, handler, module.TIMEOUT_UNIT_S, path))
    if agent == "gemini":
        notes.extend(gemini.notes(data))
    exists = raw is not None
    problems: list[str] = []
    if hooks:
        problems, more = runs.check(agent, scope, project, path, data)
        notes.extend(more)
    if agent == "codex":
        config_path = codex.config_path(scope, project)
        config, text = _read_config_tolerant(config_path, notes)
        exists = exists or text is not None
        current = config.get("notify")
        shown = codex.notify_display(current)
        if codex.is_our_notify(current):
            argv = tuple(current or ())
            hooks.append(FoundHook("notify", "notify", shown, None, argv, file=str(config_path)))
            if scope != "user":
                problems.append(f"notify in {config_path} does not run: {codex.NOTIFY_PROJECT}")
        elif current is not None:
            notes.append(f"notify in {config_path} is not coachloop's: {shown}")
        notes.extend(codex.notes(config))
    return Installed(agent, scope, path, exists, tuple(hooks), error, tuple(notes), tuple(problems))


def _found(event: str, handler: dict[str, Any], unit: float, path: Path) -> FoundHook:
    kind = str(handler.get("type", "command"))
    target = handler.get("url") if kind == "http" else handler.get("command")
    timeout = handler.get("timeout")
    timeout_s = float(timeout) * unit if isinstance(timeout, int | float) else None
    raw_headers = handler.get("headers")
    headers = tuple(
        (str(k), str(v)) for k, v in (raw_headers.items() if isinstance(raw_headers, dict) else ())
    )
    allowed = handler.get("allowedEnvVars")
    allowed_env = tuple(str(v) for v in allowed) if isinstance(allowed, list) else ()
    return FoundHook(event, kind, str(target), timeout_s, (), headers, allowed_env, str(path))
