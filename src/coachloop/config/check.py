"""The allowed values of each setting, checked when the configuration is read.

`check(key, value, source)` raises `ConfigError` for a value that parses but cannot be
used, with one line that names the file (or environment variable), the key, the value,
the allowed range and the fix. `load_settings` calls it for every value it takes, so a
bad value is found where it is read: `doctor` reports it, a hook fails open and says
so on stderr, a command exits with that line. `ALLOWED` is the documented table (the
README's configuration section lists the same ranges). Standard library only: this
module is on the hook path.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

__all__ = ["ALLOWED", "Rule", "check"]

# Claude Code ends a turn itself after 8 consecutive blocks: a cap at or above it would
# never be reached (the supervisor's Policy refuses it too).
MAX_CONTINUES = 7
JUDGES = ("rules", "anthropic", "openai")


@dataclass(frozen=True, slots=True)
class Rule:
    """What a setting accepts: `allowed` in words, `ok(value)` the test, `default`."""

    allowed: str
    ok: Callable[[Any], bool]
    default: str


def _judge(value: Any) -> bool:
    return isinstance(value, str) and value.partition(":")[0].strip().lower() in JUDGES


ALLOWED: dict[str, Rule] = {
    "judge": Rule(
        "rules, anthropic[:MODEL] or openai[:MODEL]", _judge, '"rules" (offline, no key)'
    ),
    "confidence_threshold": Rule("a number from 0 to 1", lambda v: 0.0 <= v <= 1.0, "0.8"),
    "llm_timeout": Rule("seconds, more than 0 and at most 600", lambda v: 0 < v <= 600, "20"),
    "max_text_chars": Rule(
        "an integer from 1000 to 1000000", lambda v: 1000 <= v <= 1_000_000, "12000"
    ),
    "max_auto_continues": Rule(
        f"an integer from 0 to {MAX_CONTINUES} (Claude Code stops honouring a hook's "
        "blocks after 8 in a row)",
        lambda v: 0 <= v <= MAX_CONTINUES,
        "3",
    ),
}


def check(key: str, value: Any, source: str) -> None:
    """Raise `ConfigError` when `value` of `key` (read from `source`) is not allowed.

    Keys without a rule pass. `source` is a file path or an environment variable name.
    """
    rule = ALLOWED.get(key)
    if rule is None or rule.ok(value):
        return
    from coachloop.config import ConfigError

    raise ConfigError(describe(key, value, source))


_KINDS = {"int": "an integer", "float": "a number", "str": "a string"}


def describe(key: str, value: Any, source: str, kind: str = "") -> str:
    """The one-line message for a bad `value` of `key` in `source` (`kind`: the Python
    type name it must have, when that is what is wrong)."""
    rule = ALLOWED.get(key)
    allowed = rule.allowed if rule else _KINDS.get(kind, kind or "see the README")
    default = f" (the default is {rule.default})" if rule else ""
    where = f"set {source}" if source.startswith("COACHLOOP_") else f"edit {source}"
    return (
        f"{source}: {key} = {value!r} is not allowed: {allowed}; fix: {where} to an "
        f"allowed value, or remove it{default}"
    )
