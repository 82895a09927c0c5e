"""Batch judging: one JSON object per input line in, one JSON result per line out.

Contract of `judge_lines`: for every non-blank physical line it yields exactly one
dict, in input order, carrying `"line": N` (1-based physical line number, blank lines
counted but skipped). A good line yields the full verdict dict; a bad line (not JSON,
not an object, a `text` that is not a string, an unknown `event`) yields
`{"line": N, "error": "..."}` and the batch goes on. Invalid UTF-8 is decoded with
replacement characters and judged. A line's `id` (a string or a number) is echoed as
`"id"` in its result, so results can be joined to inputs. The work per line is linear
in its length.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pydantic import BaseModel

    from coachloop.core.judge_input import JudgeInput
    from coachloop.judge import Judge

__all__ = ["judge_lines", "parse_line"]

_MODEL: type[BaseModel] | None = None


def _line_model() -> type[BaseModel]:
    """The pydantic model of a batch line, built on first use (pydantic is slow to import)."""
    global _MODEL  # noqa: PLW0603 - a lazily built module constant
    if _MODEL is None:
        from pydantic import BaseModel, ConfigDict, StrictStr

        from coachloop.core.judge_input import EventKind

        class BatchLine(BaseModel):
            """One batch line; unknown keys (ids, labels) are ignored."""

            model_config = ConfigDict(extra="ignore", frozen=True)

            text: StrictStr
            prompt: StrictStr | None = None
            skill: StrictStr | None = None
            phase: StrictStr | None = None
            plan: StrictStr | None = None
            event: EventKind = "Stop"
            error: StrictStr | None = None

        _MODEL = BatchLine
    return _MODEL


def _describe(value: Any) -> str:
    names = {list: "a JSON array", str: "a JSON string", bool: "a JSON boolean"}
    if value is None:
        return "JSON null"
    if isinstance(value, int | float) and not isinstance(value, bool):
        return "a JSON number"
    return names.get(type(value), type(value).__name__)


def parse_line(line: str) -> JudgeInput | str:
    """A `JudgeInput` for one decoded line, or a message saying what is wrong with it."""
    from pydantic import ValidationError

    from coachloop.core.judge_input import JudgeInput

    try:
        data = json.loads(line)
    except ValueError as exc:
        return f"line is not valid JSON: {exc}"
    if not isinstance(data, dict):
        return f"line is {_describe(data)}, not a JSON object"
    try:
        item: Any = _line_model().model_validate(data)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc']) or 'line'}: {err['msg']}"
            for err in exc.errors(include_url=False)
        )
        return f"invalid line: {problems}"
    return JudgeInput(
        text=item.text,
        prompt=item.prompt,
        skill=item.skill,
        phase=item.phase,
        plan_file=item.plan,
        event=item.event,
        error=item.error,
    )


def _line_id(line: str) -> dict[str, Any]:
    """`{"id": value}` when the line is an object with a string or number `id`, else {}."""
    if '"id"' not in line:
        return {}
    try:
        data = json.loads(line)
    except ValueError:
        return {}
    value = data.get("id") if isinstance(data, dict) else None
    ok = isinstance(value, str | int | float) and not isinstance(value, bool)
    return {"id": value} if ok else {}


def judge_lines(lines: Iterable[bytes | str], judge: Judge) -> Iterator[dict[str, Any]]:
    """Judge each non-blank line; see the module docstring for the exact contract."""
    for number, raw in enumerate(lines, start=1):
        line = raw.decode("utf-8", errors="replace") if isinstance(raw, bytes) else raw
        if number == 1:
            line = line.removeprefix("\ufeff")
        if not line.strip():
            continue
        parsed = parse_line(line)
        ident = _line_id(line)
        if isinstance(parsed, str):
            yield {"line": number, **ident, "error": parsed}
            continue
        try:
            verdict = judge.judge(parsed)
        except Exception as exc:  # a judge must not raise; if it does, the batch goes on
            yield {"line": number, **ident, "error": f"judge failed: {type(exc).__name__}: {exc}"}
            continue
        yield {"line": number, **ident, **verdict.to_dict()}
