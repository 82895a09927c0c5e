"""Texts every layer shares: the `[coachloop]` note prefix and the one clip.

A long agent message ends with what matters most (a test summary, a commit, the
question), so a text over its limit keeps its head AND its tail, with a marker saying how
much was cut between them. Standard library only.
"""

from __future__ import annotations

NOTE = "[coachloop]"  # starts every text coachloop itself adds to a conversation or chat
CUT = "\n\n[... {n} characters cut by coachloop ...]\n\n"  # {n}: how many


def clip(text: str, limit: int, *, head: int | None = None, marker: str = CUT) -> str:
    """`text` kept to `limit` of its own characters: the first `head` (half the limit
    by default) and the last `limit - head`, joined by `marker` (`{n}` in it becomes the
    number of characters cut). Within the limit, or with a limit below 1, `text` is
    returned unchanged."""
    if limit < 1 or len(text) <= limit:
        return text
    first = limit // 2 if head is None else max(0, min(head, limit))
    last = limit - first
    tail = text[len(text) - last :] if last else ""
    return text[:first] + marker.format(n=len(text) - limit) + tail
