"""What the analysis says about a pattern (`Shape`), and how patterns are cut apart.

Kept apart from the analysis itself (`anchors`): a scanner needs only this at run
time, since shapes come precomputed from the table.
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["ANYWHERE", "LINE", "START", "WORD", "Needs", "Shape", "shortest", "split_alternatives"]

# Where a match can start: anywhere, at a word boundary (`\b`), at a line start (`^`),
# at the start of the text (`\A`).
ANYWHERE, WORD, LINE, START = 0, 1, 2, 3

Needs = tuple[frozenset[str], frozenset[str]]


class Shape:
    """What one pattern needs (see `coachloop.scan.anchors`).

    - `anchors`: (literal, place) pairs, one of which every match starts with, or None;
    - `gates`: sets of literals; every match contains a literal of each set; or None;
    - `needs`: per anchor, the words and word heads a text must have (`index.needs`);
    - `groups`, `nullable` (a match may be empty), `backref` (refers back to a group).
    """

    __slots__ = ("anchors", "backref", "gates", "groups", "needs", "nullable")

    def __init__(
        self,
        groups: int,
        nullable: bool,
        backref: bool,
        anchors: tuple[tuple[str, int], ...] | None,
        gates: tuple[tuple[str, ...], ...] | None,
        *,
        needs: tuple[Needs, ...] = (),
    ) -> None:
        self.groups = groups
        self.nullable = nullable
        self.backref = backref
        self.anchors = anchors
        self.gates = gates
        self.needs = needs


def split_alternatives(source: str) -> list[str]:
    """`source` cut at each `|` outside groups and character classes (escapes respected)."""
    parts: list[str] = []
    depth, start, i, n = 0, 0, 0, len(source)
    while i < n:
        ch = source[i]
        if ch == "\\":
            i += 2
            continue
        if ch == "[":
            i += 1
            if i < n and source[i] == "^":
                i += 1
            if i < n and source[i] == "]":
                i += 1
            while i < n and source[i] != "]":
                i += 2 if source[i] == "\\" else 1
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "|" and depth == 0:
            parts.append(source[start:i])
            start = i + 1
        i += 1
    parts.append(source[start:])
    return parts


def shortest(literals: Iterable[str]) -> tuple[str, ...]:
    """The literals that hold no other one, shortest first: a text holds one of them
    exactly when it holds one of `literals` (a text with "fail" holds "failed" or not,
    either way the set is answered), so a gate or a screen looks for fewer."""
    kept: list[str] = []
    for literal in sorted(set(literals), key=lambda s: (len(s), s)):
        if not any(k in literal for k in kept):
            kept.append(literal)
    return tuple(kept)
