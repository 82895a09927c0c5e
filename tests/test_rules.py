"""Behaviour of the offline rules judge on messages written for these tests."""

from __future__ import annotations

import pytest

from coachloop.core.judge_input import JudgeInput
from coachloop.judge import make_judge

JUDGE = make_judge()


def judge(text: str, **context: object):  # type: ignore[no-untyped-def]
    return JUDGE.judge(JudgeInput(text=text, **context))  # type: ignore[arg-type]


CASES = [
    # questions, with and without a question mark, and approval requests
    ("Should the cache key include the tenant id, or stay global?", "question"),
    ("I need your decision on the retention period before I write the job.", "question"),
    ("Waiting for your go-ahead before I drop the `sessions_old` table.", "question"),
    ("Soll ich die Migration gleich auf Produktion anwenden oder erst auf Staging?", "question"),
    ("¿Prefieres que use Redis o Memcached para la caché?", "question"),
    ("Dois-je supprimer l'ancienne API maintenant ?", "question"),
    # plain status
    ("Running the integration suite now; it takes about four minutes.", "status"),
    ("Step 3 of 6 done (the parser). Next: the serializer.", "status"),
    ("Je corrige la requête et je reviens avec les résultats.", "status"),
    # errors
    ("API Error: 529 overloaded_error · retrying in 8s", "error"),
    ("Traceback (most recent call last):\n  File \"agent.py\", line 3\nKeyError: 'x'", "error"),
    ("I changed the retry loop so that it now waits for the", "error"),
    # the harness's own lines, without an "API Error" prefix
    ("Retrying in 8 seconds… (attempt 4 of 10)", "error"),
    ("Model overloaded, please try again later.", "error"),
    ("Server disconnected without sending a response.", "error"),
    ("Claude usage limit reached. Your limit will reset at 3pm (Europe/Berlin).", "error"),
    ("Your credit balance is too low to access the Anthropic API.", "error"),
    ("Conversation too long. Press esc twice to go up a few messages and try again.", "error"),
    ("[Request interrupted by user]", "error"),
    ("No response from the model. Please try again.", "error"),
    ("You’ve hit your limit · resets 5am (America/Los_Angeles)", "error"),
    ("5-hour limit reached ∙ resets 9pm", "error"),
    ("You’re out of extra usage · resets 11pm", "error"),
    ("Provider request timed out after 120s.", "error"),
    ("The LLM did not conform to the edit format.", "error"),
    ("Unknown: an internal error occurred (error ID: 5e7095ae)", "error"),
    ("402 Insufficient Balance", "error"),
    # blockers
    (
        "I can't deploy: the `DEPLOY_TOKEN` secret is missing and I have no access to the "
        "repository settings. Someone with admin rights needs to add it.",
        "blocker",
    ),
    (
        "The staging API returns 503 for every request and their status page shows an "
        "incident, so I can't run the contract tests until it is back.",
        "blocker",
    ),
]


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_types(text: str, expected: str) -> None:
    assert judge(text).type == expected


def test_evidenced_completion_is_delivered() -> None:
    v = judge(
        "Fixed the rounding bug in `billing/tax.py`.\n\n```\n$ pytest -q\n42 passed in 0.8s\n```\n"
        "Commit `1a2b3c4d`."
    )
    assert (v.type, v.route, v.rejected_completion) == ("completion", "deliver", False)
    assert v.evidence.tests_ok and v.evidence.commits == ("1a2b3c4d",)
    assert v.coaching_message is None


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("Fixed the login redirect. It should work now.", "hedge"),
        ("Die Umstellung ist fertig, sollte jetzt funktionieren.", "hedge"),
        ("Listo, debería funcionar ahora.", "hedge"),
        ("C'est fait, normalement ça marche.", "hedge"),
        ("Done. All tests pass.", "unverified"),
        ("Done:\n```\n$ pytest\n3 failed, 40 passed in 2.1s\n```", "failing"),
        ("Implemented the export endpoint.", "no_evidence"),
    ],
)
def test_rejected_completions_name_the_problem(text: str, kind: str) -> None:
    v = judge(text)
    assert (v.type, v.route, v.rejected_completion) == ("status", "continue", True)
    assert kind in {p.kind for p in v.problems}
    assert v.coaching_message and v.coaching_message.startswith("[System Coach]")


def test_hedges_inside_code_or_quotes_do_not_count() -> None:
    v = judge(
        'Replaced the comment `# this should work for now` and the log line "probably fine" '
        "with real checks.\n\n```\n$ go test ./...\nok  \texample.com/x\t0.2s\n```\nCommit `ab12cd3`."
    )
    assert v.type == "completion"


def test_optional_offer_after_evidenced_work_is_a_completion() -> None:
    v = judge(
        "Added the CSV export.\n```\n$ npm test\nTests:       12 passed, 12 total\n```\n"
        "PR: https://github.com/acme/app/pull/9\n\nWant me to add an XLSX export too?"
    )
    assert v.type == "completion"


def test_a_real_choice_after_work_is_a_question() -> None:
    v = judge("Committed `ab12cd3`. Should I also delete the old endpoint, or keep it deprecated?")
    assert v.type == "question"


def test_a_check_claimed_beside_the_run_that_shows_it_is_verified() -> None:
    # "confirmed it's serving" is shown: the command and what it printed
    v = judge(
        "Deployed the API and confirmed it's serving.\n\n```\n$ curl -s -o /dev/null "
        '-w "%{http_code}" https://api.example.dev/healthz\n200\n```'
    )
    assert (v.type, v.route) == ("completion", "deliver")


def test_failing_tests_while_still_fixing_is_plain_status() -> None:
    v = judge(
        "```\nTests:  2 failed, 30 passed, 32 total\n```\nBoth are real bugs; fixing them now."
    )
    assert (v.type, v.rejected_completion) == ("status", False)


def test_answer_to_a_question_needs_no_test_evidence() -> None:
    v = judge(
        "The cache is invalidated in `on_commit`, so readers may see stale data for one request.",
        prompt="Why do readers sometimes see stale data?",
    )
    assert (v.type, v.route) == ("completion", "deliver")


def test_skill_evidence_is_required() -> None:
    v = judge("/do-test finished: added cases for the parser.", skill="/do-test")
    assert v.rejected_completion
    assert "/do-test" in (v.coaching_message or "")
    docs = judge("Docs updated: `docs/api/auth.md` and `docs/index.md`.", skill="/do-docs")
    assert docs.type == "completion"


def test_skill_from_phase_shapes_the_coaching() -> None:
    v = judge("Implemented the model and the API.", phase="build")
    assert v.rejected_completion and "/do-build" in (v.coaching_message or "")


@pytest.mark.parametrize("event", ["StopFailure"])
def test_stop_failure_is_an_error_whatever_the_text(event: str) -> None:
    v = judge("Running the tests now.", event=event, error="rate_limit")
    assert (v.type, v.route, v.source) == ("error", "deliver", "signal")
    assert "rate_limit" in v.reason


@pytest.mark.parametrize("text", ["", "   \n\t", "(no content)"])
def test_empty_message_is_an_error(text: str) -> None:
    v = judge(text)
    assert (v.type, v.route, v.confidence) == ("error", "deliver", 1.0)


def test_huge_and_odd_input_is_judged_safely() -> None:
    assert judge("x " * 5_000_000).route in {"deliver", "continue"}
    assert judge("\x00\ufffd" * 1000 + " Should I go on?").type == "question"
    long_done = (
        "Fixed it. "
        + "word " * 1_000_000
        + "\n```\n$ pytest\n5 passed in 1s\n```\nCommit `ab12cd3`."
    )
    assert judge(long_done).type == "completion"  # head and tail are read


def test_a_hedge_after_now_is_not_taken_for_ongoing_work() -> None:
    v = judge("Done! I refactored `client/http.py`. It should work now, I think the bug is gone.")
    assert v.rejected_completion
    assert [p.kind for p in v.problems] == ["hedge"]  # one problem, quoted once
    assert "“It should work now, I think the bug is gone”" in (v.coaching_message or "")


def test_cargo_doc_tests_zero_summary_beside_a_passing_suite_is_not_a_failure() -> None:
    # cargo prints "0 passed" for the doc-tests after every passing unit-test run.
    text = (
        "Fixed the overflow in `parse_len`. cargo test:\n\nrunning 24 tests\n"
        "test result: ok. 24 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; "
        "finished in 0.02s\n\n   Doc-tests mycrate\n\nrunning 0 tests\n\n"
        "test result: ok. 0 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; "
        "finished in 0.00s\n"
    )
    verdict = make_judge().judge(JudgeInput(text=text))
    assert verdict.route == "deliver" and verdict.evidence.tests_ok
    alone = (
        "Done. cargo test:\n\nrunning 0 tests\n\ntest result: ok. 0 passed; 0 failed; 0 ignored\n"
    )
    assert make_judge().judge(JudgeInput(text=alone)).route == "continue"


def test_lexicon_patterns_are_lower_case_as_their_matching_needs() -> None:
    """The lexicon is matched against lowercased text (no IGNORECASE): a pattern with an
    upper-case letter outside an escape or a class could never match."""
    import re

    from coachloop.judge.rules import lexicon as lx
    from coachloop.judge.rules.lexicon import cues, own_failures, prompts

    tables = [v for v in vars(lx).values() if isinstance(v, dict)]
    tables += [
        v for m in (cues, own_failures, prompts) for v in vars(m).values() if isinstance(v, dict)
    ]
    syntax = re.compile(r"\\[A-Za-z]|\(\?[A-Za-z]+[:)]|\[\^?[^\]]*\]")
    patterns = [p for t in tables for ps in t.values() if isinstance(ps, tuple) for p in ps]
    assert len(patterns) > 500
    upper = [p for p in patterns if any(c.isupper() for c in syntax.sub("", p))]
    assert upper == []
    features = lx.compile_lexicon({"en": (r"\bdone\b",)})
    assert features.search("all done.") and not features.search("All DONE.")
