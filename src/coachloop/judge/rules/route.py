"""The offline route: sure deliveries first, then the learned score, deliver when unsure.

1. The ordered rules (`classify`) read the message and propose a type and problems.
2. Sure deliveries: the run broke, the human is asked plainly, something outside the
   agent's control is named (`sure.sure_deliver`), or the rules found an error.
3. Two named checks fail without a score: a stand-in called done, and a claim of done
   beside a test run with failures that is the last run shown (the bench README's own
   case of a rejected completion).
4. Otherwise the scorer weighs the message's signals and wording; only a probability at
   or above its threshold sends the agent back. Everything below goes to the human, so an
   unclear message is never suppressed.

The reason of the outcome names the signals that decided it.
"""

from __future__ import annotations

from coachloop.core.judge_input import JudgeInput
from coachloop.core.verdict import MessageType, Problem
from coachloop.judge.rules.classify import UNRECOGNISED, Outcome
from coachloop.judge.rules.features import Features
from coachloop.judge.rules.scorer import Scorer
from coachloop.judge.rules.sure import sure_deliver
from coachloop.judge.rules.vector import signals
from coachloop.judge.rules.wording import wording


def _problems_for(on: set[str], outcome: Outcome, f: Features) -> list[Problem]:
    """What the coaching should name for a continued completion claim."""
    if outcome.problems:
        return list(outcome.problems)
    found: list[Problem] = [Problem(kind="hedge", detail="hedged", quote=q) for q in f.hedges[:2]]
    if "tests_failing" in on:
        found.append(Problem(kind="failing", detail="the test run shown has failures"))
    if "claim_handoff" in on:
        found.append(
            Problem(kind="unverified", detail="the check is left to the human; none is shown")
        )
    if not found and ("claim_no_evidence" in on or "fix_no_evidence" in on):
        found.append(Problem(kind="no_evidence", detail="no checkable evidence"))
    return found


def _claims(on: set[str]) -> bool:
    return bool(on & {"done", "done_opening", "asserted", "hedge", "fix_claim"})


def _delivered_type(outcome: Outcome, on: set[str]) -> MessageType:
    if outcome.type != "status":
        return outcome.type
    if "blocked" in on:
        return "blocker"
    if _claims(on) or "evidence" in on or "answer_like" in on or "long" in on:
        return "completion"
    return "question"


def _last_run_fails(f: Features) -> bool:
    """The last test run the message shows failed. Summaries are listed by runner, so the
    last one is the last run only when one runner printed them all; go's are counted over
    the whole message (its passing re-run after a failing one is in the same count)."""
    runs = f.msg_evidence.tests
    if not runs or not runs[-1].failed or runs[-1].runner in ("go", "generic"):
        return False
    return all(t.runner == runs[-1].runner for t in runs)


# Problems the agent's own words admit, which send a claim back without a score (the real
# data shows none, so no weight could be learned; nothing in them asks the human), first
# found first: the tests that would prove the change skipped (`skipped.skipped_check`:
# whatever else the message shows, the claim is not proven), a stand-in called done
# (`stand_in`).
_UNSCORED = (
    ("skipped", "the checks covering the change were skipped or routed around"),
    ("placeholder", "it calls a stand-in done"),
)


def route(f: Features, item: JudgeInput, outcome: Outcome, scorer: Scorer) -> Outcome:
    """The final outcome for one stop (see the module docstring)."""
    sure = sure_deliver(f, outcome)
    if sure == "question" and f.blocked:
        sure = "blocker"  # a person is asked to act on what stops the work
    if sure is not None:
        # the rules' own reading stands, unless they recognised nothing (their fallback) or
        # read a finished report where the ending plainly asks the human or names a blocker
        overruled = outcome.type == "completion" and sure in ("question", "blocker")
        if outcome.type != "status" and outcome.reason != UNRECOGNISED and not overruled:
            return Outcome(outcome.type, outcome.confidence, outcome.reason)
        why: str = {
            "error": "the message reports that the agent's own run failed",
            "question": "the agent asks the human to answer or act",
            "blocker": "something outside the agent's control stops the work",
        }.get(sure, outcome.reason)
        return Outcome(sure, 0.85, why)

    kinds = {p.kind for p in outcome.problems}
    for kind, why in _UNSCORED:
        if kind in kinds:
            return Outcome(
                "status",
                0.8,
                f"a completion claim that does not hold up: {why}",
                list(outcome.problems),
            )
    if f.done and _last_run_fails(f) and "failing" in kinds:
        # the README's own case of a rejected completion: done, beside a failing run that is
        # the last one shown (a later passing run, even one only said, leaves it to the score)
        return Outcome(
            "status",
            0.8,
            "a completion claim that does not hold up: it calls the work done beside a failing "
            "test run",
            list(outcome.problems),
        )
    on = signals(f, item, outcome)
    lean = scorer.said_weight(wording(f, item))
    p = scorer.probability(on, lean)
    if p >= scorer.threshold:
        why = "; ".join(scorer.explain(on, toward_continue=True, lean=lean)) or outcome.reason
        problems = _problems_for(on, outcome, f) if _claims(on) else []
        kind = "a completion claim that does not hold up" if problems else "work still under way"
        return Outcome("status", round(p, 3), f"{kind}: {why}", problems)
    kind = _delivered_type(outcome, on)
    why = "; ".join(scorer.explain(on, toward_continue=False, lean=lean)) or outcome.reason
    return Outcome(kind, round(1.0 - p, 3), f"for the human: {why}")
