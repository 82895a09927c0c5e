"""How a scanner looks for each alternative of its pattern (`Plan`), built from shapes.

Each alternative is filed under the cheapest way to find where it can start: by the
words of the text (a word index, for scanners with many literals), by its literals
(`str.find`), at line starts, at the text's start, or, when nothing tells where it
starts, on the whole text once the literals it needs are present (`gates`). A plan also
holds the scanner's `screen`: a few literals one of which every match contains, so
that a text without any of them is passed over at once.
"""

from __future__ import annotations

import re

from coachloop.scan import folding, index
from coachloop.scan.shape import LINE, START, WORD, Shape, shortest

__all__ = ["Gates", "Piece", "Plan", "after_newline", "is_open", "pad", "place", "screen"]

Gates = tuple[tuple[str, ...], ...]
# (piece, literal, the words and the heads of words the text must have for the literal)
Keyed = tuple[int, str, frozenset[str], frozenset[str]]
# Looking for a gate's literal costs about this fraction of trying a match at a line
# start: gates are checked first when they cost less than the line starts they spare.
_LITERAL_PER_MATCH = 0.25
_SCREEN_MAX = 16  # literals in a screen; beyond, looking for them costs too much


class Piece:
    """One alternative: its source as compiled (groups padded so that their numbers stay
    those of the whole pattern), its shape, and the compiled pattern once needed.

    `bare` is the source without the padding (None when there is none): it matches at
    the same places with the same spans, and `re` searches it much faster (a pattern
    that opens with the padding loses the search's prefix and charset shortcuts), so
    it finds where a match is and the padded pattern only builds the match there.

    `newline` is set for a piece that starts only at line starts (see `after_newline`)."""

    __slots__ = ("bare", "bare_rx", "compiled", "newline", "newline_rx", "rx", "shape")

    def __init__(self, compiled: str, shape: Shape, bare: str | None = None) -> None:
        self.compiled = compiled
        self.shape = shape
        self.rx: re.Pattern[str] | None = None
        self.bare = bare
        self.bare_rx: re.Pattern[str] | None = None
        self.newline: str | None = None
        self.newline_rx: re.Pattern[str] | None = None


class Plan:
    """Where to look for each piece: by word, by literal, at line starts, everywhere."""

    __slots__ = (
        "always",
        "finds",
        "foreign",
        "foreign_firsts",
        "gated",
        "groups",
        "keys",
        "line_pieces",
        "lines",
        "pieces",
        "starts",
        "words",
    )

    def __init__(self, pieces: list[Piece], groups: int) -> None:
        self.pieces = pieces
        self.groups = groups
        self.words: dict[str, list[Keyed]] = {}  # by a whole word or a word head
        self.keys: frozenset[str] = frozenset()
        self.finds: list[tuple[int, Gates, tuple[str, ...]]] = []
        self.foreign: dict[str, list[tuple[int, str, frozenset[str]]]] = {}
        self.foreign_firsts: frozenset[str] = frozenset()  # `foreign`'s keys, as a set
        self.lines: list[tuple[int, Gates, float]] = []  # and what its gates cost
        self.line_pieces: frozenset[int] = frozenset()  # the pieces in `lines`
        self.starts: list[int] = []
        self.gated: list[tuple[int, Gates]] = []
        self.always: list[int] = []

    def add(self, compiled: str, shape: Shape, bare: str | None = None) -> None:
        self.pieces.append(Piece(compiled, shape, bare))


def is_open(gates: Gates, view: str) -> bool:
    """Every gate has a literal in `view` (no gates: open)."""
    for gate in gates:
        for literal in gate:
            if literal in view:
                break
        else:
            return False
    return True


def pad(groups: int) -> str:
    """Groups that never take part in a match: they only keep the numbering."""
    return f"(?:(?!){'()' * groups})?" if groups else ""


def place(plan: Plan, i: int, shape: Shape, fold: bool, indexed: bool) -> None:
    """File piece `i` under the cheapest way to find where it can start: by the words
    of the text (`indexed`, for many literals), by its literals, at line starts."""
    anchors, gates, needs = shape.anchors, shape.gates or (), shape.needs
    if fold:  # case-insensitive: literals are looked for in the lowercased text
        if anchors is not None and not all(folding.plain(a) for a, _ in anchors):
            anchors = None
        gates = tuple(tuple(g.lower() for g in gate) for gate in gates if _plain(gate))
        anchors = None if anchors is None else tuple((a.lower(), p) for a, p in anchors)
        needs = tuple(index.needs(a, p >= WORD) for a, p in anchors or ())
    if anchors is None:
        if gates:
            plan.gated.append((i, gates))
        else:
            plan.always.append(i)
        return
    loose: list[str] = []
    line = start = False
    if not indexed:
        needs = ((frozenset(), frozenset()),) * len(anchors)
    for (anchor, where), (whole, begun) in zip(anchors, needs, strict=True):
        if whole:  # filed under its longest whole word, the most telling
            plan.words.setdefault(_longest(whole), []).append((i, anchor, whole, begun))
        elif begun:
            plan.words.setdefault(_longest(begun), []).append((i, anchor, whole, begun))
        elif where == START:
            start = True
        elif not anchor:
            line = True
        elif not anchor[0].isascii():  # filed under its first character
            needed = frozenset(ch for ch in anchor if not ch.isascii())
            plan.foreign.setdefault(anchor[0], []).append((i, anchor, needed))
        else:
            loose.append(anchor)
    if start:
        plan.starts.append(i)
    if line:  # trying each line start is cheaper than looking for many literals
        cost = sum(map(len, gates)) * _LITERAL_PER_MATCH
        plan.lines.append((i, gates, cost))
    if loose:
        weak = min(map(len, loose)) < 3
        plan.finds.append((i, gates if weak else (), tuple(loose)))


def _longest(words: frozenset[str]) -> str:
    """The longest of `words`, the first in sorted order among as long ones (most are
    one word: no sort then; plans are built on a judge's first message)."""
    if len(words) == 1:
        (word,) = words
        return word
    return max(sorted(words), key=len)


def after_newline(piece: Piece) -> None:
    """Set `piece.newline` when the piece (of a re.M pattern) matches only at line starts
    and reads nothing before its start: "\\n" then the piece, searched in "\\n" + text.

    `re` cannot skip to line starts: it tries `^` at every character. A pattern that
    opens with a literal newline it skips to in C. A line start of the text is a place
    after a newline in "\\n" + text (its start too), and what follows is the same text,
    so the piece matches at a line start of the text exactly where "\\n" + the piece
    matches in "\\n" + text (at the same index); only what lies before the start
    differs (the text's start, or a newline), which a piece without lookbehind and
    without \\A never reads (`^`, `\\b` and `\\B` read a newline as they read the start).
    """
    source = piece.bare or piece.compiled
    anchors = piece.shape.anchors or ()
    if not anchors or any(where != LINE for _, where in anchors):
        return
    if "(?<" in source or "\\A" in source:
        return
    piece.newline = f"\n(?:{source})"


def _plain(gate: tuple[str, ...]) -> bool:
    return all(folding.plain(g) for g in gate)


def screen(shapes: list[Shape], fold: bool) -> tuple[str, ...]:
    """A few literals one of which every match of the pattern contains, or () if none:
    each alternative gives its literal starts, or else its most telling gate."""
    found: set[str] = set()
    for shape in shapes:
        starts = [a for a, _ in shape.anchors or ()]
        if starts and all(starts):
            literals: tuple[str, ...] | list[str] = starts
        elif shape.gates:
            literals = shape.gates[0]
        else:
            return ()
        if fold:
            if not all(folding.plain(lit) for lit in literals):
                return ()
            literals = [lit.lower() for lit in literals]
        found.update(literals)
        if len(found) > _SCREEN_MAX:
            return ()
    return shortest(found)
