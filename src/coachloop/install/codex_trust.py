"""Will Codex CLI run coachloop's hooks? Its hook trust and project trust, read from disk.

Checked by running Codex CLI 0.169:
- Codex runs a hook handler only when the user's `config.toml` (`$CODEX_HOME`, default
  `~/.codex`) holds `[hooks.state."<key>"]` with `trusted_hash` equal to the handler's
  current hash and `enabled` not false; otherwise `codex exec` skips it without a word.
  The Codex TUI asks (`/hooks`); `codex exec --dangerously-bypass-hook-trust` runs
  untrusted hooks for one run. `key` is `<hooks.json path>:<event label>:<group
  index>:<handler index>` (label: the event in snake case, "stop"); the hash is
  "sha256:" and the hex SHA-256 of the compact, key-sorted JSON of `{"event_name":
  label, "hooks": [handler], "matcher": …}` (matcher only when the group has one), the
  handler normalised to `type`, `command`, `timeout` (600 when unset, at least 1),
  `async` and, when set, `statusMessage`. A hash written this way makes Codex run the
  hook (a test proves it against the real binary).
- A project's `.codex/` (its hooks.json and config.toml) is loaded only when the user's
  config marks the project trusted: `[projects."<dir>"] trust_level = "trusted"` (the
  project directory or its git root; a parent directory is not enough).
- `notify` is read only from the user's config.toml; in a project's config.toml Codex
  ignores it ("unsupported project-local config keys").
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

__all__ = ["event_label", "handler_hash", "project_trusted", "state_key", "trust_problems"]

_CONTEXT_LIMIT_EVENTS = frozenset(
    {"pre_tool_use", "post_tool_use", "session_start", "user_prompt_submit", "subagent_start"}
)
_DEFAULT_CONTEXT_LIMIT = 2500
TRUST_FIX = (
    "trust it in the Codex TUI (run codex in the project, open /hooks, trust coachloop's "
    "hooks), or run headless with `codex exec --dangerously-bypass-hook-trust`"
)


def event_label(event: str) -> str:
    """Codex's snake-case label of a hook event ("UserPromptSubmit" -> "user_prompt_submit")."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", event).lower()


def state_key(hooks_path: Path, event: str, group: int, handler: int) -> str:
    return f"{hooks_path}:{event_label(event)}:{group}:{handler}"


def handler_hash(event: str, handler: dict[str, Any], matcher: str | None = None) -> str:
    """The hash Codex compares with `trusted_hash` for one handler (see the docstring)."""
    label = event_label(event)
    timeout = handler.get("timeout")
    seconds = timeout if isinstance(timeout, int | float) and not isinstance(timeout, bool) else 600
    if label == "session_end":
        seconds = min(3, max(1, seconds if isinstance(timeout, int | float) else 1))
    normal: dict[str, Any] = {
        "type": "command",
        "command": handler.get("command"),
        "timeout": max(1, seconds),
        "async": bool(handler.get("async")),
    }
    if handler.get("statusMessage"):
        normal["statusMessage"] = handler["statusMessage"]
    limit = handler.get("additionalContextLimit")
    if (
        label in _CONTEXT_LIMIT_EVENTS
        and isinstance(limit, int)
        and limit != _DEFAULT_CONTEXT_LIMIT
    ):
        normal["additionalContextLimit"] = limit
    identity: dict[str, Any] = {"event_name": label, "hooks": [normal]}
    if matcher is not None:
        identity["matcher"] = matcher
    text = json.dumps(identity, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def _positions(
    hooks: dict[str, Any], is_ours: Any
) -> list[tuple[str, int, int, dict[str, Any], str | None]]:
    """(event, group index, handler index, handler, matcher) of each of our handlers."""
    table = hooks.get("hooks")
    found = []
    for event, groups in table.items() if isinstance(table, dict) else ():
        for g, group in enumerate(groups if isinstance(groups, list) else ()):
            handlers = group.get("hooks") if isinstance(group, dict) else None
            matcher = group.get("matcher") if isinstance(group, dict) else None
            for h, handler in enumerate(handlers if isinstance(handlers, list) else ()):
                if is_ours(handler):
                    found.append(
                        (event, g, h, handler, matcher if isinstance(matcher, str) else None)
                    )
    return found


def trust_problems(
    hooks_path: Path, hooks: dict[str, Any], user_config: dict[str, Any], is_ours: Any
) -> list[str]:
    """Why Codex would skip our handlers in `hooks` (read from `hooks_path`), given the
    user's parsed config.toml, one line per reason; [] when Codex runs them all."""
    table = user_config.get("hooks")
    states = table.get("state") if isinstance(table, dict) else None
    states = states if isinstance(states, dict) else {}
    # reason -> (the events it applies to); a reason reads "it is …" / "they are …"
    reasons: dict[tuple[str, str], list[str]] = {}
    for event, g, h, handler, matcher in _positions(hooks, is_ours):
        state = states.get(state_key(hooks_path, event, g, h))
        state = state if isinstance(state, dict) else {}
        if state.get("enabled") is False:
            why = ("is", "disabled in Codex; fix: enable it again under /hooks in the Codex TUI")
        elif "trusted_hash" not in state:
            why = ("is", f"not trusted yet; fix: {TRUST_FIX}")
        elif state["trusted_hash"] != handler_hash(event, handler, matcher):
            why = ("has", f"changed since it was trusted; fix: {TRUST_FIX}")
        else:
            continue
        reasons.setdefault(why, []).append(event)
    lines = []
    for (verb, reason), events in reasons.items():
        many = len(events) > 1
        subject = f"they {'are' if verb == 'is' else 'have'}" if many else f"it {verb}"
        lines.append(
            f"Codex will not run the {' and '.join(events)} hook{'s' if many else ''}: "
            f"{subject} {reason}"
        )
    return lines


def _git_root(project: Path) -> Path | None:
    for folder in (project, *project.parents):
        if (folder / ".git").exists():
            return folder
    return None


def project_trusted(project: Path, user_config: dict[str, Any]) -> bool:
    """True when the user's config marks `project` (or its git root) trusted."""
    table = user_config.get("projects")
    if not isinstance(table, dict):
        return False
    for folder in (project, _git_root(project)):
        entry = table.get(str(folder)) if folder is not None else None
        if isinstance(entry, dict) and entry.get("trust_level") == "trusted":
            return True
    return False
