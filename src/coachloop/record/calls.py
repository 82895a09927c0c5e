"""A tool call as the readers find it (`RawCall`), and what kind of call it is.

Each agent names its tools its own way; `TOOLS` maps the names of Claude Code, Codex
and Gemini CLI to a kind ("command", "edit", "read") and says where the command line
or the paths sit in the call's input. `to_call` makes the record's `ToolCall`: paths
relative to the working directory, output clipped to its head and tail (a runner's
summary ends its output), and, for commands, the files a shell command wrote
(`sed -i`, `> file`, `tee file`, `mv`/`cp` onto a file).
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from coachloop.core.record import CallKind, ToolCall
from coachloop.core.text import clip

__all__ = ["MAX_OUTPUT", "TOOLS", "RawCall", "to_call"]

MAX_OUTPUT = 16_000  # characters of one call's output kept
_HEAD = 4_000

# tool name -> (kind, input keys holding the command or the path(s))
TOOLS: dict[str, tuple[CallKind, tuple[str, ...]]] = {
    # Claude Code
    "Bash": ("command", ("command",)),
    "Edit": ("edit", ("file_path",)),
    "MultiEdit": ("edit", ("file_path",)),
    "Write": ("edit", ("file_path",)),
    "NotebookEdit": ("edit", ("notebook_path",)),
    "Read": ("read", ("file_path",)),
    # a background command's output, read later (a test summary may first appear here)
    "BashOutput": ("command", ("bash_id", "shell_id")),
    # Codex CLI
    "shell": ("command", ("command", "cmd")),
    "local_shell": ("command", ("command", "cmd")),
    "exec_command": ("command", ("cmd", "command")),
    "container.exec": ("command", ("command", "cmd")),
    "apply_patch": ("edit", ("input", "patch")),
    # Gemini CLI
    "run_shell_command": ("command", ("command",)),
    "replace": ("edit", ("file_path", "absolute_path")),
    "write_file": ("edit", ("file_path", "absolute_path")),
    "read_file": ("read", ("absolute_path", "file_path")),
}

_REDIRECT = re.compile(r"(?<![0-9&<>])>{1,2}\s*([^\s;&|<>()'\"]+)")
_SEGMENTS = re.compile(r"&&|\|\||[;|\n]")
_FILE = re.compile(r"[\w./~-]*\w\.[A-Za-z0-9]{1,8}")
_SCRATCH = re.compile(r"^(?:/dev/|/tmp/|/proc/)|\.(?:log|out|tmp|txt|lock)$")
_PATCH_FILE = re.compile(r"^\*\*\* (?:Update|Add|Delete) File: (.+)$", re.M)


@dataclass
class RawCall:
    """One tool call and, once it came back, its result."""

    tool: str
    input: Mapping[str, Any] = field(default_factory=dict)
    output: str = ""
    error: bool = False
    denied: bool = False
    exit_code: int | None = None
    done: bool = False


def _value(data: Mapping[str, Any], keys: tuple[str, ...]) -> str:
    for key in keys:
        value = data.get(key)
        if isinstance(value, str) and value:
            return value
        if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
            words = list(value)
            if len(words) >= 3 and words[0] in ("bash", "sh", "zsh") and words[1] in ("-lc", "-c"):
                return str(words[2])
            return " ".join(words)
    return ""


def relative(path: str, cwd: str | None) -> str:
    """`path` relative to `cwd` when it lies inside it, else as it is."""
    if cwd and os.path.isabs(path):
        rel = os.path.relpath(path, cwd)
        if not rel.startswith(".."):
            return rel
    return path.removeprefix("./")


def written_paths(command: str) -> list[str]:
    """Files a shell command line writes (best effort; scratch files left out)."""
    found = [m.group(1) for m in _REDIRECT.finditer(command)]
    for segment in _SEGMENTS.split(command):
        words = segment.split()
        if not words:
            continue
        head = os.path.basename(words[0])
        if head in ("sed", "perl") and any(w.startswith(("-i", "-pi")) for w in words[1:]):
            found += [w for w in words[1:] if _FILE.fullmatch(w)]
        elif head == "tee":
            found += [w for w in words[1:] if not w.startswith("-")]
        elif head in ("mv", "cp") and len(words) >= 3 and _FILE.fullmatch(words[-1]):
            found.append(words[-1])
    return [p for p in dict.fromkeys(found) if not _SCRATCH.search(p)]


def _background(raw: RawCall) -> bool:
    """A command started in the background: its result is not its exit status."""
    return raw.input.get("run_in_background") is True and not raw.error


def _clip(text: str) -> str:
    return clip(text, MAX_OUTPUT, head=_HEAD)


def to_call(raw: RawCall, cwd: str | None = None) -> ToolCall:
    """The record's `ToolCall` for `raw` (see the module docstring)."""
    kind, keys = TOOLS.get(raw.tool, ("other", ()))
    value = _value(raw.input, keys) if keys else ""
    paths: tuple[str, ...] = ()
    target = raw.tool
    if kind == "command":
        target = value or raw.tool
        paths = tuple(relative(p, cwd) for p in written_paths(value)) if not raw.denied else ()
    elif kind == "edit" and raw.tool == "apply_patch":
        paths = tuple(relative(p.strip(), cwd) for p in _PATCH_FILE.findall(value))
        target = ", ".join(paths) or raw.tool
    elif kind in ("edit", "read") and value:
        paths = (relative(value, cwd),)
        target = paths[0]
    return ToolCall(
        tool=raw.tool,
        kind=kind,
        target=target[:2_000],
        paths=paths,
        output=_clip(raw.output),
        exit_code=None if kind != "command" or _background(raw) else raw.exit_code,
        error=raw.error,
        denied=raw.denied,
    )
