"""Scanners find exactly what `re` finds, on every pattern the judge uses.

Each scanner is compared with `re.compile(scanner.source, scanner.flags)` on the
project's labelled messages (as written and lowercased), on texts built from the
patterns' own literals (so that every alternative matches somewhere, in upper and
lower case, at line starts, inside words, next to letters that case folding treats
specially) and on a few hand-made texts. The comparison covers `search`, the spans
and groups of `finditer`, and `findall`. The analysis behind the scanners is checked
directly too: every match `re` finds starts where the analysis says matches start and
contains a literal of each required set.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

import coachloop.evidence.text
from coachloop.judge.rules.lexicon import base
from coachloop.scan import Scanner, folding, table
from coachloop.scan.anchors import analyze
from coachloop.scan.shape import LINE, START, WORD, split_alternatives

DATA = Path(__file__).parent / "data"
ODD = ["ı", "ſ", "İ", "Σ", "K", "ᲀ", "É", "ß", "ﬅ"]


def _texts() -> list[str]:
    found: list[str] = []
    for name in ("dev.jsonl", "holdout.jsonl", "blind.jsonl", "blind2.jsonl"):
        for line in (DATA / name).read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            found += [row["text"], row.get("prompt") or ""]
    return [t for t in found if t]


TEXTS = _texts()
SCANNERS = table.scanners()


def _literals(scanner: Scanner) -> list[str]:
    out: list[str] = []
    for piece in scanner.pieces():
        try:
            shape = analyze(piece, scanner.flags)
        except (ValueError, re.error):
            continue
        out += [a for a, _ in shape.anchors or ()]
        out += [g for gate in shape.gates or () for g in gate]
    return sorted(set(out))


def _built(scanner: Scanner) -> list[str]:
    """Texts made of the pattern's literals, in many surroundings."""
    rng = random.Random(scanner.source)
    lits = _literals(scanner) or ["x"]
    out = []
    for lit in lits:
        other = rng.choice(lits)
        odd = rng.choice(ODD)
        out += [
            lit,
            f"{lit} 3 passed in 0.2s, 12 tests ok: done",
            f"Well. {lit.upper()} and {other}!\n{lit}\n",
            f"x{lit}y {other}{lit}",
            f"- {lit.title()}: {other} `{lit}` \n\n{lit}?",
            lit.replace("i", odd).replace("s", odd) + f" {lit}",
            f"{odd}{lit}{odd} {lit.replace('e', 'É')}",
        ]
    return out


def _findall(rx: re.Pattern[str], matches: list[re.Match[str]]) -> list[object]:
    """What `re.findall` returns, from the matches of `re.finditer`."""
    if rx.groups == 0:
        return [m.group(0) for m in matches]
    if rx.groups == 1:
        return [m.group(1) or "" for m in matches]
    return [m.groups("") for m in matches]


def _same(scanner: Scanner, rx: re.Pattern[str], text: str) -> None:
    matches = list(rx.finditer(text))
    want = [(m.span(), m.groups()) for m in matches]
    got = [(m.span(), m.groups()) for m in scanner.finditer(text)]
    assert got == want, (scanner.source[:80], text[:200])
    assert scanner.search(text) == bool(matches)
    assert scanner.findall(text) == _findall(rx, matches)


@pytest.mark.parametrize("scanner", SCANNERS, ids=lambda s: s.name or s.source[:30])
def test_scanner_finds_what_re_finds(scanner: Scanner) -> None:
    rx = re.compile(scanner.source, scanner.flags)
    lowered = [t.lower() for t in TEXTS]
    if scanner.name == "lexicon":  # it reads lowercased text
        texts = [*lowered, *TEXTS[::5], *_built(scanner)]
    else:
        texts = [*TEXTS, *lowered[::5], *_built(scanner)]
    for text in texts:
        _same(scanner, rx, text)


@pytest.mark.parametrize("scanner", SCANNERS, ids=lambda s: s.name or s.source[:30])
def test_analysis_holds_for_every_match(scanner: Scanner) -> None:
    fold = bool(scanner.flags & re.IGNORECASE)
    texts = [*TEXTS[::4], *_built(scanner)]
    for piece in scanner.pieces():
        shape = analyze(piece, scanner.flags)
        rx = re.compile(piece, scanner.flags)
        for text in texts:
            if fold and (len(text.lower()) != len(text) or not folding.odd().isdisjoint(text)):
                continue
            view = text.lower() if fold else text
            for m in rx.finditer(text):
                s, e = m.span()
                if shape.anchors is not None:
                    assert any(_starts(view, s, a, p, fold) for a, p in shape.anchors), piece
                for gate in shape.gates or ():
                    assert any((g.lower() if fold else g) in view[s:e] for g in gate), piece


def _starts(view: str, at: int, literal: str, place: int, fold: bool) -> bool:
    if not view.startswith(literal.lower() if fold else literal, at):
        return False
    if place == START:
        return at == 0
    if place == LINE:
        return at == 0 or view[at - 1] == "\n"
    if place == WORD and literal and (literal[0].isalnum() or literal[0] == "_"):
        return at == 0 or not (view[at - 1].isalnum() or view[at - 1] == "_")
    return True


def test_lexicon_scanner_equals_the_former_single_alternation() -> None:
    """The former compiler hoisted one `\\b` over all bounded patterns: same matches."""
    lexicon = {"en": (r"\bfoo|bar", r"\bshould (?:work|pass)", r"^done\b", "[:;] fixed")}
    lexicon["zh"] = ("应该(?:可以|能)", "完成")
    bounded = [p for ps in lexicon.values() for p in ps if p.startswith(r"\b")]
    foreign = [p for ps in lexicon.values() for p in ps if not p[0].isascii()]
    other = [p for ps in lexicon.values() for p in ps if p not in bounded and p not in foreign]
    former = re.compile(
        rf"\b(?:{'|'.join(f'(?:{p[2:]})' for p in bounded)})"
        rf"|(?=[^\x00-\x7f])(?:{'|'.join(f'(?:{p})' for p in foreign)})"
        + "".join(f"|(?:{p})" for p in other),
        re.M,
    )
    scanner = base.compile_lexicon(lexicon)
    for text in [
        "xbar foo should pass",
        "done: fixed\ndone",
        "应该可以完成",
        "abar; fixed",
        *TEXTS,
    ]:
        low = text.lower()
        assert [m.span() for m in scanner.finditer(low)] == [m.span() for m in former.finditer(low)]


@pytest.mark.parametrize(
    ("source", "flags", "text"),
    [
        (r"(?i)abc|def", 0, "ABC def"),  # inline flags: the whole pattern runs
        (r"a*|b", 0, "bbb"),  # a match may be empty: the whole pattern runs
        (r"(a)\1|(b)\2", 0, "aa bb"),  # back-references across alternatives
        (r"\bstill (?:fail)|risk", re.I, "STİLL FAIL rıSK ſtill fail"),  # odd folding
        (r"\b(?:σ|ß)x|Kelvin", re.I, "ΣX ßX KELVIN"),
        (r"(?x) a | b ", 0, "a b"),
    ],
)
def test_patterns_the_analysis_does_not_read_still_match_as_re(
    source: str, flags: int, text: str
) -> None:
    scanner = Scanner(source, flags)
    rx = re.compile(source, flags)
    _same(scanner, rx, text)
    assert scanner.findall(text) == rx.findall(text)


def test_pieces_that_start_only_at_line_starts_are_found_after_a_newline() -> None:
    """Searched as "\\n" + piece in "\\n" + text: same matches as `re`, at the text's
    start, after blank lines and at every other line start; not for a piece that reads
    behind its start or asks for the text's start."""
    source = (
        r"^\s*(?!\s)(?:[-*]\s*)?(?:fixed|added)\b|^[ \t]*(?:FAIL|ok)\b.*$|^\W{0,3}(x)(y)?\b|"
        r"^(?<!a)\W?q\b|^\b\w*z|(?:^|\.)\W?w|\A\W?v|^\W?u\Z"
    )
    for flags in (re.M, re.M | re.I):
        scanner = Scanner(source, flags)
        plan = scanner._ready()
        assert plan is not None
        after = [p.newline is not None for p in plan.pieces]
        assert after == [True, True, True, False, True, False, False, True]
        rx = re.compile(source, flags)
        rng = random.Random(flags)
        parts = ["\n", " ", "\t", "- ", "* ", "fixed", "added", "FAIL", "ok", "x", "y", "q", "z"]
        parts += [".", "w", "v", "u", "a", "Fixed", "É", "\n\n", "\r\n", "#", "!"]
        texts = ["".join(rng.choice(parts) for _ in range(rng.randint(0, 12))) for _ in range(4000)]
        for text in texts:
            _same(scanner, rx, text)


def test_split_alternatives_respects_groups_classes_and_escapes() -> None:
    assert split_alternatives(r"a|(b|c)|[|x]|\|d|[]|]|e") == [
        "a",
        "(b|c)",
        "[|x]",
        r"\|d",
        "[]|]",
        "e",
    ]


def test_analysis_reads_starts_and_required_literals() -> None:
    shape = analyze(r"\b(?:i'?ll|let me)\b", 0)
    assert shape.anchors == (("i'll", WORD), ("ill", WORD), ("let me", WORD))
    assert analyze(r"^\s*FAIL", re.M).anchors == (("", LINE),)
    now = analyze(r"(?:^|[.!]\s+)now,? \w+ing", 0)
    assert now.anchors == (("", LINE), ("!", 0), (".", 0))
    assert now.gates is not None and now.gates[:2] == (("now ", "now, "), ("ing",))
    assert analyze(r"\w+ing\b", 0).anchors is None
    assert analyze(r"(a)(b)?", 0).groups == 2


def test_the_table_is_current() -> None:
    """Rewrite it with `python -m coachloop.scan.table` after changing a pattern."""
    current = json.loads(table.TABLE_FILE.read_text(encoding="utf-8"))
    assert current == table.build()
    assert coachloop.evidence.text.extract("exit code 0").exit_codes == (0,)
