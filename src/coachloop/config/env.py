"""coachloop's own environment variables (`COACHLOOP_*`), read in one place.

`environment()` is the one reader of the `COACHLOOP_*` variables coachloop's modules
consult (`tests/test_architecture_env.py` checks that no other module reads them, bar
the exceptions listed there). It returns one frozen, typed `Environment`, built once
per process and environment: the object is kept with the values it was built from and
rebuilt only when one of them changes. A real process never changes its own
environment, so it is built once; a test that sets a variable (`monkeypatch.setenv`)
gets a fresh object on its next read, with nothing to reset. Checking the key costs
under a microsecond (`_values`): this module is on the hook path and imports only the
standard library.

Values are kept as given (an empty variable counts as unset); the reader that owns a
value checks it where it is used, with the message naming the variable, as before.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass

HOME = "COACHLOOP_HOME"
STORE = "COACHLOOP_STORE"
REDIS_PREFIX = "COACHLOOP_REDIS_PREFIX"
DEBUG = "COACHLOOP_DEBUG"
SERVE_TOKEN = "COACHLOOP_SERVE_TOKEN"
SNAPSHOT_RETENTION = "COACHLOOP_SNAPSHOT_RETENTION_DAYS"
CLAUDE = "COACHLOOP_CLAUDE"
TELEGRAM_TOKEN = "COACHLOOP_TELEGRAM_TOKEN"
TELEGRAM_ALLOWED = "COACHLOOP_TELEGRAM_ALLOWED"
TELEGRAM_API_URL = "COACHLOOP_TELEGRAM_API_URL"
BENCH_DIR = "COACHLOOP_BENCH_DIR"

# The settings' variables (`coachloop.config.Settings`): the variable, the field.
SETTINGS_FIELDS: dict[str, str] = {
    "COACHLOOP_JUDGE": "judge",
    "COACHLOOP_MODEL": "model",
    "COACHLOOP_LLM_BASE_URL": "llm_base_url",
    "COACHLOOP_CONFIDENCE_THRESHOLD": "confidence_threshold",
    "COACHLOOP_LLM_TIMEOUT": "llm_timeout",
    "COACHLOOP_MAX_AUTO_CONTINUES": "max_auto_continues",
}

NAMES: tuple[str, ...] = (
    HOME,
    STORE,
    REDIS_PREFIX,
    DEBUG,
    SERVE_TOKEN,
    SNAPSHOT_RETENTION,
    CLAUDE,
    TELEGRAM_TOKEN,
    TELEGRAM_ALLOWED,
    TELEGRAM_API_URL,
    BENCH_DIR,
    *SETTINGS_FIELDS,
)


@dataclass(frozen=True, slots=True)
class Environment:
    """The `COACHLOOP_*` variables coachloop reads; None (or False) means unset or empty.

    `settings` holds the set settings' variables as `(variable, value)` pairs, in the
    order of `SETTINGS_FIELDS`: `load_settings` types and checks them, naming the
    variable in its error. `serve_token` is stripped (blank is unset). The Telegram
    token is a secret: it is kept out of `repr` so it never reaches a log.
    """

    home: str | None = None
    store: str | None = None
    redis_prefix: str | None = None
    debug: bool = False
    serve_token: str | None = None
    snapshot_retention_days: str | None = None
    claude: str | None = None
    telegram_token: str | None = None
    telegram_allowed: str | None = None
    telegram_api_url: str | None = None
    bench_dir: str | None = None
    settings: tuple[tuple[str, str], ...] = ()

    def __repr__(self) -> str:
        shown = {
            name: "***" if name in ("serve_token", "telegram_token") and value else value
            for name in self.__slots__
            if (value := getattr(self, name)) not in (None, False, ())
        }
        return f"Environment({', '.join(f'{k}={v!r}' for k, v in shown.items())})"


def from_mapping(env: Mapping[str, str]) -> Environment:
    """The `Environment` of `env` (any mapping of variables, e.g. a test's dict)."""

    def get(name: str) -> str | None:
        return env.get(name) or None

    token = (env.get(SERVE_TOKEN) or "").strip()
    return Environment(
        home=get(HOME),
        store=get(STORE),
        redis_prefix=get(REDIS_PREFIX),
        debug=env.get(DEBUG) == "1",
        serve_token=token or None,
        snapshot_retention_days=get(SNAPSHOT_RETENTION),
        claude=get(CLAUDE),
        telegram_token=get(TELEGRAM_TOKEN),
        telegram_allowed=get(TELEGRAM_ALLOWED),
        telegram_api_url=get(TELEGRAM_API_URL),
        bench_dir=get(BENCH_DIR),
        settings=tuple((var, value) for var in SETTINGS_FIELDS if (value := env.get(var))),
    )


_BUILT: list[tuple[tuple[object, ...], Environment]] = []
_ENCODED = tuple(os.fsencode(name) for name in NAMES)


def _values() -> tuple[object, ...]:
    """The current values of `NAMES`, to compare with the ones `_BUILT` was built from.
    On POSIX they are looked up in `os.environ`'s own table of encoded variables (which
    every write through `os.environ`, `monkeypatch` included, updates): all of them in
    well under a microsecond, where `os.environ.get` decodes each (about a microsecond
    apiece), and `home()` asks on every call, several times a stop."""
    data = getattr(os.environ, "_data", None)
    if os.name == "posix" and isinstance(data, dict):
        return tuple(map(data.get, _ENCODED))
    return tuple(map(os.environ.get, NAMES))


def environment() -> Environment:
    """This process's `Environment`: built on first use, rebuilt only when one of the
    `NAMES` variables has changed since (tests set them per test)."""
    key = _values()
    if _BUILT and _BUILT[0][0] == key:
        return _BUILT[0][1]
    built = from_mapping(os.environ)
    _BUILT[:] = [(key, built)]
    return built
