"""The player's claims against the repository: files said to be changed, tests said
to exist.

A claimed file counts as changed when it (or, for a folder, something under it)
changed at any point since the duel began; a claimed test exists when its file exists
and, for a test id (`path::name`) or a bare name, the name occurs in that file (or,
for a bare name, in some test file of the project).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from coachloop.duel.files import PlayerReport

__all__ = ["ClaimCheck", "check_claims", "normalise"]

MAX_SCANNED = 2000
MAX_SCANNED_BYTES = 1_000_000
_PARAMS = re.compile(r"\[.*\]$")


@dataclass(frozen=True, slots=True)
class ClaimCheck:
    """Claims the repository contradicts (empty tuples: none)."""

    files_unchanged: tuple[str, ...] = ()
    tests_absent: tuple[str, ...] = ()

    @property
    def contradicted(self) -> bool:
        return bool(self.files_unchanged or self.tests_absent)


def normalise(project: Path, claimed: str) -> str:
    """A claimed path as a project-relative POSIX path ("./a/b.py" → "a/b.py")."""
    text = claimed.strip().replace("\\", "/")
    path = Path(text)
    if path.is_absolute():
        try:
            text = path.resolve().relative_to(project.resolve()).as_posix()
        except ValueError:
            return text
    while text.startswith("./"):
        text = text[2:]
    return text.rstrip("/")


def _looks_like_path(text: str) -> bool:
    return "/" in text or bool(re.search(r"\.[A-Za-z0-9]{1,5}$", text))


def _read(path: Path) -> str:
    try:
        if path.stat().st_size > MAX_SCANNED_BYTES:
            return ""
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""


def _test_files(project: Path, files: Iterable[str]) -> list[Path]:
    chosen = [f for f in files if re.search(r"test|spec", f, re.I)]
    return [project / f for f in chosen[:MAX_SCANNED]]


def _test_exists(project: Path, claim: str, files: Iterable[str]) -> bool:
    parts = [p for p in claim.strip().split("::") if p]
    if not parts:
        return False
    head = normalise(project, parts[0])
    if _looks_like_path(head):
        target = project / head
        if not target.is_file():
            return False
        names = [_PARAMS.sub("", n) for n in parts[1:]]
        text = _read(target) if names else ""
        return all(n in text for n in names)
    name = _PARAMS.sub("", parts[-1]).split(".")[-1]
    if not name:
        return False
    pattern = re.compile(rf"\b{re.escape(name)}\b")
    return any(pattern.search(_read(p)) for p in _test_files(project, files))


def check_claims(
    project: Path, report: PlayerReport, changed: Iterable[str], files: Iterable[str]
) -> ClaimCheck:
    """Claims in `report` that the repository contradicts.

    `changed`: paths changed since the duel began; `files`: the project's files now.
    """
    changed_set = set(changed)
    file_list = list(files)
    unchanged = []
    for claimed in report.files_modified:
        rel = normalise(project, claimed)
        if rel in changed_set or any(c.startswith(rel + "/") for c in changed_set):
            continue
        unchanged.append(claimed)
    absent = [t for t in report.tests_written if not _test_exists(project, t, file_list)]
    return ClaimCheck(tuple(unchanged), tuple(absent))
