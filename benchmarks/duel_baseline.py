"""The added cost per duel turn of the baseline checks (issue 14), measured in one run.

A turn of `coachloop duel` with the baseline checks (the suite compared with its
baseline; the baseline's failing tests re-run from the original test files when a
test or configuration file changed) against the same turn without them
(`DuelConfig(baseline=False)`), on a small Python project (a bug, its failing test,
and `--tests` passing tests) with the real pytest and an offline player and coach.
Two players: one that changes only code (no rerun needed) and one that also adds a
test to the failing test's file (the rerun happens). Each turn is timed `--repeat`
times; the medians are printed, with the one-off cost of recording the baseline
before turn 1.

    python benchmarks/duel_baseline.py [--tests 40] [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

from parts import part

from coachloop.duel.coaches import RulesCoach
from coachloop.duel.orchestrator import DuelConfig, DuelResult, run_duel
from coachloop.duel.players import CommandPlayer

PLAYER = textwrap.dedent(
    """
    import json, os, pathlib, sys
    pathlib.Path("calc.py").write_text("def add(a, b):\\n    return a + b\\n")
    if sys.argv[1] == "with-test":
        tests = pathlib.Path("tests/test_calc.py")
        more = "\\n\\ndef test_more():\\n    assert add(1, 1) == 2\\n"
        tests.write_text(tests.read_text() + more)
    pathlib.Path(os.environ["COACHLOOP_REPORT"]).write_text(json.dumps({
        "task_id": os.environ["COACHLOOP_TASK_ID"], "turn": 1, "files_modified": ["calc.py"],
        "tests_written": [], "tests_passing": True, "implementation_notes": "fixed add",
    }))
    """
)


def make_project(root: Path, extra_tests: int) -> Path:
    project = root / "project"
    (project / "tests").mkdir(parents=True)
    (project / "pyproject.toml").write_text('[tool.pytest.ini_options]\npythonpath = ["."]\n')
    (project / "REQUIREMENTS.md").write_text("# Task\n\nFix `calc.add`: return the sum.\n")
    (project / "calc.py").write_text("def add(a, b):\n    return a - b\n")
    (project / "tests" / "test_calc.py").write_text(
        "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n"
    )
    (project / "tests" / "test_more.py").write_text(
        "".join(f"def test_{i}():\n    assert {i} == {i}\n\n\n" for i in range(extra_tests))
    )
    git = ["git", "-c", "user.name=b", "-c", "user.email=b@example.com", "-C", str(project)]
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "start"], check=True)
    return project


def one_duel(root: Path, kind: str, checks: bool, extra_tests: int) -> DuelResult:
    project = make_project(root, extra_tests)
    script = root / "player.py"
    script.write_text(PLAYER)
    config = DuelConfig(
        project,
        project / "REQUIREMENTS.md",
        task_id="B",
        max_turns=1,
        coverage=False,
        baseline=checks,
    )
    result = run_duel(config, CommandPlayer([sys.executable, str(script), kind]), RulesCoach())
    if result.outcome != "approved":
        raise SystemExit(f"the honest player was not approved: {result.reason}")
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tests", type=int, default=40, help="passing tests besides test_add")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--part-timeout", type=float, default=600.0, help="seconds per duel")
    args = parser.parse_args()
    os.environ.setdefault("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")
    turns: dict[tuple[str, bool], list[float]] = {}
    recording: list[float] = []
    for _ in range(args.repeat):
        for kind in ("code-only", "with-test"):
            for checks in (False, True):

                def timed(kind: str = kind, checks: bool = checks) -> tuple[float, float | None]:
                    with tempfile.TemporaryDirectory(prefix="duel-bench-") as scratch:
                        result = one_duel(Path(scratch), kind, checks, args.tests)
                    base = result.baseline.seconds if result.baseline is not None else None
                    return result.turns[0].seconds, base

                name = f"{kind}, checks {'on' if checks else 'off'}"
                got = part(name, timed, args.part_timeout)  # bounded: a hung duel is skipped
                if got is None:
                    continue
                turns.setdefault((kind, checks), []).append(got[0])
                if got[1] is not None:
                    recording.append(got[1])
    print(
        f"duel turn cost of the baseline checks ({args.tests + 1} tests, median of {args.repeat})"
    )
    for kind in ("code-only", "with-test"):
        if not (turns.get((kind, False)) and turns.get((kind, True))):
            print(f"  player changes {kind:9}: skipped (see above)")
            continue
        without = statistics.median(turns[(kind, False)])
        with_checks = statistics.median(turns[(kind, True)])
        print(
            f"  player changes {kind:9}: {without:6.2f} s without, {with_checks:6.2f} s with "
            f"= +{with_checks - without:5.2f} s per turn, ratio {with_checks / without:4.2f}"
        )
    if recording:
        once = statistics.median(recording)
        print(f"  recording the baseline before turn 1 (once per duel): {once:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
