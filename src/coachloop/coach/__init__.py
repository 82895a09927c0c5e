"""The coach: turns a "continue" verdict into the message that sends the agent back.

Tiers, first that applies wins the opening:
1. the LLM judge's own coaching;
2. static rejection coaching naming what the rules found missing or wrong;
3. the plan's success criteria (quoted when parsed with certainty, else a pointer);
4. the active skill's evidence hint;
5. plain "continue".
Tiers 2 to 4 combine: a rejection also says what finished looks like under the plan or
skill. Every message but plain "continue" starts with `[System Coach]`.
"""

from __future__ import annotations

from collections.abc import Iterable

from coachloop.coach.plan import read_criteria
from coachloop.coach.skills import all_skills, detect_skill
from coachloop.config import SkillSpec
from coachloop.core.judge_input import JudgeInput
from coachloop.core.verdict import Problem, Verdict

__all__ = ["PLAIN", "PREFIX", "Coach", "rejection_lines"]

PREFIX = "[System Coach]"
PLAIN = "continue"
_MAX_CRITERIA = 12


def _quote(text: str, limit: int = 80) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _upper(text: str) -> str:
    return text[:1].upper() + text[1:]


def _said(p: Problem) -> str:
    return f" (“{_quote(p.quote)}”)" if p.quote else ""


# Findings checked against the turn's record (`coachloop.judge.grounding`).
_RECORDED = {
    "run_failed": "You say the tests pass{said}, but {detail}. "
    "Fix the failures, re-run the tests and show the summary.",
    "no_run": "You say the tests pass{said}, but no test ran in this turn. "
    "Run them and show the runner's summary.",
    "unverifiable": "{detail}. Show only output you got: run the command and paste "
    "what it printed.",
    "edited_after_run": "{detail}. That run does not cover the code as it is now. "
    "Re-run the tests and show the result.",
    "no_commit": "You say you committed{said}, but {detail}. Commit the change and give its hash.",
}


def rejection_lines(problems: Iterable[Problem]) -> list[str]:
    """One plain sentence per problem, specific to what was found."""
    lines: list[str] = []
    for p in problems:
        if p.kind == "hedge" and p.quote:
            lines.append(
                f"You wrote “{_quote(p.quote)}”: that is a guess, not a result. "
                "Check it and show what you ran and what it printed."
            )
        elif p.kind == "unverified":
            said = f" (“{_quote(p.quote)}”)" if p.quote else ""
            lines.append(
                f"You say it was verified{said}, but no test run or command output is shown. "
                "Run the checks and paste the runner's summary."
            )
        elif p.kind == "failing":
            lines.append(f"The output you showed has failures: {p.detail}. Fix them and re-run.")
        elif p.kind == "placeholder":
            lines.append(
                f"You call it done, but it is a placeholder{_said(p)}. Implement the real "
                "behaviour, test it and show the output."
            )
        elif p.kind == "skipped":
            lines.append(
                f"The checks that cover this change did not run or were routed around"
                f"{_said(p)}. Make them run and pass here (or say what they need from the "
                "human), and show the output."
            )
        elif p.kind == "off_target":
            lines.append(f"{p.detail} Run the checks that exercise the change itself.")
        elif p.kind == "skill_evidence":
            lines.append(p.detail)
        elif p.kind in _RECORDED:
            lines.append(_RECORDED[p.kind].format(detail=_upper(p.detail), said=_said(p)))
        else:
            lines.append(
                "No test run is shown. Run the tests (or the command that proves the change) "
                "and include the output with its counts, plus the commit or PR."
            )
    return lines


class Coach:
    """Builds coaching text; `skills` are the built-in ones plus user-defined ones."""

    def __init__(self, skills: Iterable[SkillSpec] = ()) -> None:
        self.skills = all_skills(skills)

    def skill_for(self, item: JudgeInput) -> SkillSpec | None:
        return detect_skill(
            explicit=item.skill,
            texts=(item.text, item.prompt),
            phase=item.phase,
            skills=self.skills,
        )

    def _target(self, item: JudgeInput, skill: SkillSpec | None) -> str | None:
        if item.plan_file:
            criteria = read_criteria(item.plan_file)
            if criteria:
                shown = "\n".join(f"- {c}" for c in criteria[:_MAX_CRITERIA])
                return f"The plan's success criteria ({item.plan_file}):\n{shown}"
            return (
                f"Check your work against the success criteria in {item.plan_file} "
                "before you report it done."
            )
        if skill and skill.evidence_hint:
            return f"For {skill.name}, finish with {skill.evidence_hint}."
        return None

    def build(self, verdict: Verdict, item: JudgeInput) -> str:
        """The continuation message for a "continue" verdict (never empty)."""
        own = (verdict.coaching_message or "").strip()
        if own:
            return own if own.startswith(PREFIX) else f"{PREFIX} {own}"
        skill = self.skill_for(item)
        target = self._target(item, skill)
        parts: list[str] = []
        if verdict.rejected_completion:
            parts.append("Not done yet.")
            parts.extend(
                rejection_lines(verdict.problems)
                or rejection_lines([Problem(kind="no_evidence", detail="")])
            )
        if target:
            parts.append(target)
        if not parts:
            return PLAIN
        return (
            f"{PREFIX} "
            + " ".join(parts[:1])
            + ("\n" + "\n".join(parts[1:]) if len(parts) > 1 else "")
        )
