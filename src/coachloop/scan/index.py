"""The words of a text, computed once per text and shared by every scanner.

A scanner asks which of its anchor words occur in a text; the answer comes from two
sets (`Words`): the text's words (maximal runs of `\\w`, exactly as `re` defines a word
character), and those words together with their heads (first `HEAD` and `LONG_HEAD`
characters). The last few texts are cached, so the many scanners that read one
message pay for its words once. A part of a text (a slice, or sentences joined by
spaces) can borrow the words of the whole (`words_of_part`): more words than the part
has only make a scanner look at more places, never miss one.
"""

from __future__ import annotations

import re
from operator import itemgetter

__all__ = [
    "HEAD",
    "Words",
    "is_word",
    "needs",
    "non_ascii",
    "occurrences",
    "tokens",
    "words",
    "words_of_part",
]

HEAD, LONG_HEAD = 3, 6
_WORD = re.compile(r"\w+")
Words = tuple[frozenset[str], frozenset[str]]  # (words, words and their heads)
_CACHE: dict[str, Words] = {}
_ASCII_BYTES = bytes(range(128))
_CHARS: dict[str, frozenset[str]] = {}
_CACHE_SIZE = 64
# `bytes.translate` table: the ASCII bytes of characters other than word characters
# become spaces; the rest stay (every byte of another character's UTF-8 encoding is >= 0x80).
_SPACED = bytes(b if b >= 0x80 or chr(b).isalnum() or b == 0x5F else 0x20 for b in range(256))


_HEADS = itemgetter(slice(None, HEAD))
_LONG_HEADS = itemgetter(slice(None, LONG_HEAD))


def _words(found: list[str]) -> Words:
    tokens = frozenset(found)
    # the heads are sliced in C (`itemgetter` of a slice): this runs once per text
    return tokens, tokens.union(map(_HEADS, tokens), map(_LONG_HEADS, tokens))


def tokens(text: str) -> list[str]:
    """The words of `text`, in order: the list `_WORD.findall(text)` returns, 4x faster.

    The ASCII characters other than word characters become spaces (bytes.translate on the
    UTF-8 encoding, in C), and `str.split` cuts at them and at every other whitespace
    character (none is a word character: a test checks all of them). The other
    characters that are not word characters (`isalnum` is the test `re` makes for `\\w`,
    less "_", which is ASCII) are replaced by spaces first, one `str.replace` each (in
    C); a text with many kinds of them is read piece by piece instead: a piece that
    holds only ASCII word characters, or only alphanumerics, is a word whole; any other
    piece (an apostrophe, a dash or an emoji inside) is read by the regex, and as its
    ends border on other characters than word characters, its words are the text's."""
    if not text.isascii():
        others = [ch for ch in non_ascii(text) if not ch.isalnum()]
        if len(others) > _FEW_OTHERS:
            return _tokens_by_piece(text)
        for ch in others:
            text = text.replace(ch, " ")
    spaced = text.encode("utf-8", "surrogatepass").translate(_SPACED)
    return spaced.decode("utf-8", "surrogatepass").split()


_FEW_OTHERS = 24  # past this many kinds of characters to replace, read piece by piece


def _tokens_by_piece(text: str) -> list[str]:
    """`tokens` of a text with many kinds of characters outside ASCII (see there)."""
    spaced = text.encode("utf-8", "surrogatepass").translate(_SPACED)
    found: list[str] = []
    for piece in spaced.decode("utf-8", "surrogatepass").split():
        if piece.isascii() or piece.isalnum():
            found.append(piece)
        else:
            found += _WORD.findall(piece)
    return found


def words(text: str) -> Words:
    """(the words of `text`, the same with their heads). A word shorter than a head
    length stands for its own head: it begins with itself."""
    found = _CACHE.get(text)
    if found is None:
        found = _words(tokens(text))
        if len(_CACHE) >= _CACHE_SIZE:
            _CACHE.clear()
        _CACHE[text] = found
    return found


def words_of_part(whole: str, start: int = 0, end: int | None = None) -> Words:
    """Words covering those of `whole[start:end]`, or of any text made of its pieces
    that were cut where no word continues (sentences split at spaces, joined by spaces).

    The whole's words, plus the pieces of words a slice cuts at either end.
    """
    base = words(whole)
    end = len(whole) if end is None else end
    cut: list[str] = []
    if 0 < start < len(whole) and is_word(whole[start - 1]) and is_word(whole[start]):
        m = _WORD.match(whole, start)
        if m:
            cut.append(m.group())
    if 0 < end < len(whole) and is_word(whole[end - 1]) and is_word(whole[end]):
        i = end
        while i > start and is_word(whole[i - 1]):
            i -= 1
        cut.append(whole[i:end])
    if not cut:
        return base
    extra = _words(cut)
    return base[0] | extra[0], base[1] | extra[1]


def is_word(ch: str) -> bool:
    """`ch` is a word character as `re` reads `\\w` (the words this index holds)."""
    return ch.isalnum() or ch == "_"


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
        # Deleting the ASCII bytes of the UTF-8 encoding leaves the other characters'
        # encodings whole (every byte of theirs is >= 0x80): twice as fast as a regex.
        # "surrogatepass" carries lone surrogates (from JSON escapes) both ways.
        rest = text.encode("utf-8", "surrogatepass").translate(None, _ASCII_BYTES)
        found = frozenset(rest.decode("utf-8", "surrogatepass"))
        if len(_CHARS) >= _CACHE_SIZE:
            _CHARS.clear()
        _CHARS[text] = found
    return found
