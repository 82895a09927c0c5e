"""Wire details of the Bot API for the local test server: request bodies, Telegram's
HTML rules, and the JSON objects it answers with.

Request bodies come as `application/x-www-form-urlencoded` (python-telegram-bot without
files: every value a string, non-strings JSON-encoded), `multipart/form-data` (with
files) or `application/json`. `parse_body` turns all three into string parameters plus
uploaded files.

`check_html` applies Telegram's HTML parse mode the way the real server does for what
matters here: only its tags, balanced; only `&lt; &gt; &amp; &quot;` and numeric
entities; a bare `<` or `&` is an error. It returns the visible text, whose length is
what the 4096-character limit counts.
"""

from __future__ import annotations

import html
import json
import re
import time
from dataclasses import dataclass
from email.parser import BytesParser
from email.policy import HTTP
from typing import Any
from urllib.parse import parse_qs

TAGS = frozenset(
    [
        "b",
        "strong",
        "i",
        "em",
        "u",
        "ins",
        "s",
        "strike",
        "del",
        "span",
        "tg-spoiler",
        "a",
        "tg-emoji",
        "code",
        "pre",
        "blockquote",
    ]
)
_TOKEN = re.compile(
    r"<(/?)([a-zA-Z][a-zA-Z0-9-]*)((?:\s[^<>]*)?)>|&(#\d+|#x[0-9a-fA-F]+|[a-zA-Z]+);|[<&]"
)
_NAMED = {"lt": "<", "gt": ">", "amp": "&", "quot": '"'}


@dataclass(frozen=True, slots=True)
class UploadedFile:
    """A file part of a multipart request."""

    filename: str
    content: bytes
    content_type: str


def parse_body(
    content_type: str, body: bytes, query: str = ""
) -> tuple[dict[str, str], dict[str, UploadedFile]]:
    """String parameters and files of a Bot API request (query string included)."""
    params = {k: v[-1] for k, v in parse_qs(query, keep_blank_values=True).items()}
    files: dict[str, UploadedFile] = {}
    kind = content_type.split(";", maxsplit=1)[0].strip().lower()
    if kind == "application/json" and body:
        data = json.loads(body.decode("utf-8"))
        if isinstance(data, dict):
            params.update({k: v if isinstance(v, str) else json.dumps(v) for k, v in data.items()})
    elif kind == "application/x-www-form-urlencoded":
        form = parse_qs(body.decode("utf-8"), keep_blank_values=True)
        params.update({k: v[-1] for k, v in form.items()})
    elif kind == "multipart/form-data":
        head = f"Content-Type: {content_type}\r\nMIME-Version: 1.0\r\n\r\n".encode()
        message = BytesParser(policy=HTTP).parsebytes(head + body)
        for part in message.iter_parts():
            name = part.get_param("name", header="content-disposition")
            if not isinstance(name, str):
                continue
            payload = part.get_payload(decode=True)
            content = payload if isinstance(payload, bytes) else b""
            filename = part.get_filename()
            if filename is not None:
                files[name] = UploadedFile(filename, content, part.get_content_type())
            else:
                params[name] = content.decode(part.get_content_charset() or "utf-8")
    return params, files


def _bad(detail: str) -> tuple[str, str]:
    return "", f"Bad Request: can't parse entities: {detail}"


def check_html(text: str) -> tuple[str, str | None]:
    """(visible text, None) for valid Telegram HTML, else ("", the 400 description)."""
    stack: list[str] = []
    out: list[str] = []
    pos = 0
    for m in _TOKEN.finditer(text):
        out.append(text[pos : m.start()])
        pos = m.end()
        where = f"at byte offset {len(text[: m.start()].encode('utf-8'))}"
        if m.group(2):
            name = m.group(2).lower()
            if name not in TAGS:
                return _bad(f'unsupported start tag "{name}" {where}')
            if not m.group(1):
                stack.append(name)
            elif not stack or stack[-1] != name:
                return _bad(f'unexpected end tag "{name}" {where}')
            else:
                stack.pop()
        elif m.group(4):
            ent = m.group(4)
            if ent.startswith("#"):
                out.append(html.unescape(f"&{ent};"))
            elif ent in _NAMED:
                out.append(_NAMED[ent])
            else:
                return _bad(f'unsupported HTML entity "&{ent};" {where}')
        else:
            return _bad(f"unexpected character {m.group(0)!r} {where}")
    if stack:
        return _bad(f'can\'t find end tag corresponding to start tag "{stack[-1]}"')
    out.append(text[pos:])
    return "".join(out), None


def visible_length(text: str) -> int:
    """Telegram's count: UTF-16 code units of the visible text."""
    return len(text.encode("utf-16-le")) // 2


def user_json(
    user_id: int, first_name: str, *, is_bot: bool = False, username: str = ""
) -> dict[str, Any]:
    out: dict[str, Any] = {"id": user_id, "is_bot": is_bot, "first_name": first_name}
    if username:
        out["username"] = username
    return out


def chat_json(chat_id: int, title: str = "") -> dict[str, Any]:
    """A private chat for positive ids, a supergroup for negative ones."""
    if chat_id > 0:
        return {"id": chat_id, "type": "private", "first_name": title or "Tester"}
    return {"id": chat_id, "type": "supergroup", "title": title or "Team"}


def command_entities(text: str) -> list[dict[str, Any]]:
    """The bot_command entity Telegram attaches to a message starting with "/"."""
    if not text.startswith("/"):
        return []
    word = text.split(maxsplit=1)[0] if text.split() else text
    return [{"type": "bot_command", "offset": 0, "length": visible_length(word)}]


def message_json(
    message_id: int,
    chat: dict[str, Any],
    sender: dict[str, Any],
    **fields: Any,
) -> dict[str, Any]:
    """A Message object; `fields` adds text, caption, document, reply_to_message, ..."""
    out: dict[str, Any] = {
        "message_id": message_id,
        "date": int(time.time()),
        "chat": chat,
        "from": sender,
    }
    out.update({k: v for k, v in fields.items() if v is not None})
    return out


def error_json(status: int, description: str, retry_after: int | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"ok": False, "error_code": status, "description": description}
    if retry_after is not None:
        out["parameters"] = {"retry_after": retry_after}
    return out
