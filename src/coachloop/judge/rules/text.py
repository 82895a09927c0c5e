"""Splitting an agent's message into what it said in its own words and what it showed.

Hedges and questions count only in the agent's own prose: not inside code blocks,
inline code, block quotes or quoted strings. Evidence is read from everything.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from coachloop._lazy import lazy
from coachloop.core.text import clip as clip_text
from coachloop.judge.rules.marks import fence_spans
from coachloop.scan.index import is_word
from coachloop.scan.lazy import LazyPattern

# Past this many characters only the head and the tail are read: a final message's
# meaning sits in its opening and its ending, and this keeps every judgement bounded.
MAX_CHARS = 20_000
_KEEP_HEAD = 8_000

_INLINE_CODE = LazyPattern(r"`[^`\n]*`")
_BLOCKQUOTE = LazyPattern(r"^[ \t]*>.*$", re.M)
_QUOTED = LazyPattern(r"\"[^\"\n]{1,200}\"|“[^”\n]{1,200}”|«[^»\n]{1,200}»|„[^“\n]{1,200}“")
_TAGS = LazyPattern(r"<(\w+)[^>]*>(.*?)</\1>", re.S)
# Tags whose content is the agent's own words to the human: Cline's and Roo Code's final
# answer (`<attempt_completion><result>...`) and question (`<ask_followup_question>
# <question>...`). Their content stays prose; other tags' (markup, tool calls) goes.
_SPOKEN_TAGS = frozenset(
    {"attempt_completion", "result", "ask_followup_question", "question", "follow_up"}
)


def _untagged(text: str) -> str:
    """`text` without tagged spans, but with the content of `_SPOKEN_TAGS` kept (read
    again when it holds a closing tag: a spoken tag holds others; content with none has
    no tagged span, and reading it again would try every opening tag to its end)."""

    def keep(m: re.Match[str]) -> str:
        if m.group(1) not in _SPOKEN_TAGS:
            return " "
        inner = m.group(2)
        return f" {_untagged(inner) if '</' in inner else inner} "

    return _TAGS.sub(keep, text)


# Whitespace after [.!?…], or newlines: written as `(?<=[.!?…])\s+|\n+` would match
# the same, but opening on `\s` lets `re` skip every other character at once.
_SENTENCE_END = LazyPattern(r"\s(?:(?<=[.!?…؟]\s)\s*|(?<=\n)\n*)")
# The same, and after a full-width stop, which Chinese and Japanese write with no space
# after it: read only on prose that holds one (a lookbehind is tried at every character).
_SENTENCE_END_CJK = LazyPattern(_SENTENCE_END.source + r"|(?<=[。！？])\s*")
_CJK_STOPS = ("。", "！", "？")
# A question ends on one of these: the full-width one (Chinese, Japanese) and the Arabic one
# (also Persian, Urdu) besides "?".
QUESTION_MARKS = ("?", "？", "؟")
_PARAGRAPH = LazyPattern(r"\n[ \t]*\n")
_QUOTE_OPENERS = ('"', "“", "«", "„")


def _replaced(text: str, spans: list[tuple[int, int]], by: str) -> str:
    """`text` with each span replaced by `by`: what `re.sub` makes of those matches."""
    if not spans:
        return text
    parts, last = [], 0
    for a, b in spans:
        parts += [text[last:a], by]
        last = b
    parts.append(text[last:])
    return "".join(parts)


def clip(text: str) -> str:
    """Head and tail of an over-long text, so that judging time stays bounded."""
    return clip_text(text, MAX_CHARS, head=_KEEP_HEAD, marker="\n\n")


@dataclass(frozen=True)
class Message:
    """A message with views computed once, on first use."""

    raw: str

    @lazy
    def text(self) -> str:
        return clip(self.raw.replace("\r\n", "\n")).strip()

    @lazy
    def fenced(self) -> bool:
        """The text may hold a fenced block (every fence opens with ``` or ~~~)."""
        return "```" in self.text or "~~~" in self.text

    @lazy
    def fences(self) -> list[tuple[int, int]]:
        """The spans of the fenced blocks (read once for both code and prose)."""
        return fence_spans(self.text) if self.fenced else []

    @lazy
    def ends_in_fence(self) -> bool:
        """The text ends inside a fenced block it left open (`ends_in_fence`)."""
        return ends_in_fence(self.text, self.fences)

    @lazy
    def code_blocks(self) -> list[str]:
        return [self.text[a:b] for a, b in self.fences]

    @lazy
    def prose(self) -> str:
        """The agent's own words: code, quotes and markup removed.

        Each removal runs only when the text holds the character its matches need: a
        pattern that cannot match leaves the text as it is."""
        out = _replaced(self.text, self.fences, "\n")
        if "✦" in out:  # Gemini CLI's mark before each reply it prints: not a word of it
            out = out.replace("✦ ", "")
        if "</" in out:
            out = _untagged(out)
        if ">" in out:
            out = _BLOCKQUOTE.sub("", out)
        if "`" in out:
            out = _INLINE_CODE.sub("CODE", out)
        if any(q in out for q in _QUOTE_OPENERS):
            out = _QUOTED.sub("QUOTE", out)
        return out

    @lazy
    def low_prose(self) -> str:
        """Lowercased prose, what the lexicon's patterns match against."""
        return self.prose.lower()

    @lazy
    def low_text(self) -> str:
        return self.text.lower()

    @lazy
    def sentences(self) -> list[str]:
        prose = self.prose
        cjk = not prose.isascii() and any(map(prose.__contains__, _CJK_STOPS))
        parts = (s.strip() for s in (_SENTENCE_END_CJK if cjk else _SENTENCE_END).split(prose))
        return [s for s in parts if s]

    @lazy
    def last_three(self) -> str:
        """The last three sentences, joined by spaces (where the ending is read)."""
        return " ".join(self.sentences[-3:])

    @lazy
    def low_last_three(self) -> str:
        return self.last_three.lower()

    @lazy
    def paragraphs(self) -> list[str]:
        parts = (p.strip() for p in _PARAGRAPH.split(self.prose))
        return [p for p in parts if p]

    @lazy
    def first_line(self) -> str:
        return self.text.split("\n", 1)[0].strip()

    @lazy
    def tail(self) -> str:
        """The last paragraph of prose (where a question to the human usually sits)."""
        return self.paragraphs[-1] if self.paragraphs else ""

    @lazy
    def words(self) -> int:
        return len(self.prose.split())


def open_code_span(text: str) -> bool:
    """`text` (which ends on a character other than a backtick) ends inside inline code
    its last line opened: cut off mid-token. Not inside a fenced block, where a backtick
    is code (a template string), nor after one left open."""
    if not is_word(text[-1]) or text.count("```") % 2:
        return False
    return text[text.rfind("\n") + 1 :].count("`") % 2 == 1


_ENDS_SENTENCE = (".", "?", "!", "。", "？", "！", "؟")


def ends_in_fence(text: str, fences: list[tuple[int, int]]) -> bool:
    """`text` ends inside the fenced block it opened last (`fences`: `marks.fence_spans`,
    whose last span runs to the text's end when that block was left open)."""
    return bool(fences) and fences[-1][1] >= len(text)


def cut_in_code(text: str, fences: list[tuple[int, int]]) -> bool:
    """`text` ends inside the fenced block it opened last (`fences`: `marks.fence_spans`),
    on code that leaves a bracket open, or a string on its last line: a reply cut off
    mid-program by an output limit. A block left open on complete code (a command the
    human is to run, whose closing fence was dropped) is not: nothing in it is cut; nor
    one whose last line ends a sentence (prose after a block whose fence was lost)."""
    if not ends_in_fence(text, fences):
        return False
    first, _, body = text[fences[-1][0] :].partition("\n")
    code = body.rstrip()
    last = code[code.rfind("\n") + 1 :].strip()
    if not code or last.startswith(first.strip()[:3]) or last.endswith(_ENDS_SENTENCE):
        return False  # nothing in it, closed by its last line, or ending on a sentence
    opened = sum(map(code.count, "([{")) - sum(map(code.count, ")]}"))
    return opened > 0 or last.count('"') % 2 == 1 or last.count("'") % 2 == 1


def last_word(text: str) -> str:
    """`re.split(r"\\W+", text)[-1]`: the word characters after the last other one."""
    i = len(text)
    while i and is_word(text[i - 1]):
        i -= 1
    return text[i:]
