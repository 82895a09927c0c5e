"""The patterns real agents' messages showed the rules missing, on messages written here.

Requests to act without a question mark, a package manager's own success line as
evidence, an obstacle the agent goes around itself, a failure that a reproduction task
asked for, and a placeholder called done.
"""

from __future__ import annotations

from coachloop.coach import rejection_lines
from coachloop.core.judge_input import JudgeInput
from coachloop.judge import make_judge

JUDGE = make_judge()
REPRO = "Write a minimal script that reproduces the KeyError and show me the traceback"
CRASH = (
    "Reproduced it:\n```\n$ python repro.py\nTraceback (most recent call last):\n"
    "  File \"repro.py\", line 4, in <module>\nKeyError: 'user_id'\n```\n"
    "The crash comes from `load_session` reading a key the v2 cookie no longer sets."
)


def _judge(text: str, prompt: str = "please handle this"):  # type: ignore[no-untyped-def]
    return JUDGE.judge(JudgeInput(text=text, prompt=prompt))


def test_ping_me_once_done_waits_on_the_human() -> None:
    verdict = _judge("Log in with `gh auth login` and ping me once that's done.")
    assert (verdict.type, verdict.route) == ("question", "deliver")


def test_an_install_shown_with_its_success_line_is_verified() -> None:
    text = (
        "Installed and verified:\n```\n$ pip install -e .\nSuccessfully installed acme-0.3.1\n"
        "$ acme --version\nacme 0.3.1\n```"
    )
    verdict = _judge(text, "install the package in editable mode")
    assert (verdict.type, verdict.route) == ("completion", "deliver")
    assert "Successfully installed" in verdict.evidence.successes


def test_an_obstacle_the_agent_goes_around_is_not_a_blocker() -> None:
    text = (
        "Installing it system-wide needs admin rights, so let me use a user install with "
        "pip --user instead:"
    )
    verdict = _judge(text)
    assert (verdict.type, verdict.route) == ("status", "continue")
    # without the way around, the same obstacle is the human's
    blocked = _judge("Installing it system-wide needs admin rights, which I don't have.")
    assert (blocked.type, blocked.route) == ("blocker", "deliver")


def test_the_failure_a_reproduction_asked_for_is_the_result() -> None:
    assert _judge(CRASH, REPRO).route == "deliver"
    # asked to fix, the same traceback says the work is not done
    fixing = _judge(CRASH, "fix the KeyError in load_session")
    assert (fixing.type, fixing.route) == ("status", "continue")


def test_a_placeholder_called_done_goes_back_with_the_stub_named() -> None:
    text = (
        "Done! Implemented `send_invoice()` (it just returns True for now, real logic TODO) "
        "and committed it as 4c5d6e7."
    )
    verdict = _judge(text, "implement send_invoice")
    assert (verdict.type, verdict.route) == ("status", "continue")
    stub = [p for p in verdict.problems if p.kind == "placeholder"]
    assert stub and stub[0].quote == "returns true for now"
    assert "placeholder" in " ".join(rejection_lines(verdict.problems))
