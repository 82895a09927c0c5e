"""The lexicon's type and compiler."""

from __future__ import annotations

import re

from coachloop.scan import Scanner
from coachloop.scan.lazy import LazyPattern

Lexicon = dict[str, tuple[str, ...]]


def lexicon_pieces(lexicon: Lexicon) -> list[str]:
    """The category's patterns as the alternatives of one pattern, in matching order.

    The pattern is matched against LOWERCASED text without IGNORECASE. Patterns that
    open with a word boundary come first (the boundary written once per pattern),
    then those that open with a non-ASCII letter (Chinese, Japanese, Korean...) behind
    a one-character lookahead, then the rest: the order `re` tries them in.
    """
    bounded: list[str] = []
    foreign: list[str] = []
    other: list[str] = []
    for patterns in lexicon.values():
        for p in patterns:
            if p.startswith(r"\b"):
                bounded.append(rf"\b(?:{p[2:]})")
            elif p and not p[0].isascii():
                foreign.append(rf"(?=[^\x00-\x7f])(?:{p})")
            else:
                other.append(f"(?:{p})")
    return bounded + foreign + other


def compile_lexicon(lexicon: Lexicon, *, indexed: bool = True) -> Scanner:
    """One scanner over every language's patterns, matched against LOWERCASED text.

    It finds what `re.compile("|".join(lexicon_pieces(lexicon)), re.M)` finds; nothing
    is compiled until a text can match (see `coachloop.scan`). `indexed=False` for a
    category read on texts no other scanner reads (the human's prompt): reading their
    words would cost more than looking for its few literals one by one.
    """
    return Scanner("", re.M, pieces=lexicon_pieces(lexicon), name="lexicon", indexed=indexed)


def lexicon_regex(lexicon: Lexicon) -> LazyPattern:
    """The same pattern as one plain regular expression, compiled on first use: faster
    than a scanner for categories read on a hundred characters or so."""
    return LazyPattern("|".join(lexicon_pieces(lexicon)), re.M)


class SplitRegex:
    """A lexicon as two plain regular expressions: the patterns that open on an ASCII
    character, and the others, tried only on text that holds a character outside ASCII.
    One alternation of both kinds loses `re`'s scan for the possible first characters
    (which it keeps for a set of ASCII ones): 5-10x slower on short sentences. Contract:
    a pattern whose opening character lies outside ASCII needs one to match (a test
    checks the split against the one alternation on the labelled sets' sentences)."""

    __slots__ = ("narrow", "wide")

    def __init__(self, lexicon: Lexicon) -> None:
        narrow: list[str] = []
        wide: list[str] = []
        for patterns in lexicon.values():
            for p in patterns:
                opening = p[2:] if p.startswith(r"\b") else p
                (narrow if opening.lstrip("(?:")[:1].isascii() else wide).append(p)
        self.narrow = lexicon_regex({"narrow": tuple(narrow)})
        self.wide = lexicon_regex({"wide": tuple(wide)})

    def search(self, text: str) -> bool:
        """Whether any pattern matches in `text`."""
        if self.narrow.search(text):
            return True
        return not text.isascii() and self.wide.search(text) is not None
