"""Shared pieces of `coachloop install`: reading and writing agent settings files
safely, and merging our handlers into the hook layout all three agents share.

Claude Code, Codex CLI (`hooks.json`) and Gemini CLI (`settings.json`) all read

    {"hooks": {EVENT: [{"matcher": "...", "hooks": [HANDLER, ...]}, ...]}}

so one merge (`merge_hooks`) and one removal (`remove_hooks`) serve them all.

Contracts:
- `read_json_object` refuses (raises `SettingsError`) a file that is not a JSON object,
  has duplicate keys, or is not UTF-8; a missing or blank file reads as `{}`.
- `write_text_atomic` writes a temporary file next to the target and renames it over
  the target (readers see the old or the new file, never a mix); the first time it
  replaces an existing file it keeps a copy as `<name>.bak` when asked (`--backup`;
  never overwritten later). `remove_emptied` deletes a file our removal left empty.
- `merge_hooks` / `remove_hooks` never mutate their input and touch only handlers
  `is_ours` recognises; everything else keeps its value and its order.
"""

from __future__ import annotations

import contextlib
import copy
import json
import os
import re
import shlex
import sys
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

Handler = dict[str, Any]
IsOurs = Callable[[Any], bool]

# The URL path of our HTTP hook endpoints: <base>/hooks/<agent>.
_OUR_URL = re.compile(r"/hooks/(claude-code|codex|gemini)/?(\?.*)?$")


class SettingsError(ValueError):
    """A settings file we must not touch (unreadable, not a JSON object, bad layout)."""


# --- our command -------------------------------------------------------------------------


# What the hook command runs: the console entry point itself, by this interpreter with
# `-S`. pip's generated script imports `re` and more before it gets there (5 ms of a warm
# hook's 20), and `site` (the .pth files of site-packages, sitecustomize: ~4 ms) is not
# needed to relay a stop to the daemon: the launcher appends the folder holding this
# installation's `coachloop` package to `sys.path` itself. When that folder no longer
# holds it (the package was reinstalled elsewhere), the launcher runs `site` as a normal
# start would and imports the package from wherever it is now; `coachloop.entry` runs
# `site` before any path that needs more than the standard library (`ensure_site`).
# (Double quotes inside, the root an ASCII Python literal in double quotes: the shell
# command then needs one pair of single quotes around it.)
LAUNCHER = (
    "import sys, os; r = {root}; "
    'sys.path.append(r) if os.path.isdir(os.path.join(r, "coachloop")) '
    'else __import__("site").main(); '
    "from coachloop.entry import main; main()"
)


def python_literal(text: str) -> str:
    """`text` as a double-quoted ASCII Python string literal. Not `json.dumps`: it writes
    a character beyond the BMP as a surrogate pair, two characters to Python. Lone
    surrogates (a file name's bytes that are not UTF-8) stay `\\udcXX`, as `os.fsencode`
    wants them."""
    out: list[str] = []
    for char in text:
        if char in '"\\':
            out.append("\\" + char)
        elif " " <= char <= "~":
            out.append(char)
        else:
            out.append(ascii(char)[1:-1])  # \n, \xe9, \u2028, \U0001f600, \udcff
    return '"' + "".join(out) + '"'


def package_root() -> str:
    """The folder holding this installation's `coachloop` package (a `sys.path` entry)."""
    import coachloop

    return os.path.dirname(os.path.dirname(os.path.abspath(coachloop.__file__)))


def coachloop_executable() -> list[str]:
    """The argv prefix that starts this installation's `coachloop` hook the fastest way
    that stays correct: this installation's interpreter (an absolute path: agents often
    run with a PATH that lacks the virtualenv, and another `coachloop` on PATH may be
    another version) without `site` (`-S`) running the entry point (`-c LAUNCHER`), not
    pip's wrapper script. `coachloop doctor` shows it and runs it."""
    return [sys.executable, "-S", "-c", LAUNCHER.format(root=python_literal(package_root()))]


def hook_command(agent_arg: str) -> str:
    """The shell command of our hook for `agent_arg` (claude-code, codex, gemini)."""
    return shlex.join([*coachloop_executable(), "hook", agent_arg])


def is_our_argv(argv: list[str]) -> bool:
    """True for `.../coachloop hook ...`, `python -m coachloop hook ...` and the launcher
    `python [-S] -c "...coachloop.entry..." hook ...` (with or without `-S`: earlier
    installs wrote it without)."""
    if len(argv) >= 2 and os.path.basename(argv[0]) == "coachloop" and argv[1] == "hook":
        return True
    if len(argv) >= 2 and argv[1] == "-S":
        argv = [argv[0], *argv[2:]]
    python = len(argv) >= 4 and os.path.basename(argv[0]).startswith("python")
    if python and argv[1] == "-c" and "coachloop.entry" in argv[2] and argv[3] == "hook":
        return True
    return python and argv[1:4] == ["-m", "coachloop", "hook"]


def is_our_command(command: Any) -> bool:
    """True when a shell command string runs `coachloop hook`."""
    if not isinstance(command, str):
        return False
    try:
        argv = shlex.split(command)
    except ValueError:
        return False
    return is_our_argv(argv)


def is_our_url(url: Any) -> bool:
    """True for our HTTP hook endpoints (`.../hooks/claude-code` and the like)."""
    return isinstance(url, str) and _OUR_URL.search(url) is not None


def is_our_handler(handler: Any) -> bool:
    """A hook handler (command or http) that coachloop installed."""
    if not isinstance(handler, dict):
        return False
    kind = handler.get("type", "command")
    if kind == "command":
        return is_our_command(handler.get("command"))
    if kind == "http":
        return is_our_url(handler.get("url"))
    return False


# --- reading and writing -----------------------------------------------------------------


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise SettingsError(f"duplicate key {key!r}")
        result[key] = value
    return result


def read_json_object(path: Path) -> tuple[dict[str, Any], bytes | None]:
    """The JSON object in `path` and the file's bytes (None when it does not exist)."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return {}, None
    except OSError as exc:
        raise SettingsError(f"{path}: cannot read: {exc.strerror or exc}") from exc
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise SettingsError(f"{path}: not UTF-8 text") from exc
    if not text.strip():
        return {}, raw
    try:
        data = json.loads(text, object_pairs_hook=_no_duplicates)
    except SettingsError as exc:
        raise SettingsError(f"{path}: {exc}; fix the file first (nothing was changed)") from exc
    except json.JSONDecodeError as exc:
        raise SettingsError(
            f"{path}: not valid JSON ({exc.msg} at line {exc.lineno} column {exc.colno}); "
            "fix the file first (nothing was changed)"
        ) from exc
    if not isinstance(data, dict):
        raise SettingsError(
            f"{path}: the settings are a JSON {type(data).__name__}, not an object; "
            "fix the file first (nothing was changed)"
        )
    return data, raw


def dump_json(data: Mapping[str, Any]) -> str:
    """Settings as the agents write them: two-space indent, UTF-8, final newline."""
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def backup_path(path: Path) -> Path:
    return path.with_name(path.name + ".bak")


def write_text_atomic(
    path: Path, text: str, previous: bytes | None, *, backup: bool = False
) -> None:
    """Replace `path` with `text` atomically; with `backup`, keep `previous` as `.bak`
    the first time (a later backup never overwrites it)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    mode = 0o644
    if previous is not None:
        with contextlib.suppress(OSError):
            mode = path.stat().st_mode & 0o7777
        bak = backup_path(path)
        if backup and not bak.exists():
            _write(bak, previous, mode)
    _write(path, text.encode("utf-8"), mode)


def remove_emptied(path: Path, previous: bytes, *, backup: bool = False) -> None:
    """Remove `path`, which our removal left holding nothing (`{}`), and its folder when
    that is empty now (the agent's `.claude`/`.codex`/`.gemini` that install created);
    with `backup`, `previous` is kept as `.bak` first (the folder then stays)."""
    if backup and not backup_path(path).exists():
        _write(backup_path(path), previous, 0o644)
    path.unlink(missing_ok=True)
    with contextlib.suppress(OSError):  # not empty, or not ours to remove
        path.parent.rmdir()


def _write(path: Path, data: bytes, mode: int) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


# --- the shared hooks layout -------------------------------------------------------------


def _hooks_table(settings: Mapping[str, Any], path: Path) -> dict[str, Any] | None:
    table = settings.get("hooks")
    if table is None:
        return None
    if not isinstance(table, dict):
        raise SettingsError(f'{path}: "hooks" is not an object; fix the file first')
    return table


def _group_handlers(group: Any) -> list[Any] | None:
    if isinstance(group, dict) and isinstance(group.get("hooks"), list):
        return group["hooks"]  # type: ignore[no-any-return]
    return None


def find_ours(settings: Mapping[str, Any], is_ours: IsOurs) -> dict[str, list[Handler]]:
    """Our handlers per event, in file order (events without ours are left out)."""
    table = settings.get("hooks")
    found: dict[str, list[Handler]] = {}
    if not isinstance(table, dict):
        return found
    for event, groups in table.items():
        if not isinstance(groups, list):
            continue
        for group in groups:
            for handler in _group_handlers(group) or []:
                if is_ours(handler):
                    found.setdefault(event, []).append(handler)
    return found


def remove_hooks(
    settings: Mapping[str, Any],
    is_ours: IsOurs,
    path: Path,
    keep: Mapping[str, Handler] | None = None,
) -> dict[str, Any]:
    """A copy of `settings` without our handlers, except the first handler per event
    equal to `keep[event]`. Matcher groups, event lists and the `hooks` table that
    become empty through the removal are removed too; pre-existing empty ones stay."""
    keep = keep or {}
    result = copy.deepcopy(dict(settings))
    table = _hooks_table(result, path)
    if table is None:
        return result
    for event in list(table):
        groups = table[event]
        if not isinstance(groups, list):
            continue
        kept_one = False
        new_groups: list[Any] = []
        for group in groups:
            handlers = _group_handlers(group)
            if handlers is None:
                new_groups.append(group)
                continue
            remaining = []
            for handler in handlers:
                if not is_ours(handler):
                    remaining.append(handler)
                elif not kept_one and keep.get(event) == handler:
                    remaining.append(handler)
                    kept_one = True
            if remaining or not handlers:
                group["hooks"] = remaining
                new_groups.append(group)
        if new_groups or not groups:
            table[event] = new_groups
        else:
            del table[event]
    if not table and settings.get("hooks"):
        del result["hooks"]
    return result


def merge_hooks(
    settings: Mapping[str, Any], desired: Mapping[str, Handler], is_ours: IsOurs, path: Path
) -> dict[str, Any]:
    """A copy of `settings` where each event of `desired` has exactly our one handler
    `desired[event]` (added in a new matcher group at the end of the event's list when
    missing) and no other event has ours. An exact existing copy stays where it is,
    so merging twice changes nothing."""
    _hooks_table(settings, path)  # refuse a malformed table before anything else
    for event in desired:
        groups = (settings.get("hooks") or {}).get(event)
        if groups is not None and not isinstance(groups, list):
            raise SettingsError(f'{path}: "hooks.{event}" is not a list; fix the file first')
    result = remove_hooks(settings, is_ours, path, keep=desired)
    present = find_ours(result, is_ours)
    for event, handler in desired.items():
        if handler in present.get(event, []):
            continue
        table = result.setdefault("hooks", {})
        table.setdefault(event, []).append({"hooks": [copy.deepcopy(handler)]})
    return result
