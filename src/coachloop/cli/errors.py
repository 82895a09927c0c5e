"""One clear line for every failure of a command: what failed, why, and what to do.

`main()` of the CLI runs each command inside `boundary()`. Click's own usage errors
keep their text; any other exception becomes one line on stderr (exit 1) instead of a
traceback, unless `--debug` (or `COACHLOOP_DEBUG=1`) asks for the traceback. Known
causes get a specific line: a missing optional dependency names its extra and the
exact `pip` command; a service that does not answer names what to check. Secrets in
exception texts (a bot token in a URL, an API key) are hidden.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager

from coachloop.core.extras import EXTRAS, install_hint

__all__ = ["EXTRAS", "boundary", "describe", "install_hint", "is_debug"]

ENV_DEBUG = "COACHLOOP_DEBUG"

# exception class names (anywhere in the cause chain) that mean "nothing answered there"
_UNREACHABLE = (
    "ConnectError",
    "ConnectTimeout",
    "ConnectionRefusedError",
    "ConnectionError",
    "NetworkError",
    "TimedOut",
)


def is_debug(args: list[str]) -> bool:
    """Whether the user asked for tracebacks: `--debug` before the command, or the env."""
    from coachloop.config.env import environment

    return (bool(args) and args[0] == "--debug") or environment().debug


def _chain(exc: BaseException) -> Iterator[BaseException]:
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        yield current
        current = current.__cause__ or current.__context__


def _redact(text: str) -> str:
    from coachloop.redaction import shown

    return shown(text)


def describe(exc: BaseException) -> str:
    """The one line (without "Error: ") that explains `exc` to a user."""
    for cause in _chain(exc):
        if isinstance(cause, ModuleNotFoundError) and cause.name:
            top = cause.name.split(".")[0]
            if top in EXTRAS:
                extra = EXTRAS[top]
                return (
                    f"this needs the optional '{extra}' extra (Python module {top!r} is not "
                    f"installed): {install_hint(extra)}"
                )
    for cause in _chain(exc):
        names = {cls.__name__ for cls in type(cause).__mro__}
        if names.intersection(_UNREACHABLE):
            detail = _redact(str(cause) or type(cause).__name__).splitlines()[0]
            return (
                f"a service did not answer ({type(cause).__name__}: {detail}): check that "
                "it is running and that its URL is right (--debug shows the traceback)"
            )
    text = _redact(str(exc)).strip().splitlines()
    detail = f": {text[0]}" if text else ""
    return (
        f"unexpected {type(exc).__name__}{detail} (run `coachloop --debug ...` "
        "for the traceback, and report it)"
    )


@contextmanager
def boundary(debug: bool) -> Iterator[None]:
    """Run a command: any exception but an exit becomes one line on stderr and exit 1
    (with `debug`, the exception propagates and Python prints its traceback)."""
    try:
        yield
    except KeyboardInterrupt:
        print("Interrupted.", file=sys.stderr)
        sys.exit(130)
    except Exception as exc:
        if debug:
            raise
        print(f"Error: {describe(exc)}", file=sys.stderr)
        sys.exit(1)
