"""`Scanner`: a regular expression that finds the same matches as `re`, much faster.

A pattern made of alternatives (`a|b|c`, or a lexicon's list of patterns) is cut into
its alternatives, each read for what it must start with or contain (`anchors`). To
search a text, a scanner looks only where an alternative can start: the text's words
(`index.words`) select the alternatives whose first word occurs, `str.find` gives the
positions of their literal starts, and each candidate is checked there with the
alternative's own compiled pattern (`pattern.match(text, pos)`, which sees the whole
text, so word boundaries and lookbehinds read as they would). Alternatives without a
usable start are run on the whole text, after a check that a literal they need occurs;
so are those that can start at a line start (one `re.search` in C costs less than a
match tried at every line start).
`finditer` merges the alternatives' matches exactly as `re` picks them: leftmost start
first, and at one start the first alternative that matches.

Before any of that, a text that holds none of the scanner's `screen` literals (one of
which every match contains) is passed over. A scanner made with `whole=True` only
screens: past its screen it runs the whole compiled pattern, as `re` would.

Nothing is compiled until it is needed: the analysis comes from a precomputed table
(`table.json`, see `coachloop.scan.table`), and each alternative is compiled on its first
candidate. A pattern the analysis cannot read, or a text whose case folding is unusual
(for case-insensitive scanners), falls back to the whole compiled pattern.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Any

from coachloop.scan import folding, index
from coachloop.scan.plan import Plan, after_newline, is_open, pad, place, screen
from coachloop.scan.shape import Shape, split_alternatives

__all__ = ["Scanner"]


def _shape(source: str, flags: int) -> Shape | None:
    from coachloop.scan.table import lookup

    found = lookup(source)
    if found is not None:
        return found
    from coachloop.scan.anchors import UnreadablePatternError, analyze

    try:
        return analyze(source, flags)
    except (UnreadablePatternError, re.error, RecursionError):
        return None


class Scanner:
    """Drop-in for the `search`, `finditer` and `findall` of `re.compile(source, flags)`.

    `pieces`, when given, are alternatives whose `|`-join is the pattern (a lexicon).
    `indexed`: select alternatives by the words of the text (worth it for many literals
    read on texts that other indexed scanners read too); otherwise each literal is
    looked for with `str.find`. `whole`: past the screen, run the whole pattern.
    """

    __slots__ = (
        "_built",
        "_fold",
        "_full",
        "_indexed",
        "_pieces",
        "_plan",
        "_screen",
        "_whole",
        "flags",
        "name",
        "source",
    )

    def __init__(
        self,
        source: str,
        flags: int = 0,
        pieces: Sequence[str] | None = None,
        name: str = "",
        *,
        indexed: bool = False,
        whole: bool = False,
    ) -> None:
        self.source = "|".join(pieces) if pieces is not None else source
        self.flags = int(flags)  # a plain int: `RegexFlag` arithmetic is slow
        self._fold = bool(self.flags & re.IGNORECASE)
        self._indexed = indexed
        self._whole = whole
        self._screen: tuple[str, ...] = ()
        self.name = name
        self._pieces = list(pieces) if pieces is not None else None
        self._full: re.Pattern[str] | None = None
        self._plan: Plan | None = None  # None once built: the whole pattern runs
        self._built = False

    def pieces(self) -> list[str]:
        """The alternatives this scanner runs separately."""
        if self._pieces is None:
            self._pieces = (
                [self.source] if self.flags & re.VERBOSE else split_alternatives(self.source)
            )
        return self._pieces

    @property
    def pattern(self) -> re.Pattern[str]:
        """The whole pattern, compiled (on first use)."""
        if self._full is None:
            self._full = re.compile(self.source, self.flags)
        return self._full

    def _build(self) -> Plan | None:
        sources = self.pieces()
        shapes = [_shape(s, self.flags) for s in sources]
        known = [s for s in shapes if s is not None]
        if len(known) == len(shapes):
            self._screen = screen(known, self._fold)
        if self._whole or len(known) < len(shapes) or any(s.nullable for s in known):
            return None
        total = sum(s.groups for s in known)
        if len(sources) > 1 and any(s.backref for s in known):
            return None
        plan, offset = Plan([], total), 0
        for i, (source, shape) in enumerate(zip(sources, known, strict=True)):
            compiled, bare = source, None
            if total and len(sources) > 1:
                after = total - offset - shape.groups
                compiled, bare = f"{pad(offset)}(?:{source}){pad(after)}", source
            plan.add(compiled, shape, bare)
            offset += shape.groups
            place(plan, i, shape, self._fold, self._indexed)
        plan.keys = frozenset(plan.words)
        plan.foreign_firsts = frozenset(plan.foreign)  # `&` of two sets runs in C
        plan.line_pieces = frozenset(i for i, _, _ in plan.lines)
        if self.flags & re.MULTILINE:
            for i in plan.line_pieces:
                after_newline(plan.pieces[i])
        return plan

    def _ready(self) -> Plan | None:
        if not self._built:
            self._plan = self._build()
            self._built = True
        return self._plan

    def _view(self, text: str) -> str | None:
        """The text the anchors are looked for in (lowercased when case is ignored)."""
        return folding.folded(text) if self._fold else text

    def _rx(self, plan: Plan, i: int) -> re.Pattern[str]:
        piece = plan.pieces[i]
        if piece.rx is None:
            piece.rx = re.compile(piece.compiled, self.flags)
        return piece.rx

    def _bare(self, plan: Plan, i: int) -> re.Pattern[str]:
        """Piece `i` without its group padding: same places and spans, other group
        numbers (for yes/no answers and for finding where a match starts)."""
        piece = plan.pieces[i]
        if piece.bare is None:
            return self._rx(plan, i)
        if piece.bare_rx is None:
            piece.bare_rx = re.compile(piece.bare, self.flags)
        return piece.bare_rx

    def _newline(self, plan: Plan, i: int) -> re.Pattern[str] | None:
        """Piece `i` after a newline, to search in "\\n" + text (`plan.after_newline`)."""
        piece = plan.pieces[i]
        if piece.newline is None:
            return None
        if piece.newline_rx is None:
            piece.newline_rx = re.compile(piece.newline, self.flags)
        return piece.newline_rx

    def _search_from(
        self, plan: Plan, i: int, text: str, pos: int, lined: list[str]
    ) -> re.Match[str] | None:
        """`re.search` of piece `i` from `pos`: found unpadded (or after a newline in
        "\\n" + text, made once into `lined`: the same start), then matched padded at
        the same start (the same match, with the whole pattern's group numbers)."""
        newline = self._newline(plan, i)
        if newline is not None:
            if not lined:
                lined.append("\n" + text)
            at = newline.search(lined[0], pos)
            return None if at is None else self._rx(plan, i).match(text, at.start())
        found = self._bare(plan, i).search(text, pos)
        if found is None or plan.pieces[i].bare is None:
            return found
        return self._rx(plan, i).match(text, found.start())

    def _anchored(
        self, plan: Plan, view: str, hint: index.Words | None
    ) -> Iterator[tuple[int, str | None]]:
        """(piece, literal) pairs worth looking for in `view`; the literal is None for the
        text's start. Pieces that can start at a line start come too: `finditer` skips
        them, as it searches those whole (`_scanned`)."""
        if plan.keys:
            words, both = hint or index.words(view)
            keyed = plan.words
            for key in both & plan.keys:
                for i, anchor, whole, begun in keyed[key]:
                    if whole <= words and begun <= both:
                        yield i, anchor
        for i, gates, anchors in plan.finds:
            if is_open(gates, view):
                for anchor in anchors:
                    yield i, anchor
        if plan.foreign and not view.isascii():
            chars = index.non_ascii(view)
            for first in chars & plan.foreign_firsts:
                for i, anchor, needed in plan.foreign[first]:
                    if needed <= chars:
                        yield i, anchor
        for i in plan.starts:
            yield i, None

    def _positions(self, anchor: str | None, view: str) -> list[int]:
        """Where `anchor` occurs in `view` (overlapping places too); None: the text's start."""
        return [0] if anchor is None else index.occurrences(view, anchor)

    def _scanned(self, plan: Plan, view: str) -> list[int]:
        """The pieces run on the whole text: those without a usable start whose gates are
        open, and those that can start at a line start (one search in C from each place
        beats a match tried at every line start; see `search`)."""
        scan = [i for i, gates in plan.gated if is_open(gates, view)]
        scan += [i for i, gates, cost in plan.lines if cost > _FEW_LITERALS or is_open(gates, view)]
        return sorted(scan + plan.always) if scan else plan.always

    def search(
        self, text: str, words: index.Words | None = None, chars: frozenset[str] | None = None
    ) -> bool:
        """True when the pattern matches somewhere in `text` (`re.search` is not None).

        `words`: words that cover the text's (`index.words_of_part`), saving a scanner
        with a word index from reading the words of `text` itself; `chars`, likewise,
        characters outside ASCII that cover those of the text as the scanner reads it
        (lowercased when case is ignored: `index.non_ascii` of a whole the text is part
        of). The places are those `_anchored` gives, tried here inline: a yes/no answer
        needs no order."""
        plan = self._plan if self._built else self._ready()
        view = text if not self._fold else folding.folded(text)
        if view is not None and self._screen and not _holds_any(view, self._screen):
            return False
        if plan is None or view is None:
            return self.pattern.search(text) is not None
        if plan.keys:
            have, both = words or index.words(view)
            keyed = plan.words
            for key in both & plan.keys:
                for i, anchor, whole, begun in keyed[key]:
                    if (
                        whole <= have
                        and begun <= both
                        and self._at_literal(plan, i, anchor, view, text)
                    ):
                        return True
        for i, gates, anchors in plan.finds:
            if i not in plan.line_pieces and (not gates or is_open(gates, view)):
                for anchor in anchors:
                    if self._at_literal(plan, i, anchor, view, text):
                        return True
        if plan.foreign and not view.isascii():
            chars = index.non_ascii(view) if chars is None else chars
            for first in chars & plan.foreign_firsts:
                for i, anchor, needed in plan.foreign[first]:
                    if needed <= chars and self._at_literal(plan, i, anchor, view, text):
                        return True
        for i in plan.starts:
            if self._bare(plan, i).match(text, 0):
                return True
        # A piece that can start at a line start is searched for once, in C: faster than
        # a match tried at each line start (and at its other literals, left out above);
        # one that starts only there, after a newline in "\n" + text (`_newline`).
        # Its gates are looked at first only when they are a few short literals.
        lined = ""
        for i, gates, cost in plan.lines:
            if cost > _FEW_LITERALS or is_open(gates, view):
                newline = self._newline(plan, i)
                if newline is not None:
                    lined = lined or "\n" + text
                    if newline.search(lined):
                        return True
                elif self._bare(plan, i).search(text):
                    return True
        for i in plan.always:
            if self._bare(plan, i).search(text):
                return True
        for i, gates in plan.gated:
            if is_open(gates, view) and self._bare(plan, i).search(text):
                return True
        return False

    def _at_literal(self, plan: Plan, i: int, anchor: str, view: str, text: str) -> bool:
        """Piece `i` matches where `anchor` occurs in `view`."""
        find = view.find
        at = find(anchor)
        if at == -1:
            return False
        match = self._bare(plan, i).match
        while at != -1:
            if match(text, at):
                return True
            at = find(anchor, at + 1)
        return False

    def finditer(self, text: str, words: index.Words | None = None) -> Iterator[re.Match[str]]:
        """The matches of `re.finditer`, in order, with the same spans and groups."""
        plan = self._ready()
        view = self._view(text)
        if view is not None and self._screen and not _holds_any(view, self._screen):
            return
        if plan is None or view is None:
            yield from self.pattern.finditer(text)
            return
        found: dict[int, set[int]] = {}
        lined = plan.line_pieces
        for i, anchor in self._anchored(plan, view, words):
            if i in lined:
                continue
            positions = self._positions(anchor, view)
            if positions:
                found.setdefault(i, set()).update(positions)
        scan = self._scanned(plan, view)
        if not found and not scan:
            return
        queues = {i: sorted(p) for i, p in found.items()}
        live = sorted([*queues, *scan])
        ahead: dict[int, re.Match[str]] = {}
        after: list[str] = []  # "\n" + text, once a piece needs it
        pos = 0
        while live:
            best: re.Match[str] | None = None
            for i in list(live):  # in order: at one start, the first alternative wins
                m = ahead.get(i)
                if m is None or m.start() < pos:
                    if i in queues:
                        m = self._next_at(plan, i, queues[i], text, pos)
                    else:
                        m = self._search_from(plan, i, text, pos, after)
                    if m is None:
                        live.remove(i)
                        continue
                    ahead[i] = m
                if best is None or m.start() < best.start():
                    best = m
            if best is None:
                return
            yield best
            pos = best.end()

    def _next_at(
        self, plan: Plan, i: int, queue: list[int], text: str, pos: int
    ) -> re.Match[str] | None:
        """The first match of piece `i` at a queued position >= `pos` (the queue shrinks)."""
        match = self._rx(plan, i).match
        while queue:
            at = queue[0]
            if at >= pos:
                m = match(text, at)
                if m is not None:
                    return m
            del queue[0]
        return None

    def findall(self, text: str) -> list[Any]:
        """What `re.findall` returns: whole matches, the one group, or tuples of groups."""
        plan = self._ready()
        view = self._view(text)
        if view is not None and self._screen and not _holds_any(view, self._screen):
            return []
        if plan is None:
            return self.pattern.findall(text)
        if plan.groups == 0:
            return [m.group(0) for m in self.finditer(text)]
        if plan.groups == 1:
            return [m.group(1) or "" for m in self.finditer(text)]
        return [m.groups("") for m in self.finditer(text)]


_FEW_LITERALS = 2.0  # a gate's cost (see `plan.place`) past which it is not looked at


def _holds_any(view: str, literals: tuple[str, ...]) -> bool:
    return any(map(view.__contains__, literals))
