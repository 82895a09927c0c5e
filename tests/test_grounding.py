"""Grounding: the judge's verdict checked against the turn's record, on records built
from tool calls (the readers are tested in test_record.py), through the whole pipeline
(rules or the LLM judge on the real SDK against the scripted model)."""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from coachloop.config import Settings
from coachloop.core.judge_input import JudgeInput
from coachloop.core.record import ToolCall, TurnRecord
from coachloop.core.verdict import Verdict
from coachloop.judge import make_judge
from coachloop.judge.grounding import ground, prepare
from coachloop.judge.prompt import ANSWER_TOOL, build_user_message
from coachloop.record import STALE
from coachloop.record.facts import build
from coachloop.testing import ScriptedModel, tool_use

UNIT_OK = "..\n" + "-" * 70 + "\nRan 2 tests in 0.001s\n\nOK\n"
UNIT_FAIL = (
    "F.\n"
    + "=" * 70
    + "\nFAIL: test_add (test_calc.TestCalc.test_add)\n"
    + "-" * 70
    + "\nAssertionError: -1 != 5\n\n"
    + "-" * 70
    + "\nRan 2 tests in 0.001s\n\nFAILED (failures=1)\n"
)
RUN = "python -m unittest"
CITED = "from the transcript: `python -m unittest` → 2 tests OK, after the last edit"


def cmd(command: str, output: str = "", exit_code: int = 0) -> ToolCall:
    return ToolCall(
        "Bash", "command", command, output=output, exit_code=exit_code, error=exit_code != 0
    )


def edit(path: str = "calc.py") -> ToolCall:
    return ToolCall("Edit", "edit", path, paths=(path,))


def record(*calls: ToolCall, **kw: Any) -> TurnRecord:
    return build("Claude Code transcript", calls, **kw)


FIXED = record(edit(), cmd(RUN, UNIT_OK))
RED = record(edit(), cmd(RUN, "Exit code 1\n" + UNIT_FAIL, 1))


def judged(text: str, rec: TurnRecord, **kw: Any) -> Verdict:
    return make_judge().judge(JudgeInput(text=text, record=replace(rec, final_text=text), **kw))


def test_a_passing_run_not_pasted_is_delivered_with_the_run_cited() -> None:
    v = judged("All tests pass now.", FIXED)
    assert v.route == "deliver" and v.type == "completion"
    assert v.evidence.recorded == (CITED,)
    assert make_judge().judge(JudgeInput(text="All tests pass now.")).route == "continue"


def test_a_failing_run_claimed_as_passing_is_sent_back_naming_the_failing_tests() -> None:
    v = judged("Fixed add(). All tests pass now.", RED)
    assert v.route == "continue" and v.rejected_completion
    assert [p.kind for p in v.problems] == ["run_failed"]
    assert v.coaching_message is not None
    assert "test_calc.TestCalc.test_add" in v.coaching_message
    assert "`python -m unittest` → 1 failed, 1 passed" in v.coaching_message


def test_an_edit_after_the_pasted_run_is_sent_back_naming_the_file() -> None:
    rec = record(edit(), cmd(RUN, UNIT_OK), edit("calc.py"), edit("README.md"))
    v = judged(f"Fixed add().\n\n```\n$ {RUN}\n{UNIT_OK}```", rec)
    assert v.route == "continue" and [p.kind for p in v.problems] == ["edited_after_run"]
    assert v.coaching_message is not None
    assert (
        "The code changed after the last test run (`python -m unittest` → 2 tests OK): calc.py."
        in v.coaching_message
    )
    assert "README.md" not in v.coaching_message and "Re-run" in v.coaching_message
    docs_only = record(edit(), cmd(RUN, UNIT_OK), edit("README.md"))
    assert judged("All tests pass now.", docs_only).route == "deliver"


def test_no_run_in_the_turn_is_named() -> None:
    v = judged("Fixed add(); all tests pass now.", record(edit()))
    assert v.route == "continue" and [p.kind for p in v.problems] == ["no_run"]
    assert v.coaching_message is not None and "no test ran in this turn" in v.coaching_message


def test_pasted_output_found_nowhere_is_unverifiable() -> None:
    fake = "Fixed.\n\n```\n$ python -m pytest -q\n5 passed in 0.12s\n```"
    v = judged(fake, record(edit()))
    assert [p.kind for p in v.problems] == ["unverifiable"]
    assert v.coaching_message is not None and "appears nowhere" in v.coaching_message
    other = judged(fake, FIXED)  # a run happened, but not this one
    assert other.route == "continue" and "matches no test run" in other.problems[0].detail


def test_commits_claimed_are_checked() -> None:
    commit = cmd('git commit -m "Fix add"', "[main 4f2a9c1] Fix add\n 1 file changed")
    made = record(edit(), cmd(RUN, UNIT_OK), commit)
    good = judged("Fixed add(); tests pass. Committed as 4f2a9c1.", made)
    assert good.route == "deliver"
    assert "from the transcript: `git commit` → 4f2a9c1" in good.evidence.recorded
    words = judged("Fixed add(), all tests pass, and I committed the fix.", FIXED)
    assert [p.kind for p in words.problems] == ["no_commit"]
    cited = judged("Fixed add(); tests pass. Committed as 4f2a9c1.", FIXED)
    assert [p.kind for p in cited.problems] == ["unverifiable"]
    offered = judged("All tests pass. Want me to commit it?", FIXED)
    assert offered.route == "deliver"


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("Should add() also accept strings, or only numbers?", "question"),
        (
            "I can't continue: the staging server is down and I have no access to restart it.",
            "blocker",
        ),
        ("Error: the agent crashed with a traceback.", "error"),
    ],
)
def test_questions_blockers_and_errors_stay_delivered(text: str, kind: str) -> None:
    v = judged(text, RED)
    assert v.type == kind and v.route == "deliver"


class Fixed:
    """A content judge that always answers `verdict` (the stage under test is grounding)."""

    def __init__(self, verdict: Verdict) -> None:
        self.verdict = verdict

    def judge(self, item: JudgeInput) -> Verdict:
        return self.verdict


def test_a_permission_denial_the_message_reports_is_a_blocker() -> None:
    status = Verdict(
        type="status", route="continue", confidence=0.8, reason="narration", source="rules"
    )
    denied = ToolCall("WebFetch", "other", "WebFetch", error=True, denied=True)
    text = "The docs fetch was not allowed; working from memory on the parser now."
    item = JudgeInput(text=text, record=record(denied, final_text=text))
    v = ground(status, item)
    assert v.type == "blocker" and v.route == "deliver" and "WebFetch" in v.reason
    assert ground(status, replace(item, record=record(final_text=text))) is status


def test_the_records_prompt_is_used_when_the_stop_has_none() -> None:
    text = "test_add fails because add() returns a - b instead of a + b."
    rec = record(cmd(RUN, "Exit code 1\n" + UNIT_FAIL, 1), prompt="Why does test_add fail?")
    v = judged(text, rec)
    assert v.type == "completion" and v.route == "deliver"
    assert prepare(JudgeInput(text=text, record=rec)).prompt == "Why does test_add fail?"
    assert prepare(JudgeInput(text=text, prompt="Fix it", record=rec)).prompt == "Fix it"


def test_absence_is_not_claimed_from_a_partial_record() -> None:
    v = judged("Fixed add(); all tests pass now.", record(edit(), complete=False))
    assert v.route == "continue" and [p.kind for p in v.problems] == ["unverified"]


def test_an_unusable_record_leaves_the_verdict_with_a_note() -> None:
    text = "All tests pass now."
    alone = make_judge().judge(JudgeInput(text=text))
    stale = TurnRecord.unusable("Claude Code transcript", STALE)
    v = make_judge().judge(JudgeInput(text=text, record=stale))
    assert (v.type, v.route) == (alone.type, alone.route)
    assert v.reason.endswith(f"[turn record not used: Claude Code transcript: {STALE}]")


def test_the_llm_judge_is_told_the_records_facts() -> None:
    item = JudgeInput(text="All tests pass now.", record=replace(RED, final_text="x"))
    message = build_user_message(item)
    assert "<turn_record>" in message
    assert "1. Edit calc.py" in message
    assert "2. ran `python -m unittest`: test run, 1 failed, 1 passed (failing: " in message
    assert "last test run: `python -m unittest`: 1 failed, 1 passed" in message
    stale = build_user_message(JudgeInput(text="x", record=TurnRecord.unusable("t", STALE)))
    assert "<turn_record>" not in stale and STALE in stale


def test_an_llm_completion_that_the_record_refutes_is_sent_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("COACHLOOP_TEST_LLM_KEY", "test-key")
    answer = {
        "type": "completion",
        "confidence": 0.95,
        "reason": "the agent says the tests pass",
        "coaching_message": None,
        "rejected_completion": False,
    }
    with ScriptedModel([tool_use(ANSWER_TOOL, answer)]) as server:
        settings = Settings(
            judge="anthropic",
            llm_base_url=server.base_url,
            llm_api_key_env="COACHLOOP_TEST_LLM_KEY",
        )
        v = make_judge(settings).judge(
            JudgeInput(
                text="All tests pass now.", record=replace(RED, final_text="All tests pass now.")
            )
        )
        sent = json.dumps(server.model_requests[0].json)
    assert "<turn_record>" in sent
    assert v.source == "llm" and v.route == "continue" and v.problems[0].kind == "run_failed"
    assert v.coaching_message is not None and "test_calc.TestCalc.test_add" in v.coaching_message


def test_the_turn_record_benchmark_meets_its_targets() -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
    from turns_bench import CAUGHT_FLOOR, HONEST_CEILING, figures, judge_all

    f = figures(judge_all())
    assert f["turns"] >= 60
    assert f["false_caught"] >= CAUGHT_FLOOR and f["honest_sent_back"] <= HONEST_CEILING
    assert f["others_delivered"] == 1.0


@pytest.mark.parametrize(
    ("text", "tests", "commit"),
    [
        ("All tests pass now.", True, False),
        ("Done: the suite is green and I committed the fix.", True, True),
        ("Not all tests pass yet.", False, False),
        ("Once the tests pass, I will commit.", False, False),
        ("Fixed the committed config loader.", False, False),
        ("Pushed commit 9fce1a2 to main.", False, True),
        ("The regression came from commit abc1234.", False, False),
        ("Want me to commit it?", False, False),
        ("The fix is committed; tests are passing.", True, True),
        ("Tests:\n\n```\n$ pytest -q\n3 passed in 0.1s\n```", True, False),
        ("`pytest` would say all tests pass", False, False),
    ],
)
def test_what_the_message_claims(text: str, tests: bool, commit: bool) -> None:
    from coachloop.judge.grounding.claims import read_claims

    claims = read_claims(text)
    assert (claims.tests, claims.commit is not None) == (tests, commit)
