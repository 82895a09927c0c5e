"""The one redaction: secrets hidden from every text coachloop stores, logs, delivers or shows.

`redact(text)` replaces every secret `CATALOGUE` recognises (and every value `register`ed,
such as the bot token or the server's token) by `REDACTED`, in one pass of one compiled
expression: the formats are alternatives of a single pattern, tried left to right at each
position, most specific first. A vendor format (`sk-ant-…`, `ghp_…`, `AKIA…`, a PEM block)
is redacted on sight; a generic one (`password: …`, `API_TOKEN=…`, `"client_secret": …`)
keeps its name and loses its value, and for names that may hold ordinary words
(`token`, `secret`, `key`) only when the value looks random (`looks_secret`: long enough,
Shannon entropy of at least `MIN_ENTROPY` bits per character, not a placeholder, not a
code reference), so `max_tokens = 4096` or `key = cache_key` stay readable.

`redact_value(obj)` redacts a JSON-like value deeply, and hides every non-empty value of a
field whose name says it holds a secret. `printable(text)` removes terminal control
sequences (ANSI CSI/OSC, other escapes, C0/C1 controls but newline and tab), for text an
agent wrote that is printed on a terminal. Redaction is idempotent: `redact(redact(t)) ==
redact(t)` (a pass that hid something is followed by another, up to `MAX_PASSES`: a secret
written right after another one is seen only once the first is hidden). Standard library
only (it runs on the hook path); nothing compiles at import.
"""

from __future__ import annotations

import contextlib
import logging
import math
import re
import threading
from collections import Counter
from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Any

from coachloop.redaction.catalogue import CATALOGUE, REDACTED, Format

__all__ = [
    "CATALOGUE",
    "REDACTED",
    "Format",
    "LogFilter",
    "entropy",
    "generation",
    "looks_secret",
    "printable",
    "redact",
    "redact_value",
    "register",
    "scrub_record",
    "secret_field",
    "shown",
]

MIN_ENTROPY = 3.0  # bits per character of a generic value that counts as random
MIN_GENERIC = 8  # characters of a generic value that may be a secret
_PLACEHOLDER = re.compile(
    r"^(?:[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|[A-Z]+)$"  # an environment variable's name
    r"|^(?i:\$\{?[A-Za-z_][A-Za-z0-9_]*\}?|<[^>]*>|\{\{[^}]*\}\}|%[A-Za-z_]+%|\*+|x+|\.+|"
    r"none|null|nil|true|false|undefined|changeme|redacted|\[redacted\]|your[_\-].*|example.*|"
    r"os\.environ.*|process\.env.*|env\(.*|getenv.*)$"
)
_CODE_REF = re.compile(r"[a-z_][a-z_]*(?:\.[a-z_][a-z_]*)*[(\[]?")
_WORD = re.compile(r"[a-z]{1,12}")
_CONTROLS = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]"  # CSI (colours, cursor moves, screen clears)
    r"|\x1b\][^\x07\x1b]{0,4096}(?:\x07|\x1b\\)?"  # OSC (titles, hyperlinks, clipboard)
    r"|\x1b[PX^_][^\x1b]{0,4096}(?:\x1b\\)?"  # DCS, SOS, PM, APC strings
    r"|\x1b[ -/]*[0-~]?"  # any other escape
    r"|[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]"  # controls, bidi overrides
)
# The `register`ed values and their generation (how many were registered), replaced
# together under `_LOCK`, never changed in place: a `redact` in another thread reads
# one consistent pair and iterates a set no one changes.
_REGISTERED: list[tuple[int, frozenset[str]]] = [(0, frozenset())]
_LOCK = threading.Lock()
# Texts `redact` returned lately, with the generation of `register`ed values they were
# redacted against: only a text a whole pass left unchanged (a fixed point) is kept, so
# a text redacted at the door and again by the supervisor, or a session's stop record
# `pack`ed again, is looked up, not scanned again; the least recently used go first.
_CLEAN: dict[str, int] = {}
CLEAN_TEXTS = 512  # the memory this takes: at most CLEAN_TEXTS * CLEAN_CHARS characters
CLEAN_CHARS = 8_192
MAX_PASSES = 4  # passes of `redact` until nothing more is hidden (two where a secret is)


def looks_secret(value: str, *, password: bool = False) -> bool:
    """True when a generic value should be hidden: never a placeholder (`$VAR`, `<key>`,
    `None`, `***`); a password unless it is a plain lowercase word (`password: required`);
    any other value when it has `MIN_GENERIC` characters or more, is not a code reference
    (`settings.api_token`) and its entropy is at least `MIN_ENTROPY` bits per character."""
    value = value.strip("\"'`")
    if not value or _PLACEHOLDER.match(value) or REDACTED in value:
        return False
    if password:
        return not _WORD.fullmatch(value)
    if len(value) < MIN_GENERIC or _CODE_REF.fullmatch(value):
        return False
    return entropy(value) >= MIN_ENTROPY


def entropy(value: str) -> float:
    """Shannon entropy of `value`, in bits per character."""
    n = len(value)
    return -sum(c / n * math.log2(c / n) for c in Counter(value).values()) if n else 0.0


@lru_cache(maxsize=512)
def _compiled(
    active: tuple[int, ...],
) -> tuple[re.Pattern[str], tuple[tuple[Format, re.Pattern[str]], ...]]:
    """For the formats `active` (indexes into `CATALOGUE`): the union of their
    alternatives (no groups: a group first in an alternative would cost `re` its skip to
    candidate positions), and each alternative on its own, with its groups, in the same
    order: the first that matches where the union matched is the one the union took."""
    alternatives = tuple((CATALOGUE[i], p) for i in active for p in CATALOGUE[i].patterns)
    union = "|".join(p.replace("(?P<val>", "(?:") for _, p in alternatives)
    return re.compile(union), tuple((fmt, re.compile(p)) for fmt, p in alternatives)


_BY_USE = "etaoinsrhldcumfpgwybvkxjqz"  # English letters, the most used first


def _rarest(needle: str) -> str:
    """The character of `needle` least likely in prose: a non-letter, else its rarest letter."""
    return min(needle, key=lambda c: (1, -_BY_USE.index(c)) if c in _BY_USE else (0, 0))


_NEEDLES = tuple((n, i, _rarest(n)) for i, fmt in enumerate(CATALOGUE) for n in fmt.needles)


def _by_rarest() -> tuple[tuple[str, tuple[tuple[str, int], ...]], ...]:
    groups: dict[str, list[tuple[str, int]]] = {}
    for needle, i, rarest in _NEEDLES:
        groups.setdefault(rarest, []).append((needle, i))
    return tuple((c, tuple(group)) for c, group in groups.items())


_BY_RAREST = _by_rarest()  # the needles grouped by their rarest character (20 of them)


def _active(text: str) -> tuple[int, ...]:
    """The formats whose needles occur in `text` (lowercased), in one flat pass (it runs
    on every stop's text: a loop per format cost several times more): a group of needles
    is searched only when the text holds the rarest character they share, one search of
    the text per group (a set of the text's characters cost more than all of them):
    11 -> 6 us at 500 characters of prose, 19 -> 4 us at 2,000 of one letter."""
    lowered = text.lower()
    found = {i for c, group in _BY_RAREST if c in lowered for n, i in group if n in lowered}
    return tuple(sorted(found))


def _replacer(
    text: str, alternatives: tuple[tuple[Format, re.Pattern[str]], ...]
) -> Callable[[re.Match[str]], str]:
    def replace(match: re.Match[str]) -> str:
        start, end = match.span()
        for fmt, pattern in alternatives:
            found = pattern.match(text, start)
            if found is None or found.end() != end:
                continue
            if "val" not in pattern.groupindex:
                return REDACTED
            value = found.group("val") or ""
            a, b = found.span("val")
            # An upper-case name (`DEPLOY_TOKEN=`) is an environment variable: its value is
            # a credential whatever it looks like, as a password is.
            strict = fmt.check == "password" or text[start:a].strip("\"' \t:=>").isupper()
            if fmt.check and not looks_secret(value, password=strict):
                # not a secret itself, but it may hold one of a vendor's format
                return text[start:a] + redact(value) + text[b:end]
            return text[start:a] + REDACTED + text[b:end]
        return REDACTED  # unreachable: the union matched one of its alternatives

    return replace


def _pass(text: str, secrets: frozenset[str]) -> str:
    """`text` with `secrets` and the catalogued formats hidden, once."""
    for secret in secrets:
        if secret in text:
            text = text.replace(secret, REDACTED)
    active = _active(text)
    if active:
        union, alternatives = _compiled(active)
        text = union.sub(_replacer(text, alternatives), text)
    return text


def redact(text: str) -> str:
    """`text` with every catalogued secret and every registered value replaced by
    `REDACTED` (a name or scheme before a secret is kept). Linear in `len(text)`: one
    pass, and another after each that hid something (`MAX_PASSES` at most)."""
    if not text:
        return text
    generation, secrets = _REGISTERED[0]
    if _CLEAN.get(text) == generation:
        _CLEAN.pop(text, None)  # used again: the newest now
        _CLEAN[text] = generation
        return text
    for _ in range(MAX_PASSES):
        hidden = _pass(text, secrets)
        if hidden == text:  # a fixed point: redacting it again changes nothing
            _remember(text, generation)
            return text
        text = hidden
    return text


def _remember(text: str, generation: int) -> None:
    if len(text) > CLEAN_CHARS:
        return
    _CLEAN[text] = generation
    while len(_CLEAN) > CLEAN_TEXTS:  # a loop: another thread may have added one too
        # the oldest goes (another thread may have taken it or changed the memory)
        with contextlib.suppress(KeyError, RuntimeError, StopIteration):
            del _CLEAN[next(iter(_CLEAN))]


def register(secret: str) -> None:
    """Hide this exact value everywhere from now on (a token coachloop itself holds).
    Values shorter than 8 characters are ignored (they would hide ordinary words)."""
    if secret and len(secret) >= 8:
        with _LOCK:
            generation, secrets = _REGISTERED[0]
            # a new generation: the texts known clean may hold it, so they are scanned again
            _REGISTERED[0] = (generation + 1, secrets | {secret})


def generation() -> int:
    """How many values were `register`ed so far: a text `redact` left as it was at one
    generation may hold a secret at the next (for callers that remember clean texts)."""
    return _REGISTERED[0][0]


_SECRET_FIELD = re.compile(
    r"token|secret|password|passwd|credential|authorization|api[_\-]?key|private[_\-]?key"
    r"|access[_\-]?key|cookie",
    re.I,
)


def secret_field(name: str) -> bool:
    """True when a field of this name holds a secret whatever its value looks like."""
    return bool(_SECRET_FIELD.search(name))


def redact_value(value: Any) -> Any:
    """A deep copy of a JSON-like `value` with secrets hidden: strings are `redact`ed, and
    every non-empty value of a field whose name says it holds a secret is replaced."""
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, Mapping):
        out: dict[str, Any] = {}
        for k, v in value.items():
            name = str(k)
            hidden = (
                secret_field(name)
                and v not in (None, "", [], {})
                and not isinstance(v, bool | int | float)
            )
            out[name] = REDACTED if hidden else redact_value(v)
        return out
    if isinstance(value, list | tuple):
        return [redact_value(v) for v in value]
    return value


def scrub_record(record: logging.LogRecord) -> None:
    """Rewrite a log record in place so that its message and traceback are redacted."""
    try:
        message = record.getMessage()
    except Exception:  # a broken format string: leave it to logging's own error path
        return
    clean = redact(message)
    if clean != message:
        record.msg, record.args = clean, None
    if record.exc_info and not record.exc_text:
        record.exc_text = redact(logging.Formatter().formatException(record.exc_info))
    elif record.exc_text:
        record.exc_text = redact(record.exc_text)


class LogFilter(logging.Filter):
    """A handler filter that redacts every record it passes (it never drops one)."""

    def filter(self, record: logging.LogRecord) -> bool:
        scrub_record(record)
        return True


def printable(text: str) -> str:
    """`text` safe to print on a terminal: escape sequences and control characters
    removed (newline and tab kept; a carriage return becomes a newline, so a line cannot
    overwrite what was printed before it)."""
    if text.isprintable():
        return text
    return _CONTROLS.sub("", text.replace("\r\n", "\n").replace("\r", "\n"))


def shown(text: str) -> str:
    """`text` as it may be shown to a person: redacted, then `printable`."""
    return printable(redact(text))
