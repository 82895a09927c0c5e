"""Markdown marks found from the marks themselves instead of by a regex tried everywhere.

Each function answers exactly what its regular expression (in its docstring) answers:
those patterns open on a line start (`^`, MULTILINE), which gives `re` nothing to skip
ahead with, so it tries every position of the text; here `str.find` jumps from one
fence mark to the next and only the lines that hold one are read
(`tests/test_judge_rewrites.py` compares both forms).
"""

from __future__ import annotations

from coachloop.scan.lazy import LazyPattern

__all__ = ["fence_langs", "fence_spans", "headings"]

_MARKS = ("```", "~~~")
_LANG = LazyPattern(r"[\w+-]*")
_HEADS = ("# ", "## ", "### ", "#### ")


def _line_start(text: str, at: int) -> int:
    return text.rfind("\n", 0, at) + 1


def _opens_line(text: str, at: int) -> bool:
    """Only spaces and tabs stand before `at` on its line."""
    return not text[_line_start(text, at) : at].strip(" \t")


def fence_langs(text: str) -> list[str]:
    r"""`re.findall(r"^[ \t]*```([\w+-]*)", text, re.M)`: the word after the ``` that
    opens a line. A ``` with something else before it on its line rules out the rest
    of that line too, so the search goes on from the next line."""
    found: list[str] = []
    at = text.find("```")
    while at != -1:
        if _opens_line(text, at):
            match = _LANG.match(text, at + 3)
            found.append(match.group() if match else "")
        newline = text.find("\n", at)
        at = -1 if newline == -1 else text.find("```", newline)
    return found


def _next_opening(text: str, pos: int, ahead: dict[str, int]) -> tuple[int, str, int] | None:
    """The first line at or after `pos` that opens a fence: (its start, the mark, where
    the block's body starts). An opening line needs a newline after it.

    `ahead`: where each mark was last found (-1: nowhere further), kept by the caller
    across calls; a mark is looked for again only once `pos` has passed it, so a mark
    the text lacks is not searched for again on every line or block (linear, as the
    regex is)."""
    while True:
        for mark, at in ahead.items():
            if -1 < at < pos:
                ahead[mark] = text.find(mark, pos)
        found = [(at, mark) for mark, at in ahead.items() if at != -1]
        if not found:
            return None
        at, mark = min(found)
        newline = text.find("\n", at + 3)
        if _opens_line(text, at):
            return None if newline == -1 else (_line_start(text, at), mark, newline + 1)
        if newline == -1:
            return None
        pos = newline + 1  # nothing else on this line can open a fence


def _closing(text: str, mark: str, body: int) -> int:
    """Where the block opened by `mark` ends: the end of its first line from `body` on
    that is the mark alone (spaces and tabs around it), else the end of the text."""
    at = text.find(mark, body)
    while at != -1:
        end = text.find("\n", at)
        end = len(text) if end == -1 else end
        if text[_line_start(text, at) : end].strip(" \t") == mark:
            return end
        at = text.find(mark, end)
    return len(text)


def fence_spans(text: str) -> list[tuple[int, int]]:
    r"""The spans of `re.finditer(r"^[ \t]*(```|~~~)[^\n]*\n.*?(?:^[ \t]*\1[ \t]*$|\Z)",
    text, re.M | re.S)`: each block from its opening line to the end of its closing
    line (or of the text), the next one looked for after it."""
    spans: list[tuple[int, int]] = []
    pos = 0
    ahead = {mark: text.find(mark) for mark in _MARKS}
    while (opening := _next_opening(text, pos, ahead)) is not None:
        start, mark, body = opening
        pos = _closing(text, mark, body)
        spans.append((start, pos))
    return spans


def headings(text: str) -> int:
    r"""`len(re.findall(r"^#{1,4} ", text, re.M))`: a line opens with one of `_HEADS` at
    most, and each occurrence after a newline opens a line."""
    return int(text.startswith(_HEADS)) + sum(text.count("\n" + head) for head in _HEADS)
