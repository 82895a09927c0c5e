"""Codex CLI's legacy `notify` program: a top-level key of `config.toml`.

    notify = ["coachloop", "hook", "codex-notify"]

Codex runs that program after each agent turn with the event JSON as the last
argument. We edit the file as text so the user's comments, order and formatting stay
exactly as they were: `set_notify` inserts one line (and one marker comment) after the
leading comment block, where a top-level key is always valid; `remove_notify` deletes
those lines again. Every edit is checked by parsing the result with `tomllib`: the
new document must equal the old one plus (or minus) `notify`, else `SettingsError`.
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from coachloop.install.common import SettingsError

MARKER = "# coachloop: judges each Codex turn (remove with: coachloop uninstall --agent codex)"
_NOTIFY_LINE = re.compile(r"^\s*notify\s*=")


def read_toml(path: Path) -> tuple[dict[str, Any], str | None]:
    """The parsed document and its text (None when the file does not exist)."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}, None
    except (OSError, UnicodeDecodeError) as exc:
        raise SettingsError(f"{path}: cannot read: {exc}") from exc
    try:
        return tomllib.loads(text), text
    except tomllib.TOMLDecodeError as exc:
        raise SettingsError(
            f"{path}: not valid TOML ({exc}); fix the file first (nothing was changed)"
        ) from exc


def notify_line(argv: list[str]) -> str:
    """`notify = [...]` with TOML basic strings (JSON string escapes are valid TOML)."""
    return "notify = [" + ", ".join(json.dumps(part) for part in argv) + "]"


def set_notify(text: str, argv: list[str], path: Path) -> str:
    """`text` with `notify = argv` added; the caller checked there is no `notify` yet."""
    lines = text.splitlines(keepends=True)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n"
    at = 0
    while at < len(lines) and (not lines[at].strip() or lines[at].lstrip().startswith("#")):
        at += 1
    # Keep the leading comment block (a file header) on top; separate it by a blank line.
    block = [MARKER + "\n", notify_line(argv) + "\n"]
    if at < len(lines):
        block.append("\n")
    new = "".join(lines[:at] + block + lines[at:])
    _check(text, new, path, expect_notify=argv)
    return new


def remove_notify(text: str, is_ours: Callable[[Any], bool], path: Path) -> str | None:
    """`text` without a top-level `notify` that `is_ours` accepts (and our marker line
    above it); None when there is none to remove."""
    lines = text.splitlines(keepends=True)
    for start, line in enumerate(lines):
        if not _NOTIFY_LINE.match(line):
            continue
        for end in range(start + 1, len(lines) + 1):
            try:
                value = tomllib.loads("".join(lines[start:end]))
            except tomllib.TOMLDecodeError:
                continue
            if set(value) != {"notify"} or not is_ours(value["notify"]):
                break
            first = start - 1 if start > 0 and lines[start - 1].strip() == MARKER else start
            last = end
            if first < start and last < len(lines) and not lines[last].strip():
                last += 1  # the blank line set_notify added after the block
            new = "".join(lines[:first] + lines[last:])
            try:
                _check(text, new, path, expect_notify=None)
            except SettingsError:
                break  # not the top-level key (inside a table): keep looking
            return new
    return None


def _check(old: str, new: str, path: Path, expect_notify: list[str] | None) -> None:
    before = tomllib.loads(old)
    try:
        after = tomllib.loads(new)
    except tomllib.TOMLDecodeError as exc:
        raise SettingsError(f"{path}: could not edit notify safely ({exc})") from exc
    expected = dict(before)
    if expect_notify is None:
        expected.pop("notify", None)
    else:
        expected["notify"] = expect_notify
    if after != expected:
        raise SettingsError(f"{path}: could not edit notify safely; edit it by hand")
