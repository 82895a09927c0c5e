"""What a regular expression needs to find in a text before it can match there.

`analyze(source, flags)` reads a pattern with Python's own parser (`re._parser`, so
that the analysis sees exactly what `re` compiles) and returns a `Shape`:
- `anchors`: where every match can start, as (literal, place) pairs: the match starts
  with the literal and, by `place`, anywhere (`ANYWHERE`), at a word boundary (`WORD`),
  at a line start (`LINE`: `^`) or at the start of the text (`START`: `\\A`); a `LINE`
  or `START` literal may be empty. None when some match could start anywhere at all.
- `gates`: sets of literals; every match contains a literal of each set. None if none.
- `groups`, `nullable` (a match may be empty), `backref` (the pattern refers back to
  a group, so it cannot be cut apart without renumbering).
The analysis is conservative: whatever it cannot read makes it answer None (no
anchors, no gates), and a scanner then runs the pattern everywhere, as `re` would.
Reading a pattern costs about as much as compiling it: scanners read shapes from the
precomputed table (`coachloop.scan.table`) and come here only for patterns it lacks.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from coachloop.scan import index
from coachloop.scan.shape import ANYWHERE, LINE, START, WORD, Shape, shortest

__all__ = ["UnreadablePatternError", "analyze"]

_MAX_SET = 200  # literals kept per set; beyond, literals are shortened until they fit
_MAX_LEN = 24  # longer literals do not filter better
_MAX_CLASS = 8  # a character class of at most this many literal characters is expanded
_MAX_GATES = 3  # required sets kept per pattern, the most selective ones

Prefixes = frozenset[tuple[str, int]]
Required = tuple[frozenset[str], ...]


class UnreadablePatternError(ValueError):
    """A pattern the analysis does not read (inline flags, conditionals, verbose mode)."""


@dataclass(frozen=True, slots=True)
class _Info:
    first: Prefixes | None  # every match starts with one of these (and at that place)
    exact: bool  # and consists of exactly one of them
    req: Required  # every match contains a literal of each set
    nullable: bool


_EMPTY: Prefixes = frozenset({("", ANYWHERE)})


def _fit(first: Prefixes) -> tuple[Prefixes, bool]:
    """`first` cut down to the size limits; the flag is False when literals were cut."""
    if len(first) <= _MAX_SET and all(len(s) <= _MAX_LEN for s, _ in first):
        return first, True
    for length in range(_MAX_LEN, 0, -1):
        cut = frozenset((s[:length], b) for s, b in first)
        if len(cut) <= _MAX_SET:
            return cut, False
    return frozenset(), False  # never reached: one-character literals are few


def _cross(a: Prefixes, b: Prefixes) -> tuple[Prefixes, bool]:
    """Each prefix of `a` followed by each of `b`; where `a`'s prefix is empty, the place
    of the start is the stronger of the two (a `^` then a `\\b` start at a line start)."""
    return _fit(frozenset((x + y, bx if x else max(bx, by)) for x, bx in a for y, by in b))


def _score(req: frozenset[str]) -> tuple[int, int]:
    return (min(map(len, req)), -len(req))


def _best(sets: Required) -> Required:
    """The most selective required sets (longest shortest literal, then fewest)."""
    usable = {s for s in sets if s and "" not in s and len(s) <= _MAX_SET}
    ranked = sorted(usable, key=lambda s: (_score(s), sorted(s)), reverse=True)
    return tuple(ranked[:_MAX_GATES])


class _Reader:
    def __init__(self, constants: Any) -> None:
        self.c = constants
        self.backref = False

    def seq(self, items: Any) -> _Info:
        """A sequence: prefixes grow while every item so far is exact; the required sets
        are the items' own and the literals of runs of exact items."""
        acc: Prefixes | None = _EMPTY
        exact = True
        run: frozenset[str] = frozenset({""})
        req: list[frozenset[str]] = []
        nullable = True
        for item in items:
            info = self.item(item)
            nullable = nullable and info.nullable
            if acc is not None and exact:
                if info.first is None:
                    exact = False
                else:
                    acc, whole = _cross(acc, info.first)
                    exact = whole and info.exact
            req.extend(info.req)
            if info.first is not None:
                joined = frozenset(x + y for x in run for y, _ in info.first)
                fits = len(joined) <= _MAX_SET and all(len(s) <= _MAX_LEN for s in joined)
                if fits and info.exact:
                    run = joined
                    continue
                req.append(joined if fits else run)
            else:
                req.append(run)
            run = frozenset({""})
        req.append(run)
        if acc is not None and not exact and all(not s and p < LINE for s, p in acc):
            acc = None
        return _Info(acc, exact and acc is not None, _best(tuple(req)), nullable)

    def item(self, item: tuple[Any, Any]) -> _Info:
        c = self.c
        op, av = item
        if op is c.LITERAL:
            ch = chr(av)
            return _Info(frozenset({(ch, ANYWHERE)}), True, (frozenset({ch}),), False)
        if op is c.IN:
            chars = self._charset(av)
            if chars is None:
                return _Info(None, False, (), False)
            first = frozenset((ch, ANYWHERE) for ch in chars)
            return _Info(first, True, (frozenset(chars),), False)
        if op in (c.NOT_LITERAL, c.ANY):
            return _Info(None, False, (), False)
        if op is c.AT:
            place = {c.AT_BOUNDARY: WORD, c.AT_BEGINNING: LINE, c.AT_BEGINNING_STRING: START}
            return _Info(frozenset({("", place.get(av, ANYWHERE))}), True, (), True)
        if op in (c.ASSERT, c.ASSERT_NOT):
            self.seq(av[1])  # read for backreferences only; it consumes nothing
            return _Info(_EMPTY, True, (), True)
        if op is c.BRANCH:
            return self._branch(av[1])
        if op is c.SUBPATTERN:
            _group, add, remove, sub = av
            if add or remove:
                raise UnreadablePatternError("inline flags on a group")
            return self.seq(sub)
        if op is c.ATOMIC_GROUP:
            info = self.seq(av)
            return _Info(info.first, False, info.req, info.nullable)
        if op in (c.MAX_REPEAT, c.MIN_REPEAT, c.POSSESSIVE_REPEAT):
            return self._repeat(*av)
        if op is c.GROUPREF:
            self.backref = True
            return _Info(None, False, (), True)
        raise UnreadablePatternError(f"operation {op}")

    def _charset(self, items: Any) -> list[str] | None:
        c = self.c
        chars: list[str] = []
        for op, av in items:
            if op is c.LITERAL:
                chars.append(chr(av))
            elif op is c.RANGE and av[1] - av[0] < _MAX_CLASS:
                chars.extend(chr(x) for x in range(av[0], av[1] + 1))
            else:
                return None  # negation, categories, wide ranges
            if len(chars) > _MAX_CLASS:
                return None
        return chars

    def _branch(self, alternatives: Any) -> _Info:
        infos = [self.seq(alt) for alt in alternatives]
        nullable = any(i.nullable for i in infos)
        req: Required = ()
        if all(i.req for i in infos):
            req = _best((frozenset().union(*(i.req[0] for i in infos)),))
        if any(i.first is None for i in infos):
            return _Info(None, False, req, nullable)
        first = frozenset().union(*(i.first for i in infos if i.first is not None))
        fitted, whole = _fit(first)
        return _Info(fitted, whole and all(i.exact for i in infos), req, nullable)

    def _repeat(self, low: int, high: int, sub: Any) -> _Info:
        info = self.seq(sub)
        if low == 0:
            first = None if info.first is None else info.first | _EMPTY
            return _Info(first, high == 1 and info.exact, (), True)
        return _Info(info.first, low == high == 1 and info.exact, info.req, info.nullable)


def analyze(source: str, flags: int = 0) -> Shape:
    """The `Shape` of one pattern; raises `UnreadablePatternError` for what it does not read."""
    from re import _constants, _parser  # type: ignore[attr-defined]

    if flags & re.VERBOSE:
        raise UnreadablePatternError("verbose patterns")
    tree = _parser.parse(source, flags)
    if tree.state.flags & ~(flags | re.UNICODE):
        raise UnreadablePatternError("inline flags")
    reader = _Reader(_constants)
    info = reader.seq(tree.data)
    anchors = None
    if info.first is not None and all(s or p >= LINE for s, p in info.first):
        anchors = tuple(sorted(info.first))
    gates = tuple(shortest(s) for s in info.req) or None
    needs = tuple(index.needs(a, p >= WORD) for a, p in anchors or ())
    return Shape(tree.state.groups - 1, info.nullable, reader.backref, anchors, gates, needs=needs)
