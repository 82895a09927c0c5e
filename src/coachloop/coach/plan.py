"""Reading a plan document's success criteria, only when they parse with certainty."""

from __future__ import annotations

import re
from pathlib import Path

_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?(\S.*)$")
_MAX_PLAN_BYTES = 512 * 1024
_TITLES = ("success criteria", "acceptance criteria", "definition of done")


def success_criteria(text: str) -> list[str] | None:
    """The items of the plan's "Success Criteria" section, or None when uncertain.

    Certain means: exactly one such heading, and its body (up to the next heading of
    the same or a higher level) is a non-empty list with nothing else but blank lines.
    """
    lines = text.splitlines()
    starts = [
        (i, len(m.group(1)))
        for i, line in enumerate(lines)
        if (m := _HEADING.match(line)) and m.group(2).strip().lower().rstrip(":") in _TITLES
    ]
    if len(starts) != 1:
        return None
    start, level = starts[0]
    items: list[str] = []
    for line in lines[start + 1 :]:
        heading = _HEADING.match(line)
        if heading and len(heading.group(1)) <= level:
            break
        if not line.strip():
            continue
        item = _ITEM.match(line)
        if item is None:
            return None
        items.append(item.group(1).strip())
    return items or None


def read_criteria(path: str | Path) -> list[str] | None:
    """Success criteria of the plan at `path`; None when missing, unreadable or uncertain."""
    try:
        plan = Path(path)
        if plan.stat().st_size > _MAX_PLAN_BYTES:
            return None
        return success_criteria(plan.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return None
