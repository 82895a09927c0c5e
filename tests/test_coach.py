"""The coach's tiers, skills as data and plan success criteria."""

from __future__ import annotations

from pathlib import Path

from coachloop.coach import PLAIN, PREFIX, Coach
from coachloop.coach.plan import read_criteria, success_criteria
from coachloop.coach.skills import detect_skill
from coachloop.config import SkillSpec, load_settings
from coachloop.core.judge_input import JudgeInput
from coachloop.core.verdict import Problem, Verdict
from coachloop.judge import make_judge


def status(problems: tuple[Problem, ...] = (), coaching: str | None = None) -> Verdict:
    return Verdict(
        type="status",
        route="continue",
        confidence=0.9,
        reason="r",
        source="rules",
        rejected_completion=bool(problems),
        problems=problems,
        coaching_message=coaching,
    )


def test_plain_status_without_context_gets_plain_continue() -> None:
    assert Coach().build(status(), JudgeInput(text="Working on it.")) == PLAIN


def test_llm_coaching_comes_first_and_is_prefixed() -> None:
    msg = Coach().build(
        status(coaching="Run `pytest tests/api` and paste the summary."),
        JudgeInput(text="x", skill="/do-build"),
    )
    assert msg == f"{PREFIX} Run `pytest tests/api` and paste the summary."


def test_rejection_coaching_is_specific() -> None:
    problems = (
        Problem(kind="hedge", detail="hedged", quote="It should work now"),
        Problem(kind="failing", detail="3 test(s) failed (3 failed, 40 passed in 2s)"),
    )
    msg = Coach().build(status(problems), JudgeInput(text="x"))
    assert msg.startswith(PREFIX)
    assert "“It should work now”" in msg
    assert "3 test(s) failed" in msg


def test_plan_criteria_are_quoted_when_certain(tmp_path: Path) -> None:
    plan = tmp_path / "plan.md"
    plan.write_text(
        "# Plan\n\n## Success Criteria\n\n- [ ] API returns 401\n- [x] docs updated\n\n## Notes\nx\n"
    )
    msg = Coach().build(status(), JudgeInput(text="x", plan_file=str(plan)))
    assert "- API returns 401\n- docs updated" in msg
    assert "Notes" not in msg


def test_uncertain_plan_gets_a_pointer(tmp_path: Path) -> None:
    plan = tmp_path / "plan.md"
    plan.write_text("## Success Criteria\nThe API should be fast and\n- maybe a list\n")
    msg = Coach().build(status(), JudgeInput(text="x", plan_file=str(plan)))
    assert str(plan) in msg and "success criteria in" in msg
    missing = Coach().build(status(), JudgeInput(text="x", plan_file=str(tmp_path / "nope.md")))
    assert str(tmp_path / "nope.md") in missing


def test_success_criteria_parsing() -> None:
    assert success_criteria("## Success Criteria\n1. one\n2. two\n") == ["one", "two"]
    assert success_criteria("## Acceptance criteria:\n* a\n") == ["a"]
    assert success_criteria("## Success Criteria\n\n## Next\n- a") is None
    assert success_criteria("## Success Criteria\n- a\n## Success Criteria\n- b") is None
    assert success_criteria("no heading") is None
    assert read_criteria("/nonexistent/plan.md") is None


def test_skill_detection_from_text_prompt_or_phase() -> None:
    assert detect_skill(texts=("/do-docs: updated",)).name == "/do-docs"  # type: ignore[union-attr]
    assert detect_skill(texts=(None, "please /do-test this")).name == "/do-test"  # type: ignore[union-attr]
    assert detect_skill(phase="plan").name == "/do-plan"  # type: ignore[union-attr]
    assert detect_skill(explicit="do-build").name == "/do-build"  # type: ignore[union-attr]
    assert detect_skill(texts=("a path like src/do-build/x",)) is None
    assert detect_skill(texts=("nothing here",), phase="unknown") is None


def test_skill_hint_when_no_plan() -> None:
    msg = Coach().build(status(), JudgeInput(text="Step 1 of 3 done.", phase="test"))
    assert msg.startswith(PREFIX) and "/do-test" in msg and "pass/fail counts" in msg


def test_user_defined_skill_from_config(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    project = tmp_path / "proj"
    (project / ".coachloop").mkdir(parents=True)
    (project / ".coachloop" / "config.toml").write_text(
        '[skills.do-release]\nphase = "release"\n'
        'evidence_hint = "the published version and the release URL"\nrequires = ["command"]\n'
    )
    settings = load_settings(project)
    assert settings.skills == (
        SkillSpec(
            "/do-release", "release", "the published version and the release URL", ("command",)
        ),
    )
    judge = make_judge(settings)
    v = judge.judge(JudgeInput(text="/do-release done, version bumped."))
    assert v.rejected_completion
    assert "the published version and the release URL" in (v.coaching_message or "")
