"""Loading benchmark files and finding the shared benchmark directory.

A labelled row carries `text` and `type` (optional `route`, `rejected_completion`);
a peer row carries `text` and `expected` (a type or "!status") instead of `type`.
Any row may carry `id`, `prompt`, `event` ("Stop", "SubagentStop", "StopFailure"),
`skill`, `phase`, `plan` and `error`. A row without an `id` is named
`<file stem>:<line>`. A file that breaks these rules raises `BenchDataError` naming
the file and line: a benchmark must not silently drop rows.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from coachloop.config.env import BENCH_DIR
from coachloop.core.judge_input import EVENT_KINDS, EventKind, JudgeInput
from coachloop.core.verdict import MESSAGE_TYPES, MessageType, Route, route_for

__all__ = [
    "DEFAULT_FILES",
    "ENV_BENCH_DIR",
    "BenchDataError",
    "BenchRow",
    "find_bench_dir",
    "load_rows",
]

ENV_BENCH_DIR = BENCH_DIR
DEFAULT_FILES = ("dev.jsonl", "real.jsonl", "peer_valor.jsonl")
_NOT_STATUS = "!status"


class BenchDataError(ValueError):
    """A benchmark file or directory that cannot be used; the message says which."""


@dataclass(frozen=True, slots=True)
class BenchRow:
    """One benchmark row: the input to judge and its label.

    Exactly one of `gold_type` (labelled rows) and `expected` (peer rows) is set.
    `gold_route` is the row's route, derived from the label when the row has none.
    """

    id: str
    item: JudgeInput
    gold_type: MessageType | None = None
    expected: str | None = None
    gold_route: Route = "deliver"
    rejected: bool = False
    source: str | None = None
    agent: str | None = None
    lang: str | None = None

    @property
    def gold(self) -> str:
        """The label as shown to people: the type, or the expected value."""
        return self.gold_type or self.expected or ""


def _opt_str(data: dict[str, Any], key: str, where: str) -> str | None:
    value = data.get(key)
    if value is None or isinstance(value, str):
        return value
    raise BenchDataError(f"{where}: {key!r} must be a string or null")


def _row(data: dict[str, Any], where: str, default_id: str) -> BenchRow:
    text = data.get("text")
    if not isinstance(text, str):
        raise BenchDataError(f"{where}: 'text' must be a string")
    event = data.get("event") or "Stop"
    if event not in EVENT_KINDS:
        raise BenchDataError(f"{where}: unknown event {event!r}")
    item = JudgeInput(
        text=text,
        prompt=_opt_str(data, "prompt", where),
        skill=_opt_str(data, "skill", where),
        phase=_opt_str(data, "phase", where),
        plan_file=_opt_str(data, "plan", where),
        event=cast(EventKind, event),
        error=_opt_str(data, "error", where),
    )
    row_id = str(data["id"]) if data.get("id") is not None else default_id
    source = _opt_str(data, "source", where)
    agent = _opt_str(data, "agent", where)
    lang = _opt_str(data, "lang", where)
    kind, expected = data.get("type"), data.get("expected")
    if kind is not None:
        if kind not in MESSAGE_TYPES:
            raise BenchDataError(f"{where}: unknown type {kind!r}")
        gold = cast(MessageType, kind)
        route = data.get("route") or route_for(gold)
        if route not in ("deliver", "continue"):
            raise BenchDataError(f"{where}: unknown route {route!r}")
        return BenchRow(
            id=row_id,
            item=item,
            gold_type=gold,
            gold_route=cast(Route, route),
            rejected=data.get("rejected_completion") is True,
            source=source,
            agent=agent,
            lang=lang,
        )
    if expected is not None:
        if expected != _NOT_STATUS and expected not in MESSAGE_TYPES:
            raise BenchDataError(f"{where}: unknown expected label {expected!r}")
        route = "deliver" if expected == _NOT_STATUS else route_for(cast(MessageType, expected))
        return BenchRow(
            id=row_id,
            item=item,
            expected=expected,
            gold_route=route,
            source=source,
            agent=agent,
            lang=lang,
        )
    raise BenchDataError(f"{where}: a row needs 'type' or 'expected'")


def load_rows(path: Path) -> list[BenchRow]:
    """All rows of the JSONL file at `path`, in order; blank lines are skipped."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise BenchDataError(f"cannot read {path}: {exc.strerror or exc}") from exc
    rows: list[BenchRow] = []
    for number, line in enumerate(raw.decode("utf-8", errors="replace").split("\n"), 1):
        if not line.strip():
            continue
        where = f"{path}:{number}"
        try:
            data = json.loads(line)
        except ValueError as exc:
            raise BenchDataError(f"{where}: not valid JSON: {exc}") from exc
        if not isinstance(data, dict):
            raise BenchDataError(f"{where}: a row must be a JSON object")
        rows.append(_row(data, where, f"{path.stem}:{number}"))
    return rows


def _candidates(starts: Iterable[Path]) -> Iterable[Path]:
    """`shared/bench` beside each start and its parents, nearest first (a tie goes to the
    earlier start): a project's own sibling beats one far above another start."""
    chains = [(start, *start.parents) for start in starts]
    for level in range(max(map(len, chains), default=0)):
        for chain in chains:
            if level < len(chain):
                yield chain[level] / "shared" / "bench"


def find_bench_dir(starts: Iterable[Path] | None = None, env: dict[str, str] | None = None) -> Path:
    """The benchmark directory: `$COACHLOOP_BENCH_DIR` when set, else the first
    `shared/bench` found beside the current directory, the package source or any of
    their parents, nearest first (the project's sibling `../shared/bench/`).

    Raises BenchDataError with a message saying where it looked.
    """
    from coachloop.config.env import environment, from_mapping

    named = (environment() if env is None else from_mapping(env)).bench_dir
    if named:
        chosen = Path(named).expanduser()
        if not chosen.is_dir():
            raise BenchDataError(f"${ENV_BENCH_DIR} is {chosen}, which is not a directory")
        return chosen
    if starts is None:
        starts = (Path.cwd(), Path(__file__).resolve().parent)
    starts = [Path(s).resolve() for s in starts]
    for candidate in _candidates(starts):
        if candidate.is_dir():
            return candidate
    looked = ", ".join(str(s) for s in starts)
    raise BenchDataError(
        "no benchmark directory found: name the files (from a clone: `coachloop bench "
        "tests/data/dev.jsonl`), set $COACHLOOP_BENCH_DIR, or put them in shared/bench/ "
        f"beside the project (searched upwards from {looked})"
    )
