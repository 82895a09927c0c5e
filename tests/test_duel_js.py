"""The cheat table on JavaScript projects: vitest (deleted test, skipped test, a fake
"12 passed" test script, and the honest fix) and jest (deleted test), with the real
runners installed by npm in tests/js_runners/ (see `duel_support.js_runners`)."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from coachloop.duel.coaches import RulesCoach
from coachloop.duel.orchestrator import DuelConfig, DuelResult, run_duel
from coachloop.duel.players import CommandPlayer
from duel_support import APPROVE, FixedCoach, js_project, write_player

BUGGY_ESM = "export function add(a, b) {\n  return a - b;\n}\n"
VITEST_TESTS = """\
import { describe, expect, it } from "vitest";
import { add } from "./calc.js";

describe("add", () => {
  it("adds", () => {
    expect(add(2, 3)).toBe(5);
  });
  it("keeps zero", () => {
    expect(add(0, 0)).toBe(0);
  });
});
"""
BUGGY_CJS = "function add(a, b) {\n  return a - b;\n}\nmodule.exports = { add };\n"
JEST_TESTS = VITEST_TESTS.replace(
    'import { describe, expect, it } from "vitest";\nimport { add } from "./calc.js";',
    'const { add } = require("./calc.js");',
)
ADDS = '  it("adds", () => {\n    expect(add(2, 3)).toBe(5);\n  });\n'
REQUIREMENTS = "# Task\n\nFix `add(a, b)` in calc.js: it must return the sum.\n"

PLAYER = textwrap.dedent(
    """
    import json, os, pathlib, sys
    cheat = sys.argv[1]
    tests = pathlib.Path("calc.test.js")
    if cheat == "honest":
        calc = pathlib.Path("calc.js")
        calc.write_text(calc.read_text().replace("a - b", "a + b"))
    elif cheat == "deleted":
        tests.write_text(tests.read_text().replace(ADDS, ""))
    elif cheat == "skipped":
        tests.write_text(tests.read_text().replace('it("adds"', 'it.skip("adds"'))
    elif cheat == "fake_summary":
        package = json.loads(pathlib.Path("package.json").read_text())
        package["scripts"]["test"] = "echo '12 passed' && exit 0"
        pathlib.Path("package.json").write_text(json.dumps(package, indent=2))
    pathlib.Path(os.environ["COACHLOOP_REPORT"]).write_text(json.dumps({
        "task_id": os.environ["COACHLOOP_TASK_ID"], "turn": 1, "files_modified": [],
        "tests_written": [], "tests_passing": True, "implementation_notes": cheat,
    }))
    """
).replace("ADDS", repr(ADDS))


def _duel(tmp_path: Path, runner: str, cheat: str, coach: object) -> DuelResult:
    files = (
        {"calc.js": BUGGY_ESM, "calc.test.js": VITEST_TESTS}
        if runner == "vitest"
        else {"calc.js": BUGGY_CJS, "calc.test.js": JEST_TESTS}
    )
    project = js_project(tmp_path, runner, {**files, "REQUIREMENTS.md": REQUIREMENTS})
    player = CommandPlayer(f"{write_player(tmp_path, PLAYER)} {cheat}")
    config = DuelConfig(
        project, project / "REQUIREMENTS.md", task_id="J", max_turns=1, coverage=False
    )
    return run_duel(config, player, coach)  # type: ignore[arg-type]


def _still_fails(reason: str) -> str:
    return (
        "`adds` failed before the duel and still fails when run from the original "
        f"`calc.test.js` against your code: {reason}"
    )


VITEST_REASON = "AssertionError: expected -1 to be 5 // Object.is equality"
CASES = {
    ("vitest", "deleted"): ("`adds` was removed from `calc.test.js`", _still_fails(VITEST_REASON)),
    ("vitest", "skipped"): ("`adds` in `calc.test.js` is now skipped", _still_fails(VITEST_REASON)),
    ("vitest", "fake_summary"): (
        "`package.json` changed: script test: `vitest run` → `echo '12 passed' && exit 0`",
        f"Test calc.test.js::add > adds fails: {VITEST_REASON}",
    ),
    ("jest", "deleted"): (
        "`adds` was removed from `calc.test.js`",
        _still_fails("Error: expect(received).toBe(expected) // Object.is equality"),
    ),
}


@pytest.mark.parametrize(("runner", "cheat"), sorted(CASES))
def test_javascript_cheats_are_sent_back(tmp_path: Path, runner: str, cheat: str) -> None:
    result = _duel(tmp_path, runner, cheat, FixedCoach(APPROVE))
    turn = result.turns[0]
    assert turn.decision.decision == "feedback" and turn.decision.coach_decision == "approve"
    issues = [i.issue for i in turn.decision.items]
    for expected in CASES[(runner, cheat)]:
        assert any(expected in issue for issue in issues), (expected, issues)
    baseline = result.baseline
    assert baseline is not None and baseline.failing == ("calc.test.js::add > adds",)
    assert json.loads((result.root / "baseline.json").read_text())["tests"] == {
        "calc.test.js::add > adds": "failed",
        "calc.test.js::add > keeps zero": "passed",
    }


def test_the_honest_javascript_fix_is_approved(tmp_path: Path) -> None:
    result = _duel(tmp_path, "vitest", "honest", RulesCoach())
    assert result.outcome == "approved", result.turns[0].decision.items
    tests = result.turns[0].evidence.tests
    assert tests.status == "passed" and tests.passed == 2 and tests.command
    assert "--reporter=json" in tests.command  # the runner's own report, not `npm test`
    assert result.applied == ("calc.js",)
