"""The words of a text, computed once per text and shared by every scanner.

A scanner asks which of its anchor words occur in a text; the answer comes from two
sets: the text's words (maximal runs of `\\w`, exactly as `re` defines a word
character) and the first `HEAD` characters of each. The last few texts are cached, so
the many scanners that read one message pay for its words once.
"""

from __future__ import annotations

import re

__all__ = ["HEAD", "line_starts", "needs", "non_ascii", "occurrences", "words"]

HEAD, LONG_HEAD = 3, 6
_WORD = re.compile(r"\w+")
Words = tuple[frozenset[str], frozenset[str], frozenset[str]]
_CACHE: dict[str, Words] = {}
_LINES: dict[str, list[int]] = {}
_NON_ASCII = re.compile(r"[^\x00-\x7f]+")
_CHARS: dict[str, frozenset[str]] = {}
_CACHE_SIZE = 64


def words(text: str) -> Words:
    """(the words of `text`, their heads: the first `HEAD` and `LONG_HEAD` characters of
    the words that long, and both together)."""
    found = _CACHE.get(text)
    if found is None:
        tokens = frozenset(_WORD.findall(text))
        heads = {t[:HEAD] for t in tokens if len(t) >= HEAD}
        heads.update([t[:LONG_HEAD] for t in tokens if len(t) >= LONG_HEAD])
        found = (tokens, frozenset(heads), tokens.union(heads))
        if len(_CACHE) >= _CACHE_SIZE:
            _CACHE.clear()
        _CACHE[text] = found
    return found


def needs(literal: str, word_start: bool) -> tuple[frozenset[str], frozenset[str]]:
    """What a text's words must include for `literal` to occur in it: (whole words, heads).

    A run of word characters inside the literal is a whole word of the text when
    non-word characters (or, for the first run, a word start) bound it on both sides;
    a run that reaches the literal's end only begins a word, so only its heads count.
    """
    whole: set[str] = set()
    heads: set[str] = set()
    for m in _WORD.finditer(literal):
        start, end = m.span()
        if start == 0 and not word_start:
            continue  # may begin inside a longer word of the text
        if end < len(literal):
            whole.add(m.group())
        elif end - start >= HEAD:
            heads.add(literal[start : start + HEAD])
            if end - start >= LONG_HEAD:
                heads.add(literal[start : start + LONG_HEAD])
    return frozenset(whole), frozenset(heads)


def line_starts(text: str) -> list[int]:
    """The positions where a line of `text` starts (0, and after each newline)."""
    found = _LINES.get(text)
    if found is None:
        found = [0, *(i + 1 for i in occurrences(text, "\n"))]
        if len(_LINES) >= _CACHE_SIZE:
            _LINES.clear()
        _LINES[text] = found
    return found


def occurrences(text: str, literal: str) -> list[int]:
    """Every position where `literal` occurs in `text`, overlapping ones included."""
    at = text.find(literal)
    if at == -1:
        return []
    found = []
    while at != -1:
        found.append(at)
        at = text.find(literal, at + 1)
    return found


def non_ascii(text: str) -> frozenset[str]:
    """The characters of `text` outside ASCII."""
    found = _CHARS.get(text)
    if found is None:
        found = frozenset("".join(_NON_ASCII.findall(text)))
        if len(_CHARS) >= _CACHE_SIZE:
            _CHARS.clear()
        _CHARS[text] = found
    return found
