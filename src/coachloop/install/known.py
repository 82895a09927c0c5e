"""The project directories the user's agents know, read from the agents' own files.

For finding stores that earlier coachloop versions kept in each project (`old_stores`:
`coachloop upgrade --scan`, and the bridge at its start): no list of projects was kept
then, but every agent that ran there recorded the directory:

- Claude Code: the keys of `projects` in `~/.claude.json` (`$CLAUDE_CONFIG_DIR/.claude.json`
  when that is set; written by interactive sessions), and the `cwd` its transcripts under
  `~/.claude/projects/` record (headless `claude -p` runs write only those): the first
  `cwd` within the head of one transcript per folder;
- Codex CLI: the `[projects."<dir>"]` tables of `$CODEX_HOME/config.toml` (`~/.codex`);
- Gemini CLI: the keys of its trusted folders file (`~/.gemini/trustedFolders.json`).

A file that is missing or unreadable adds nothing; only absolute paths of existing
directories are returned, each once, sorted.
"""

from __future__ import annotations

import json
import os
import tomllib
from pathlib import Path
from typing import Any

__all__ = ["known_projects", "old_stores"]

MAX_BYTES = 64 * 1024 * 1024  # a config file larger than this is not read
MAX_FOLDERS = 10_000  # Claude Code transcript folders looked at
HEAD_BYTES = 256 * 1024  # of one transcript per folder, where its first `cwd` is


def _read(path: Path) -> str:
    try:
        if path.stat().st_size > MAX_BYTES:
            return ""
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return ""


def _keys(data: Any, table: str | None = None) -> list[str]:
    found = data.get(table) if table is not None and isinstance(data, dict) else data
    return [k for k in found if isinstance(k, str)] if isinstance(found, dict) else []


def _claude() -> list[str]:
    # Claude Code's own variable, not coachloop's: read where it is used.
    base = os.environ.get("CLAUDE_CONFIG_DIR")
    path = Path(base) / ".claude.json" if base else Path.home() / ".claude.json"
    try:
        return _keys(json.loads(_read(path) or "{}"), "projects")
    except ValueError:
        return []


def _claude_transcripts() -> list[str]:
    from coachloop.install.claude import config_dir

    out: list[str] = []
    try:
        folders = sorted((config_dir() / "projects").iterdir())[:MAX_FOLDERS]
    except OSError:
        return out
    for folder in folders:
        try:
            transcript = next(p for p in folder.iterdir() if p.suffix == ".jsonl")
            with transcript.open("rb") as fh:
                head = fh.read(HEAD_BYTES).decode("utf-8", "replace")
        except (OSError, StopIteration):
            continue
        for line in head.splitlines():
            try:
                cwd = json.loads(line).get("cwd") if '"cwd"' in line else None
            except (ValueError, AttributeError):
                continue
            if isinstance(cwd, str) and cwd:
                out.append(cwd)
                break
    return out


def _codex() -> list[str]:
    from coachloop.install.codex import codex_home

    try:
        return _keys(tomllib.loads(_read(codex_home() / "config.toml")), "projects")
    except tomllib.TOMLDecodeError:
        return []


def _gemini() -> list[str]:
    from coachloop.install.gemini import trusted_folders_path

    try:
        return _keys(json.loads(_read(trusted_folders_path()) or "{}"))
    except ValueError:
        return []


def known_projects() -> list[Path]:
    """Every directory Claude Code, Codex CLI or Gemini CLI recorded (module docstring)."""
    out: set[Path] = set()
    for name in (*_claude(), *_claude_transcripts(), *_codex(), *_gemini()):
        path = Path(name)
        try:
            if path.is_absolute() and path.is_dir():
                out.add(path)
        except (OSError, ValueError):
            continue
    return sorted(out)


def old_stores(extra: tuple[Path, ...] = ()) -> list[Path]:
    """The project roots (as the hooks find them) among `extra` and `known_projects()`
    that still hold a store of an earlier version (`coachloop.store.legacy_path`), sorted."""
    from coachloop.config.project import project_root
    from coachloop.store import legacy_path

    roots: set[Path] = set()
    for folder in (*extra, *known_projects()):
        root = project_root(str(folder)) or folder
        if legacy_path(root).exists():
            roots.add(root)
    return sorted(roots)
