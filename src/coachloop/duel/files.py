"""The coordination files of one duel, under its root (default `.coachloop/duel/TASK_ID/`).

    <root>/coordination/player/turn_N/report.json    written by the player
    <root>/coordination/coach/turn_N/decision.json   written only by the orchestrator
    <root>/duel.json                                 the run's report (see report.py)

`read_report(turn)` never raises: a missing file, a file that is not JSON, or JSON that
breaks the report schema or names another task or turn gives a `ReportRead` with the
error and no report. Decisions are written atomically (temporary file, then rename),
and only from a validated `CoachDecision`.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from coachloop.duel import schemas

__all__ = ["Coordination", "PlayerReport", "ReportRead", "default_root", "default_task_id"]

MAX_REPORT_BYTES = 1_000_000


def default_task_id(requirements: Path, now: datetime | None = None) -> str:
    """`<requirements stem>-YYYYmmdd-HHMMSS` (UTC), e.g. "REQUIREMENTS-20250101-120000"."""
    stamp = (now or datetime.now(UTC)).strftime("%Y%m%d-%H%M%S")
    stem = re.sub(r"[^A-Za-z0-9_.-]+", "-", requirements.stem).strip("-.") or "task"
    return f"{stem}-{stamp}"


def default_root(project: Path, task_id: str) -> Path:
    """`<project>/.coachloop/duel/<task_id>`."""
    return project / ".coachloop" / "duel" / task_id


@dataclass(frozen=True, slots=True)
class PlayerReport:
    """A valid player report (fields as in report.schema.json)."""

    task_id: str
    turn: int
    files_modified: tuple[str, ...]
    tests_written: tuple[str, ...]
    implementation_notes: str
    tests_passing: bool | None = None
    concerns: tuple[str, ...] = ()

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> PlayerReport:
        """From a document already valid against the report schema."""
        return cls(
            task_id=data["task_id"],
            turn=data["turn"],
            files_modified=tuple(data["files_modified"]),
            tests_written=tuple(data["tests_written"]),
            implementation_notes=data["implementation_notes"],
            tests_passing=data.get("tests_passing"),
            concerns=tuple(data.get("concerns") or ()),
        )


@dataclass(frozen=True, slots=True)
class ReportRead:
    """The player's report for a turn, or why there is none (`error`)."""

    path: Path
    report: PlayerReport | None
    error: str | None = None
    raw: str = ""


class Coordination:
    """Paths and file I/O for one duel's coordination root."""

    def __init__(self, root: Path, task_id: str) -> None:
        self.root = root
        self.task_id = task_id

    def turn_dir(self, who: str, turn: int) -> Path:
        return self.root / "coordination" / who / f"turn_{turn}"

    def report_path(self, turn: int) -> Path:
        return self.turn_dir("player", turn) / "report.json"

    def decision_path(self, turn: int) -> Path:
        return self.turn_dir("coach", turn) / "decision.json"

    @property
    def run_report_path(self) -> Path:
        return self.root / "duel.json"

    def used(self) -> bool:
        """True when this root already holds a duel's turns."""
        return (self.root / "coordination").exists()

    def prepare(self, turn: int) -> None:
        """Create the turn's folders; the player's report path starts absent."""
        self.turn_dir("player", turn).mkdir(parents=True, exist_ok=True)
        self.turn_dir("coach", turn).mkdir(parents=True, exist_ok=True)
        self.report_path(turn).unlink(missing_ok=True)

    def read_report(self, turn: int) -> ReportRead:
        """The turn's report, validated (see the module docstring)."""
        path = self.report_path(turn)
        try:
            if path.stat().st_size > MAX_REPORT_BYTES:
                return ReportRead(
                    path, None, f"report.json is larger than {MAX_REPORT_BYTES} bytes"
                )
            raw = path.read_text(encoding="utf-8", errors="replace")
        except FileNotFoundError:
            return ReportRead(path, None, "the player wrote no report.json")
        except OSError as exc:
            return ReportRead(path, None, f"report.json cannot be read: {exc}")
        try:
            data = json.loads(raw)
        except ValueError as exc:
            return ReportRead(path, None, f"report.json is not valid JSON ({exc})", raw)
        errors = schemas.validate(data, schemas.load("report"))
        if not errors:
            if data["task_id"] != self.task_id:
                errors.append(f"task_id is {data['task_id']!r}, expected {self.task_id!r}")
            if data["turn"] != turn:
                errors.append(f"turn is {data['turn']!r}, expected {turn}")
        if errors:
            return ReportRead(
                path, None, "report.json breaks the schema: " + "; ".join(errors[:8]), raw
            )
        return ReportRead(path, PlayerReport.from_json(data), None, raw)

    def write_json(self, path: Path, data: dict[str, Any]) -> None:
        """Write `data` to `path` atomically."""
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                json.dump(data, handle, indent=2, ensure_ascii=False)
                handle.write("\n")
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise

    def write_decision(self, turn: int, document: dict[str, Any]) -> Path:
        """Write the turn's decision.json; `document` must fit the decision schema."""
        errors = schemas.validate(document, schemas.load("decision"))
        if errors:
            raise ValueError("refusing to write an invalid decision: " + "; ".join(errors))
        path = self.decision_path(turn)
        self.write_json(path, document)
        return path
