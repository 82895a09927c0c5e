"""Agent text to Telegram HTML, in parts that each fit one message.

Telegram takes at most 4096 characters per message (counted after entity parsing) and
rejects unbalanced markup with 400, so the text is sent as HTML with every `<`, `>` and
`&` escaped. Fenced code blocks (```lang ... ```) become `<pre><code>`; inline `code`
becomes `<code>`; nothing else is interpreted.

`split_html(text, limit)` returns parts whose HTML length (an upper bound of what Telegram
counts) is at most `limit`, each a balanced HTML fragment. It cuts at paragraph
boundaries, then line, then word boundaries, and only as a last resort inside a word.
A code block is never cut open: when it does not fit, it is closed at a line boundary and
reopened (same language) in the next part.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from dataclasses import dataclass

TELEGRAM_LIMIT = 4096
_FENCE = re.compile(r"^ {0,3}```")
_LANG = re.compile(r"[A-Za-z0-9_+#.\-]{1,32}")
_INLINE = re.compile(r"`([^`\n]+)`")
_PARAGRAPH = re.compile(r"\n[ \t]*\n")
_LEVELS = ("\n", " ")  # separators tried in order inside a paragraph


def escape(text: str) -> str:
    """`text` safe inside Telegram HTML: `&`, `<` and `>` escaped (quotes need not be)."""
    return html.escape(text, quote=False)


def inline(text: str) -> str:
    """Escaped prose with `code` spans as <code>; a lone backtick stays literal."""
    out: list[str] = []
    pos = 0
    for m in _INLINE.finditer(text):
        out.append(escape(text[pos : m.start()]))
        out.append(f"<code>{escape(m.group(1))}</code>")
        pos = m.end()
    out.append(escape(text[pos:]))
    return "".join(out)


@dataclass(frozen=True, slots=True)
class Block:
    """A run of prose, or one fenced code block (`lang` may be empty)."""

    kind: str  # "prose" | "code"
    text: str
    lang: str = ""


def blocks(text: str) -> list[Block]:
    """The prose and fenced code blocks of `text`, in order. An unclosed fence runs to
    the end of the text (as in Markdown)."""
    out: list[Block] = []
    prose: list[str] = []
    code: list[str] | None = None
    lang = ""
    for line in text.split("\n"):
        if code is None:
            if _FENCE.match(line):
                if prose:
                    out.append(Block("prose", "\n".join(prose)))
                    prose = []
                m = _LANG.fullmatch(line.strip()[3:].strip())
                lang = m.group(0) if m else ""
                code = []
            else:
                prose.append(line)
        elif _FENCE.match(line) and not line.strip()[3:].strip():
            out.append(Block("code", "\n".join(code), lang))
            code = None
        else:
            code.append(line)
    if code is not None:
        out.append(Block("code", "\n".join(code), lang))
    if prose:
        out.append(Block("prose", "\n".join(prose)))
    return out


def _pre(lang: str) -> tuple[str, str]:
    if lang:
        return f'<pre><code class="language-{lang}">', "</code></pre>"
    return "<pre>", "</pre>"


def _hard(text: str, limit: int) -> list[str]:
    """`text` cut into raw chunks whose escaped length is at most `limit`."""
    chunks: list[str] = []
    cur: list[str] = []
    size = 0
    for ch in text:
        n = len(escape(ch))
        if cur and size + n > limit:
            chunks.append("".join(cur))
            cur, size = [], 0
        cur.append(ch)
        size += n
    if cur:
        chunks.append("".join(cur))
    return chunks


Atom = tuple[str, str]  # (separator before it, rendered HTML)


def _prose_atoms(text: str, limit: int, sep: str, level: int = 0) -> Iterator[Atom]:
    rendered = inline(text)
    if len(rendered) <= limit:
        yield sep, rendered
        return
    if level == len(_LEVELS):
        for i, chunk in enumerate(_hard(text, limit)):
            yield (sep if i == 0 else ""), escape(chunk)
        return
    joiner = _LEVELS[level]
    for i, piece in enumerate(text.split(joiner)):
        yield from _prose_atoms(piece, limit, sep if i == 0 else joiner, level + 1)


def _code_atoms(block: Block, limit: int, sep: str) -> Iterator[Atom]:
    opening, closing = _pre(block.lang)
    room = limit - len(opening) - len(closing)
    if room < 1:
        raise ValueError(f"limit {limit} is too small for a code block")
    body = escape(block.text)
    if len(body) <= room:
        yield sep, f"{opening}{body}{closing}"
        return
    lines: list[str] = []
    for line in block.text.split("\n"):
        lines.extend(escape(c) for c in (_hard(line, room) or [""]))
    chunk: list[str] = []
    size = 0
    first = True
    for line in lines:
        extra = len(line) + (1 if chunk else 0)
        if chunk and size + extra > room:
            yield (sep if first else "\n"), opening + "\n".join(chunk) + closing
            first, chunk, size = False, [], 0
            extra = len(line)
        chunk.append(line)
        size += extra
    if chunk:
        yield (sep if first else "\n"), opening + "\n".join(chunk) + closing


def split_html(text: str, limit: int = TELEGRAM_LIMIT, *, head: str = "") -> list[str]:
    """`text` as Telegram HTML parts, each at most `limit` characters long.

    `head` is HTML put first (e.g. a header line); it must itself fit in `limit`, and
    the body is cut for `limit` minus the head, so the head never stands alone.
    Parts are stripped of surrounding whitespace; empty ones are dropped, so blank text
    gives `[]` (or `[head]`).
    """
    if len(head) > limit:
        raise ValueError("head is longer than the limit")
    atoms: list[Atom] = [("", head)] if head else []
    room = limit - len(head) - 2 if head else limit
    for block in blocks(text):
        if block.kind == "code":
            atoms.extend(_code_atoms(block, room, "\n\n"))
            continue
        for par in _PARAGRAPH.split(block.text):
            if par.strip():
                atoms.extend(_prose_atoms(par.strip("\n"), room, "\n\n"))
    parts: list[str] = []
    cur = ""
    for sep, rendered in atoms:
        if not cur:
            cur = rendered
        elif len(cur) + len(sep) + len(rendered) <= limit:
            cur += sep + rendered
        else:
            parts.append(cur)
            cur = rendered
    parts.append(cur)
    return [p.strip() for p in parts if p.strip()]


def to_plain(part: str) -> str:
    """An HTML part back to plain text (tags dropped, entities decoded): the fallback
    when Telegram refuses the markup."""
    return html.unescape(re.sub(r"<[^>]+>", "", part))
