"""When case-insensitive matching can be found by looking in lowercased text.

`re.IGNORECASE` compares characters by their simple lowercase, and also treats a few
as equal that lowercase apart (dotless i and i, long s and s, and some Greek and
Cyrillic letters: the "extra cases" of `re`). A case-insensitive literal therefore
occurs where its lowercase occurs in the lowercased text, provided that the literal
is `plain` (lowercases to as many characters, none of them odd) and that the text
holds no `odd` character (and lowercases to as many characters: checked by callers).
"""

from __future__ import annotations

__all__ = ["folded", "odd", "plain"]

_ODD: list[tuple[frozenset[str], bool]] = []
_FOLDED: dict[str, str | None] = {}
_CACHE_SIZE = 32
# What `re` folds with an ASCII letter: dotless i and long s (the dotted capital I
# lowercases to two characters). Enough on a Python whose extra cases are unknown.
_ASCII_ODD = frozenset({"ı", "ſ"})


def _load() -> tuple[frozenset[str], bool]:
    if not _ODD:
        try:
            from re._casefix import _EXTRA_CASES  # type: ignore[import-not-found]
        except ImportError:  # only ASCII literals are plain then
            _ODD.append((_ASCII_ODD, False))
        else:
            chars = {chr(c) for k, v in _EXTRA_CASES.items() for c in (k, *v)}
            found = frozenset(ch for ch in chars if not ch.isascii()) | {"Σ"} | _ASCII_ODD
            _ODD.append((found, True))
    return _ODD[0]


def odd() -> frozenset[str]:
    """The characters `re` folds together with another one that `str.lower` keeps apart
    (final sigma too: its lowercase depends on the next letter); not the ASCII letters:
    their partners are odd instead."""
    return _load()[0]


def plain(literal: str) -> bool:
    """`literal` can be looked for lowercased (see the module docstring)."""
    chars, known = _load()
    if not known and not literal.isascii():
        return False
    low = literal.lower()
    return len(low) == len(literal) and chars.isdisjoint(low) and chars.isdisjoint(literal)


def folded(text: str) -> str | None:
    """`text` lowercased, where case-insensitive literals can be looked for; None when
    it cannot serve (a letter lowercases to two, or an odd character is present)."""
    if text in _FOLDED:
        return _FOLDED[text]
    from coachloop.scan.index import non_ascii

    low = text.lower()
    usable = len(low) == len(text) and (text.isascii() or odd().isdisjoint(non_ascii(text)))
    if len(_FOLDED) >= _CACHE_SIZE:
        _FOLDED.clear()
    _FOLDED[text] = low if usable else None
    return _FOLDED[text]
