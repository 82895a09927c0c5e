"""An outbox entry as the Telegram messages that carry it.

`render(entry, label, max_parts)` returns JSON-ready parts, sent in order:
- `{"type": "text", "html": ...}`: one message (HTML, under the limit);
- `{"type": "document", "filename", "content", "caption"}`: the whole text as a file,
  with the header and the opening lines as the caption; used when the text would take
  more than `max_parts` messages.

Every entry starts with a header naming the project (when known) and the session's short
id, so the human sees which session speaks; the same short id works in `/status`.
"""

from __future__ import annotations

from typing import Any

from coachloop.chat.split import TELEGRAM_LIMIT, escape, split_html
from coachloop.store import OutboxEntry

CAPTION_LIMIT = 1024
_ICONS = {"deliver": "🤖", "notice": "ℹ️", "alert": "⚠️"}


def short_id(session_id: str) -> str:
    """The first 8 characters of a session id: enough to name it in a chat."""
    return session_id[:8]


def header(entry: OutboxEntry, label: str = "") -> str:
    """`🤖 <b>project</b> · <code>1a2b3c4d</code>` (the icon says deliver/notice/alert)."""
    icon = _ICONS.get(entry.kind, "•")
    name = f"<b>{escape(label)}</b> · " if label else ""
    return f"{icon} {name}<code>{escape(short_id(entry.session_id))}</code>"


def render(
    entry: OutboxEntry,
    label: str = "",
    *,
    max_parts: int = 4,
    limit: int = TELEGRAM_LIMIT,
) -> list[dict[str, Any]]:
    """The parts that deliver `entry` (see the module docstring); never empty."""
    head = header(entry, label)
    text = entry.text if entry.text.strip() else "(empty message)"
    parts = split_html(text, limit, head=head)
    if len(parts) <= max(1, max_parts):
        return [{"type": "text", "html": p} for p in parts]
    preview = split_html(text, CAPTION_LIMIT - 80, head=head)[0]
    caption = f"{preview}\n\n<i>… the full text ({len(text)} characters) is attached</i>"
    return [
        {
            "type": "document",
            "filename": f"coachloop-{short_id(entry.session_id)}-{entry.id}.md",
            "content": text,
            "caption": caption,
        }
    ]
