"""Session ids as people type them: in full, or shortened to their first characters.

The tables, the bridge and `deliveries.log` print ids in a short form (`short(id)`, the
first 8 characters); every command that takes a session id accepts that form, or any
unambiguous prefix, through `resolve()`. An id that matches nothing is answered with
the closest ids the store knows ("did you mean").
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable

__all__ = ["SHORT", "AmbiguousId", "UnknownId", "resolve", "short"]

SHORT = 8  # characters of an id shown in tables; enough to be unique in practice


class UnknownId(LookupError):  # noqa: N818 - reads as a sentence
    """No session has this id or an id starting with it; the message suggests close ones."""


class AmbiguousId(LookupError):  # noqa: N818 - reads as a sentence
    """Several sessions start with this prefix; the message lists a few."""


def short(session_id: str) -> str:
    """The short form of an id shown in tables (accepted back by `resolve`)."""
    return session_id[:SHORT]


def resolve(given: str, known: Iterable[str], where: str = "") -> str:
    """The one id of `known` that is `given` or starts with it (`where` names the store
    in the messages).

    Raises `UnknownId` (with "did you mean" when an id is close) or `AmbiguousId`.
    """
    ids = list(known)
    if given in ids:
        return given
    matches = [i for i in ids if i.startswith(given)] if given else []
    if len(matches) == 1:
        return matches[0]
    if matches:
        listed = ", ".join(short(m) + "…" for m in sorted(matches)[:5])
        raise AmbiguousId(
            f"session id {given!r} is ambiguous ({len(matches)} sessions start with it: "
            f"{listed}): give more characters"
        )
    close = difflib.get_close_matches(given, [short(i) for i in ids] + ids, n=3, cutoff=0.6)
    hint = f"; did you mean {' or '.join(repr(c) for c in dict.fromkeys(close))}?" if close else ""
    raise UnknownId(
        f"unknown session {given!r}{f' in {where}' if where else ''}{hint} "
        "(`coachloop sessions` lists the sessions)"
    )
