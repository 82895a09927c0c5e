"""`LazyPattern`: a regular expression compiled on its first use, not at import.

The Stop hook imports the judge in a fresh process; every pattern compiled at import
is paid there whether the message needs it or not.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterator
from typing import Any

__all__ = ["LazyPattern"]


class LazyPattern:
    """The methods of `re.compile(source, flags)` that the judge uses, compiled lazily."""

    __slots__ = ("_rx", "flags", "source")

    def __init__(self, source: str, flags: int = 0) -> None:
        self.source = source
        self.flags = int(flags)
        self._rx: re.Pattern[str] | None = None

    @property
    def rx(self) -> re.Pattern[str]:
        """The compiled pattern."""
        if self._rx is None:
            self._rx = re.compile(self.source, self.flags)
        return self._rx

    def search(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self.rx.search(text, pos, endpos)

    def match(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self.rx.match(text, pos, endpos)

    def fullmatch(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self.rx.fullmatch(text, pos, endpos)

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        return self.rx.finditer(text)

    def findall(self, text: str) -> list[Any]:
        return self.rx.findall(text)

    def sub(self, repl: str | Callable[[re.Match[str]], str], text: str) -> str:
        return self.rx.sub(repl, text)

    def split(self, text: str) -> list[str | Any]:
        return self.rx.split(text)
