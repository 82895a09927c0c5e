"""The offline decision: from features and evidence to a type, a reason and problems.

Order of reading, each step final when it applies:
1. the run broke (error opening, crash markers, truncated or leaked tool-call text);
2. the human is asked something (a real question, an approval request), or is needed
   for something outside the agent's control (blocker);
3. work announced as under way is status;
4. a claim of being done is checked: hedges, verification asserted but not shown,
   failing or off-target evidence and a skill's required evidence reject it;
5. an answer to the human's question, or a report with evidence, is a completion;
6. otherwise: short narration of work is status, anything else goes to the human.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from coachloop.config import SkillSpec
from coachloop.core.verdict import Evidence, MessageType, Problem
from coachloop.evidence.text import ran_with_output
from coachloop.judge.rules.features import Features, requests_action
from coachloop.judge.rules.skipped import bypassed_check, skipped_check
from coachloop.judge.rules.stand_in import (
    placeholder_mark,
    stand_in,
    stub_in_code,
    todo_document,
)
from coachloop.judge.rules.target import off_target
from coachloop.judge.rules.task import LINT_ONLY, NO_TASK, Task, asks_question, task_of
from coachloop.scan import Scanner
from coachloop.scan.lazy import LazyPattern

_DOC_PATH = LazyPattern(r"(?:\.(?:md|rst|txt|adoc|mdx|ipynb)$|(?:^|/)(?:docs?|plans?)/)", re.I)
_REPORT = Scanner(
    r"\b(?:report|summary|findings|plan|documentation|docs|readme|notes|adr|doku|bericht|dokumentation|"
    r"informe|resumen|documentación|rapport|résumé|отчёт|отчет|документаци\w*|звіт|"
    r"документаці\w*|relatório|documentação|resumo|relazione|documentazione|riepilogo|"
    r"báo cáo|tài liệu|laporan|dokumentasi|rapor|dokümantasyon|raport|dokumentacj\w*)\b|"
    r"报告|总结|文档|レポート|ドキュメント|まとめ|報告書|보고서|문서|요약",
    indexed=True,
)  # read on the lowercased prose, as the lexicons are: `re.I` would fold Cyrillic letters
# with others (ᲀ...) and leave the scanner no literal to look for


@dataclass
class Outcome:
    """The rules' reading of a message."""

    type: MessageType
    confidence: float
    reason: str
    problems: list[Problem] = field(default_factory=list)

    @property
    def rejected(self) -> bool:
        return bool(self.problems)


_TOOL_KEYS = ('"input"', '"arguments"', '"tool_use"', '"parameters"')


_XML_TOOLS = tuple(
    (f"<{tag}>", f"</{tag}>")
    for tag in (
        "write_to_file",
        "replace_in_file",
        "apply_diff",
        "insert_content",
        "search_and_replace",
        "execute_command",
    )
)


def _leaked_tool_call(text: str) -> bool:
    """The message is, or ends on, a tool call printed as text and cut off: JSON naming a
    tool that does not parse, opening the message or its last line, or a tool's XML tag
    as Cline and Roo Code write them ("<write_to_file>") opened and never closed."""
    if "<" in text:
        for opened, closed in _XML_TOOLS:
            at = text.rfind(opened)
            if at != -1 and text.find(closed, at) == -1:
                return True
    head = text.lstrip()
    if not head.startswith("{"):
        at = head.rfind("\n{")
        head = head[at + 1 :] if at != -1 else ""
        # its last line, outside any code block, with a tool's arguments
        if "```" in head or not any(key in head[:400] for key in _TOOL_KEYS):
            return False
    if not head.startswith("{") or '"name"' not in head[:200]:
        return False
    try:
        json.loads(head)
    except ValueError:
        return True
    return False


def _broken(f: Features) -> str | None:
    if f.error_opening:
        return "the message opens with an error from the agent's own run"
    if _leaked_tool_call(f.msg.text):
        return "the message is a cut-off tool call, not an answer"
    if f.truncated:
        return "the message stops mid-sentence: the run broke off"
    if f.error_anywhere and not (f.done and strong_evidence(f.result_evidence, f)):
        return "the message reports that the agent's run or tools failed"
    return None


def strong_evidence(ev: Evidence, f: Features, task: Task = NO_TASK) -> bool:
    """Evidence that can stand behind a completion on its own (a lint or type check run
    only when the task is about what such a check reports; documents changed when the
    message names them as a report, or the human asked for documents: `task`)."""
    if ev.commits or ev.pull_requests or ev.tests_ok:
        return True
    if any(s.startswith("CI run ") for s in ev.successes):
        return True
    if any(code == 0 for code in ev.exit_codes):
        return True
    if ev.commands and (ev.successes or not ev.failures) and (task.lint or not _lint_only(ev)):
        return True  # a command shown with its (non-failing) output
    if success_shown(ev, f.msg.code_blocks):
        return True
    return bool(_doc_paths(ev)) and (task.docs or bool(_REPORT.search(f.msg.low_prose)))


_CHECK_MARKS = ("✔ ", "✓ ")
# The success markers of a change rolled out (`ev.successes`): a lint's or a compiler's
# "0 errors" is not among them (it does not test the change; see `_lint_only`).
_ROLLED_OUT = (
    "Apply complete!",
    "Creation complete",
    "successfully rolled out",
    "Successfully deployed",
    "deployed successfully",
    "Successfully tagged",
    "Migrations applied",
)


# A training run's log that reached its last epoch ("epoch 30/30 …"), or its test metrics
# ("test: top1=0.8391 top5=0.9688"): the run shown, as a runner's summary is for tests.
_TRAINED = LazyPattern(
    r"\bepoch (\d+) ?/ ?\1\b|^[ \t]*(?:\[[^\]\n]*\][ \t]*)?test\b[^\n]*?"
    r"\b(?:acc|accuracy|f1|top-?1|auc|loss|bleu|rouge\w*|wer|map|ndcg|rmse|mae|r2)"
    r"[ \t]*[=:][ \t]*\d",
    re.I | re.M,
)


def success_shown(ev: Evidence, blocks: list[str]) -> bool:
    """A change's rollout or a run's end printed in a code block (`blocks`): one of the
    success markers of `_ROLLED_OUT` that `ev.successes` found, a line a CLI opens with
    its check mark ("✔ Submitted your app to Google Play Store!"), or a training run's last
    epoch or test metrics (`_TRAINED`); a pasted output, not the agent's words. Not when
    the evidence shows a failure."""
    if ev.failures:
        return False
    shown = [m for m in ev.successes if m in _ROLLED_OUT]
    for block in blocks:
        if shown and any(map(block.__contains__, shown)):
            return True
        if ("poch" in block or "est" in block) and _TRAINED.search(block):
            return True
        if any(map(block.__contains__, _CHECK_MARKS)) and any(
            line.lstrip().startswith(_CHECK_MARKS) for line in block.splitlines()
        ):
            return True
    return False


def _doc_paths(ev: Evidence) -> list[str]:
    return [p for p in ev.paths if _DOC_PATH.search(p)]


def _lint_only(ev: Evidence) -> bool:
    return bool(ev.commands) and all(LINT_ONLY.search(c) for c in ev.commands)


def _skill_problem(skill: SkillSpec | None, ev: Evidence) -> Problem | None:
    if skill is None or not skill.requires:
        return None
    have = {
        "tests": ev.tests_ok,
        "commit": bool(ev.commits),
        "pr": bool(ev.pull_requests),
        "paths": bool(ev.paths),
        "plan": bool(_doc_paths(ev)),
        "command": bool(ev.commands),
    }
    if any(have.get(kind, False) for kind in skill.requires):
        return None
    return Problem(
        kind="skill_evidence",
        detail=f"{skill.name} is not finished without {skill.evidence_hint}; none is shown.",
    )


def _claim_problems(
    f: Features, ev: Evidence, skill: SkillSpec | None, task: Task = NO_TASK
) -> list[Problem]:
    problems: list[Problem] = [
        Problem(kind="hedge", detail="hedged", quote=q) for q in f.hedges[:2]
    ]
    if task.repro and ev.failures and ev.commands:
        # the failure asked for, shown with the command that produced it
        return problems
    # A run of zero tests is a problem only when no run shown passed any (cargo prints a
    # "0 passed" doc-test summary after every passing suite).
    passed_somewhere = ev.tests_ok  # once: a property over every run, not per run
    failing = [t for t in ev.tests if t.failed or (t.passed == 0 and not passed_somewhere)]
    if failing:
        if all(t.failed == 0 for t in failing):
            detail = "the test run shown executed no tests"
        else:
            detail = f"{ev.failed_tests} test(s) failed ({failing[0].line})"
        problems.append(Problem(kind="failing", detail=detail))
    elif ev.failures and not ev.tests_ok:
        problems.append(
            Problem(kind="failing", detail=f"the output shows “{ev.failures[0][:120]}”")
        )
    verified = (
        ev.tests_ok
        or (ev.commands and (ev.successes or ev.exit_codes or ran_with_output(f.msg.text)))
        or success_shown(ev, f.msg.code_blocks)
    )
    claimed = [q for q in f.asserted if q not in f.hedges]
    if claimed and not verified and not failing:
        problems.append(
            Problem(kind="unverified", detail="verification not shown", quote=claimed[0])
        )
    stub = (
        stand_in(f.msg.prose, f.msg.low_prose)
        or todo_document(f.msg.code_blocks)
        or stub_in_code(f.msg.code_blocks)
        or placeholder_mark(f.msg.low_text)
    )
    if stub:
        problems.append(Problem(kind="placeholder", detail="a stub", quote=stub))
    unrun = skipped_check(f.msg.low_prose) or bypassed_check(f.msg.low_text)
    if unrun:
        problems.append(
            Problem(
                kind="skipped",
                detail="the checks covering the change were skipped or routed around",
                quote=unrun,
            )
        )
    target = off_target(ev, f.msg.code_blocks, f.msg.text, f.closing_offer)
    if target:
        problems.append(Problem(kind="off_target", detail=target))
    # a lint of the documents is fitting evidence when the task is about documents
    if _lint_only(ev) and not (
        task.lint or task.docs or ev.tests or ev.commits or ev.pull_requests
    ):
        problems.append(
            Problem(
                kind="off_target",
                detail="Only a lint or format run is shown; it does not test the change.",
            )
        )
    skill_problem = _skill_problem(skill, ev)
    if skill_problem and not problems:
        problems.append(skill_problem)
    if not problems and not strong_evidence(ev, f, task):
        problems.append(Problem(kind="no_evidence", detail="no checkable evidence"))
    return problems


def classify(f: Features, prompt: str | None, skill: SkillSpec | None) -> Outcome:
    """Read one message; see the module docstring for the order of the rules."""
    ev = f.result_evidence
    broken = _broken(f)
    if broken:
        return Outcome("error", 0.9, broken)

    real_questions = [q for q in f.questions if not (f.claims and f.is_offer(q))]
    if real_questions or f.asks:
        if f.blocked and any(requests_action(q) for q in real_questions or [f.msg.tail]):
            return Outcome("blocker", 0.85, "the agent needs a person to act before it can go on")
        return Outcome(
            "question", 0.9, "the agent asks the human something and waits for an answer"
        )
    if f.blocked and (not f.ongoing_tail or f.appeals or f.resumes_after):
        return Outcome("blocker", 0.85, "something outside the agent's control stops the work")

    answering = asks_question(prompt) and not f.done
    if answering and not f.ongoing_tail:
        return Outcome("completion", 0.85, "a direct answer to the human's question")

    if f.ongoing_tail or (f.partial and not f.hedges):
        return Outcome("status", 0.85, "progress on work that is still under way")

    if f.claims:
        problems = _claim_problems(f, ev, skill, task_of(prompt))
        if problems:
            return Outcome("status", 0.85, "a completion claim that does not hold up", problems)
        return Outcome("completion", 0.9, "finished, with checkable evidence")

    if strong_evidence(ev, f) and not any(t.failed for t in ev.tests):
        return Outcome("completion", 0.75, "a report backed by evidence")
    if f.ongoing_any and f.msg.words <= 60:
        return Outcome("status", 0.6, "narration of work with nothing for the human")
    if f.msg.words >= 25:
        return Outcome("completion", 0.55, "an explanation or report for the human")
    # Nothing recognisable: the human decides (fail-safe, never an unexplained continue).
    return Outcome("question", 0.5, UNRECOGNISED)


UNRECOGNISED = "no rule recognised this message; the human should see it"
