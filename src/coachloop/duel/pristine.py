"""The baseline's failing tests, re-run from the original test files against the
player's code.

A test that failed before the duel is the task's own proof: the player's changes to
tests and test configuration do not count for it. When any suite file differs from
the baseline, `rerun` copies the workspace to a temporary folder, puts back every
test, configuration and runner-shadowing file as it was (deleting ones the player
added), links the project's dependency folders, and runs those tests by id with the
clean runner. Each one that does not pass there is a blocking finding. A file the
requirements asked to change (a test they said to delete) keeps the player's version:
the original may no longer import against the new code; the comparison with the
baseline still guards every other test in it. When no suite
file changed, the turn's own run already ran the original tests and no rerun is
needed (`needed`).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from coachloop.duel import cleanrun
from coachloop.duel.findings import Finding
from coachloop.duel.runreport import FAILING
from coachloop.duel.testsource import classify, split_id

if TYPE_CHECKING:
    from coachloop.duel.baseline import Baseline
    from coachloop.duel.tools import CoachTools

__all__ = ["needed", "rerun"]

_IGNORED = shutil.ignore_patterns(".git", "__pycache__", ".pytest_cache", ".mypy_cache")


def needed(baseline: Baseline, files_now: Mapping[str, bytes]) -> bool:
    """True when a suite file differs from the baseline (so the turn's run is not enough)."""
    if any(files_now.get(p) != b for p, b in baseline.files.items()):
        return True
    return any(p not in baseline.files and classify(p) in ("config", "shadow") for p in files_now)


def _pristine_copy(
    workspace: Path,
    *,
    target: Path,
    baseline: Baseline,
    files_now: Mapping[str, bytes],
    links: Mapping[str, str],
    keep: frozenset[str],
) -> None:
    ignore_links = set(links)

    def ignore(folder: str, names: list[str]) -> set[str]:
        skipped = set(_IGNORED(folder, names))
        if Path(folder) == workspace:
            skipped |= ignore_links & set(names)
        return skipped

    shutil.copytree(workspace, target, symlinks=True, ignore=ignore)
    for name, real in links.items():  # the project's own dependencies, not the workspace's
        os.symlink(real, target / name)
    for rel in files_now:
        if rel not in baseline.files and classify(rel) in ("config", "shadow") and rel not in keep:
            (target / rel).unlink(missing_ok=True)
    for rel, data in baseline.files.items():
        if data.startswith(b"large file ") or rel in keep:
            continue  # not kept, or changed as the requirements ask: the player's version
        path = target / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.unlink(missing_ok=True)
        path.write_bytes(data)


def rerun(
    baseline: Baseline,
    tools: CoachTools,
    *,
    files_now: Mapping[str, bytes],
    tests: Sequence[str],
    links: Mapping[str, str],
    keep: frozenset[str] = frozenset(),
) -> list[Finding]:
    """Findings for each of `tests` that does not pass from the original test files
    (but for the files in `keep`, which the requirements asked to change)."""
    if not tests or tools.command is None:
        return []
    with tempfile.TemporaryDirectory(prefix="coachloop-pristine-") as scratch:
        copy = Path(scratch) / tools.project.name
        _pristine_copy(
            tools.project,
            target=copy,
            baseline=baseline,
            files_now=files_now,
            links=links,
            keep=keep,
        )
        run = cleanrun.run(tools.command, copy, timeout=tools.timeout, tests=tuple(tests))
    outcomes = run.report.outcomes if run.report else {}
    reasons = run.report.reasons if run.report else {}
    out: list[Finding] = []
    for test_id in tests:
        outcome = outcomes.get(test_id)
        if outcome == "passed":
            continue
        file, name = split_id(test_id)
        short = name.rsplit("::", 1)[-1].split(" > ")[-1] or file
        if outcome is None:
            issue = (
                f"`{short}` failed before the duel and could not be run from the original "
                f"`{file}` against your code ({run.note or run.status})"
            )
        else:
            verb = "still fails" if outcome in FAILING else f"is {outcome}"
            why = reasons.get(test_id, "")
            issue = (
                f"`{short}` failed before the duel and {verb} when run from the original "
                f"`{file}` against your code" + (f": {why}" if why else "")
            )
        out.append(
            Finding(
                "still_fails",
                issue,
                "Fix the code so that the original test passes; changing the test does not count.",
                test_id,
            )
        )
    return out
