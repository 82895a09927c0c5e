"""The precomputed analysis of every scanner's alternatives (`table.json`).

Reading a pattern costs about as much as compiling it, so the analysis of every
pattern the judge uses ships as data, read once on first use. A pattern missing from
the table (edited since the table was written) is analysed when first used: slower,
never wrong. `tests/test_scan.py` fails when the table is stale; rewrite it with

    python -m coachloop.scan.table
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from coachloop.scan.scanner import Scanner
from coachloop.scan.shape import Shape

__all__ = ["TABLE_FILE", "build", "lookup", "scanners"]

TABLE_FILE = Path(__file__).with_name("table.json")
_TABLE: list[dict[str, Any]] = []
# The packages whose module-level scanners the table covers.
_DEFINING = ("coachloop.evidence", "coachloop.judge.rules")


def _load() -> dict[str, Any]:
    if not _TABLE:
        try:
            _TABLE.append(json.loads(TABLE_FILE.read_text(encoding="utf-8")))
        except (OSError, ValueError):
            _TABLE.append({})
    return _TABLE[0]


def lookup(source: str) -> Shape | None:
    """The stored shape of `source`, or None when the table does not have it."""
    entry = _load().get(source)
    if entry is None:
        return None
    groups, nullable, backref, anchors, gates = entry
    # list comprehensions, not generators: the table is read on a judge's first message
    pairs = needs = None
    if anchors is not None:
        pairs = tuple([(a, p) for a, p, _, _ in anchors])
        needs = tuple([(frozenset(w), frozenset(h)) for _, _, w, h in anchors])
    return Shape(
        groups,
        bool(nullable),
        bool(backref),
        pairs,
        None if gates is None else tuple(map(tuple, gates)),
        needs=needs or (),
    )


def _encode(shape: Shape) -> list[Any]:
    anchors = None
    if shape.anchors is not None:
        anchors = [
            [a, p, sorted(whole), sorted(heads)]
            for (a, p), (whole, heads) in zip(shape.anchors, shape.needs, strict=True)
        ]
    gates = None if shape.gates is None else [list(g) for g in shape.gates]
    return [shape.groups, int(shape.nullable), int(shape.backref), anchors, gates]


def scanners() -> list[Scanner]:
    """Every scanner defined at module level in the judge's and the evidence's modules."""
    import importlib
    import pkgutil

    found: dict[int, Scanner] = {}
    for name in _DEFINING:
        package = importlib.import_module(name)
        modules = [package.__name__]
        modules += [m.name for m in pkgutil.walk_packages(package.__path__, f"{name}.")]
        for module in modules:
            for value in vars(importlib.import_module(module)).values():
                for item in _flat(value):
                    found.setdefault(id(item), item)
    return list(found.values())


def _flat(value: object) -> list[Scanner]:
    """The scanners in a module-level value: itself, or inside a tuple or list of them
    (or of tuples holding them)."""
    if isinstance(value, Scanner):
        return [value]
    if isinstance(value, (tuple, list)):
        return [s for item in value for s in _flat(item)]
    return []


def build() -> dict[str, list[Any]]:
    """The table for every scanner the judge and the evidence reader define."""
    import re

    from coachloop.scan.anchors import UnreadablePatternError, analyze

    table: dict[str, list[Any]] = {}
    for scanner in scanners():
        for piece in scanner.pieces():
            try:
                table[piece] = _encode(analyze(piece, scanner.flags))
            except (UnreadablePatternError, re.error):
                continue
    return dict(sorted(table.items()))


def main() -> None:
    table = build()
    text = json.dumps(table, ensure_ascii=False, separators=(",", ":"))
    TABLE_FILE.write_text(text.replace('],"', '],\n"') + "\n", encoding="utf-8")
    print(f"wrote {len(table)} patterns to {TABLE_FILE}")


if __name__ == "__main__":
    main()
