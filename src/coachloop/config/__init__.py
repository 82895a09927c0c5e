"""Settings: embedded defaults, then TOML files, then environment variables.

The `COACHLOOP_*` variables are read once, by `coachloop.config.env.environment()`
(no other module reads them); `load_settings` takes the settings' ones from there.

Files, later ones overriding earlier ones: `$COACHLOOP_HOME/config.toml` (user) and
`<project>/.coachloop/config.toml`. Environment variables win over both. Only the
standard library is used: this module is on the hook path.

Each file is parsed once per process and content: every reader (the settings, the
store's and the snapshots' tables) takes the parsed document from `_DOCUMENTS`, kept
with the text it was parsed from, so an edited file is parsed again (the warm daemon
lives for hours) and an unchanged one never is (reading a small file costs microseconds,
parsing it a hundred times more).
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from coachloop.config.env import environment, from_mapping


def home() -> Path:
    """The data directory: `$COACHLOOP_HOME`, else `~/.coachloop`. Tests redirect it."""
    value = environment().home
    return Path(value).expanduser() if value else Path.home() / ".coachloop"


class ConfigError(ValueError):
    """A configuration file or value that cannot be used; the message says which."""


def config_documents(
    project: Path | None, error: type[Exception] = ConfigError
) -> Iterator[tuple[Path, dict[str, Any]]]:
    """Each config file that exists, with its settings: the user's
    (`home()/config.toml`), then `project`'s (`<project>/.coachloop/config.toml`).

    Contract: yields `(path, table)` where `table` is the file's `[coachloop]` table, or
    the whole document without one; a file is read only when the previous one has been
    taken. An unreadable or invalid file raises `error(f"{path}: {reason}")`. The
    project's file is a repository's (`coachloop.config.trust`): it is skipped unless it
    is owned by the user and not writable by everyone, and its table holds only the
    harmless keys unless the user trusted this content (`coachloop trust PROJECT`).
    """
    from coachloop.config import trust

    files = [home() / "config.toml"]
    if project is not None:
        files.append(project / ".coachloop" / "config.toml")
    for i, path in enumerate(files):
        if i and project is not None and not trust.safe_path(path, project):
            continue  # missing, or another user could have written it
        try:
            found = _document(path)
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
            raise error(f"{path}: {exc}") from exc
        if found is not None:
            text, data = found
            table = data.get("coachloop", data)
            yield path, trust.honoured(path, text, table) if i else table


def config_table(
    name: str, project: Path | str | None = None, error: type[Exception] = ConfigError
) -> dict[str, Any]:
    """The merged `[name]` table of the user and project config files (project wins).
    An unreadable file raises `error` naming it."""
    merged: dict[str, Any] = {}
    project_dir = Path(project).expanduser() if project else None
    for _, settings in config_documents(project_dir, error):
        table = settings.get(name, {})
        if isinstance(table, dict):
            merged.update(table)
    return merged


_DOCUMENTS: dict[Path, tuple[str, dict[str, Any]]] = {}


def document(path: Path) -> dict[str, Any] | None:
    """The parsed TOML file at `path` (None: no such regular file), parsed once per
    content. Callers must not mutate the result."""
    found = _document(path)
    return found[1] if found is not None else None


def _document(path: Path) -> tuple[str, dict[str, Any]] | None:
    """The text and parsed TOML of the file at `path` (None: no such regular file),
    parsed once per content (the text is what trust hashes)."""
    if not path.is_file():
        return None
    text = path.read_text(encoding="utf-8")
    cached = _DOCUMENTS.get(path)
    if cached is not None and cached[0] == text:
        return cached
    data = tomllib.loads(text)
    _DOCUMENTS[path] = (text, data)
    return text, data


@dataclass(frozen=True, slots=True)
class SkillSpec:
    """A workflow skill as data: how to spot it and what evidence finishes it.

    `requires` lists evidence kinds of which at least one must be shown for a
    completion under this skill: "tests", "commit", "pr", "paths", "plan", "command".
    """

    name: str
    phase: str
    evidence_hint: str
    requires: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything configurable, with the embedded defaults (offline, no key)."""

    judge: str = "rules"  # rules | anthropic | openai
    model: str | None = None  # provider default when None
    llm_base_url: str | None = None
    llm_api_key_env: str | None = None  # name of the env var holding the key
    confidence_threshold: float = 0.80
    llm_timeout: float = 20.0
    max_text_chars: int = 12_000
    max_auto_continues: int = 3
    skills: tuple[SkillSpec, ...] = field(default_factory=tuple)


_SCALARS = {
    "judge": str,
    "model": str,
    "llm_base_url": str,
    "llm_api_key_env": str,
    "confidence_threshold": float,
    "llm_timeout": float,
    "max_text_chars": int,
    "max_auto_continues": int,
}


def _coerce(name: str, kind: type, value: Any, source: str = "") -> Any:
    """`value` as `kind`, checked against its allowed range (`config.check`); raises
    `ConfigError` naming `source`, the key, the allowed values and the fix."""
    from coachloop.config.check import check, describe

    result: Any = None
    try:
        if kind is float and isinstance(value, int | float | str) and not isinstance(value, bool):
            result = float(value)
        elif kind is int and isinstance(value, int | str) and not isinstance(value, bool):
            result = int(value)
        elif kind is str and isinstance(value, str):
            result = value
    except ValueError:
        pass
    if result is None:
        raise ConfigError(describe(name, value, source or "setting", kind.__name__))
    check(name, result, source or "setting")
    return result


def _skills(raw: Any, source: str) -> tuple[SkillSpec, ...]:
    if not isinstance(raw, dict):
        raise ConfigError(f"{source}: [skills] must be a table of tables")
    out = []
    for name, spec in raw.items():
        if not isinstance(spec, dict):
            raise ConfigError(f"{source}: skill {name!r} must be a table")
        trigger = name if name.startswith("/") else f"/{name}"
        requires = spec.get("requires", [])
        if not isinstance(requires, list) or not all(isinstance(r, str) for r in requires):
            raise ConfigError(f"{source}: skill {name!r}: requires must be a list of strings")
        out.append(
            SkillSpec(
                name=trigger,
                phase=str(spec.get("phase", trigger.lstrip("/"))),
                evidence_hint=str(spec.get("evidence_hint", "")),
                requires=tuple(requires),
            )
        )
    return tuple(out)


def _apply(settings: Settings, data: dict[str, Any], source: str) -> Settings:
    changes: dict[str, Any] = {}
    for key, value in data.items():
        if key == "skills":
            changes["skills"] = settings.skills + _skills(value, source)
        elif key in _SCALARS:
            changes[key] = _coerce(key, _SCALARS[key], value, source)
        # Unknown keys belong to other sections (store, telegram, ...): ignored here.
    return replace(settings, **changes)


def load_settings(project: Path | None = None, env: dict[str, str] | None = None) -> Settings:
    """Read the settings for `project` (a directory). Every value is checked where it is
    read (`coachloop.config.check`): a bad file or value raises `ConfigError` whose one
    line names the file or variable, the key, the allowed values and the fix."""
    from coachloop.config.env import SETTINGS_FIELDS

    pairs = (environment() if env is None else from_mapping(env)).settings
    settings = Settings()
    for path, table in config_documents(project):
        settings = _apply(settings, table, str(path))
    for var, value in pairs:
        name = SETTINGS_FIELDS[var]
        settings = replace(settings, **{name: _coerce(name, _SCALARS[name], value, var)})
    return settings
