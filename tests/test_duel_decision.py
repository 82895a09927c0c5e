"""Decisions: self-consistency, parsing untrusted answers, fail-closed enforcement, and
the shipped JSON Schemas (checked against the reference `jsonschema` implementation)."""

from __future__ import annotations

from typing import Any

import pytest

from coachloop.duel import schemas
from coachloop.duel.decision import (
    CoachAnswer,
    DecisionError,
    FeedbackItem,
    answer_schema,
    enforce,
    invalid_answer,
    parse_answer,
)

try:  # the reference implementation, when installed (it comes with claude-agent-sdk)
    import jsonschema  # type: ignore[import-untyped]
except ImportError:  # pragma: no cover - our validator is still checked against expectations
    jsonschema = None

ITEM = {"severity": "major", "issue": "add() ignores floats", "action": "Accept floats."}
CRITICAL = {"severity": "critical", "issue": "test_add fails", "action": "Fix add()."}


def test_severity_defaults_to_the_worst_item() -> None:
    answer = parse_answer({"decision": "feedback", "rationale": "r", "items": [ITEM, CRITICAL]})
    assert answer.level == "critical"
    assert parse_answer({"decision": "approve", "rationale": "fine"}).level == "minor"


@pytest.mark.parametrize(
    ("answer", "message"),
    [
        ({"decision": "approve", "rationale": "r", "items": [CRITICAL]}, "cannot have a critical"),
        ({"decision": "approve", "rationale": "r", "severity": "critical"}, "cannot have a crit"),
        ({"decision": "feedback", "rationale": "r", "items": []}, "at least one specific"),
        (
            {"decision": "feedback", "rationale": "r", "items": [CRITICAL], "severity": "minor"},
            "below the worst item",
        ),
        ({"decision": "maybe", "rationale": "r"}, "decision"),
        ({"decision": "approve", "rationale": "   "}, "rationale"),
        (
            {
                "decision": "feedback",
                "rationale": "r",
                "items": [{"severity": "major", "issue": "x"}],
            },
            "action",
        ),
        ({"rationale": "no decision at all"}, "no 'decision' field"),
    ],
)
def test_inconsistent_or_incomplete_answers_are_invalid(
    answer: dict[str, Any], message: str
) -> None:
    with pytest.raises(DecisionError, match=message):
        parse_answer(answer)


def test_answers_are_found_in_text_fences_and_prose() -> None:
    plain = '{"decision": "approve", "rationale": "ok"}'
    assert parse_answer(plain).decision == "approve"
    fenced = f"Here it is:\n```json\n{plain}\n```\n"
    assert parse_answer(fenced).decision == "approve"
    prose = 'I ran the tests. {"decision": "feedback", "rationale": "no", "items": [' + (
        '{"severity": "critical", "issue": "x fails", "action": "fix x"}]}\nThanks.'
    )
    assert parse_answer(prose).decision == "feedback"
    for bad in ("", "   ", "approve", "[1, 2]", '{"decision": '):
        with pytest.raises(DecisionError):
            parse_answer(bad)


def test_enforce_turns_an_approval_with_blockers_into_feedback() -> None:
    approve = parse_answer({"decision": "approve", "rationale": "Great work.", "items": [ITEM]})
    blocker = FeedbackItem.model_validate(CRITICAL)
    decision = enforce(approve, [blocker], task_id="T", turn=2, coach="c")
    assert decision.decision == "feedback" and decision.level == "critical"
    assert decision.coach_decision == "approve"
    assert decision.overrides == ("test_add fails",)
    assert [i.issue for i in decision.items] == ["test_add fails", "add() ignores floats"]
    assert "Great work." in decision.rationale
    kept = enforce(approve, [], task_id="T", turn=2, coach="c")
    assert kept.decision == "approve" and kept.overrides == ()
    feedback = parse_answer({"decision": "feedback", "rationale": "r", "items": [ITEM]})
    assert enforce(feedback, [blocker], task_id="T", turn=1, coach="c").items == feedback.items


def test_written_decisions_fit_the_shipped_schema() -> None:
    schema = schemas.load("decision")
    approve = parse_answer({"decision": "approve", "rationale": "ok"})
    overridden = enforce(
        approve, [FeedbackItem.model_validate(CRITICAL)], task_id="T", turn=1, coach="c"
    )
    for decision in (
        overridden,
        enforce(approve, [], task_id="T", turn=1, coach="c"),
        invalid_answer("no decision", task_id="T", turn=3, coach="c"),
    ):
        document = decision.to_json()
        assert schemas.validate(document, schema) == []
        if jsonschema is not None:
            jsonschema.validate(document, schema)


LOC = dict(ITEM, location="a.py:3")
# (answer, valid as a decision file, valid for the answer schema). The answer schema
# has no cross-field rules (strict structured-output modes reject them); the model does.
DOCS: list[tuple[dict[str, Any], bool, bool]] = [
    ({"decision": "approve", "rationale": "ok", "items": [], "severity": "minor"}, True, True),
    ({"decision": "approve", "rationale": "ok", "items": [], "severity": "critical"}, False, True),
    (
        {
            "decision": "approve",
            "rationale": "ok",
            "items": [dict(CRITICAL, location=None)],
            "severity": "major",
        },
        False,
        True,
    ),
    ({"decision": "feedback", "rationale": "no", "items": [], "severity": "major"}, False, True),
    ({"decision": "feedback", "rationale": "no", "items": [LOC], "severity": "major"}, True, True),
    ({"decision": "feedback", "rationale": "", "items": [LOC], "severity": "major"}, False, False),
    (
        {
            "decision": "feedback",
            "rationale": "no",
            "items": [dict(ITEM, location=3)],
            "severity": "major",
        },
        False,
        False,
    ),
    (
        {"decision": "feedback", "rationale": "no", "items": [dict(LOC, x=1)], "severity": "major"},
        False,
        False,
    ),
    ({"decision": "nope", "rationale": "no", "items": [], "severity": "major"}, False, False),
    ({"decision": "approve", "rationale": "ok", "items": []}, False, False),
]


@pytest.mark.parametrize(("document", "valid_file", "valid_answer"), DOCS)
def test_schema_validation_matches_expectations_and_jsonschema(
    document: dict[str, Any], valid_file: bool, valid_answer: bool
) -> None:
    full = dict(document, task_id="T", turn=1, coach="c", coach_decision=None, overrides=[])
    cases = (
        (full, schemas.load("decision"), valid_file),
        (document, answer_schema(), valid_answer),
    )
    for candidate, schema, expected in cases:
        assert (schemas.validate(candidate, schema) == []) is expected, candidate
        if jsonschema is not None:
            assert jsonschema.Draft202012Validator(schema).is_valid(candidate) is expected


def test_the_answer_schema_is_strict_and_matches_the_model() -> None:
    schema = answer_schema()
    assert schema["required"] == ["decision", "rationale", "items", "severity"]
    assert schema["additionalProperties"] is False
    assert set(schema["properties"]) <= set(CoachAnswer.model_fields)


@pytest.mark.parametrize(
    ("report", "valid"),
    [
        (
            {
                "task_id": "T",
                "turn": 1,
                "files_modified": [],
                "tests_written": [],
                "implementation_notes": "",
            },
            True,
        ),
        (
            {
                "task_id": "T",
                "turn": 1,
                "files_modified": ["a"],
                "tests_written": ["t"],
                "implementation_notes": "n",
                "tests_passing": None,
                "concerns": ["c"],
            },
            True,
        ),
        (
            {
                "task_id": "T",
                "turn": 0,
                "files_modified": [],
                "tests_written": [],
                "implementation_notes": "",
            },
            False,
        ),
        (
            {
                "task_id": "T",
                "turn": 1,
                "files_modified": "a.py",
                "tests_written": [],
                "implementation_notes": "",
            },
            False,
        ),
        (
            {
                "task_id": "T",
                "turn": True,
                "files_modified": [],
                "tests_written": [],
                "implementation_notes": "",
            },
            False,
        ),
        ({"turn": 1, "files_modified": [], "tests_written": [], "implementation_notes": ""}, False),
    ],
)
def test_report_schema(report: dict[str, Any], valid: bool) -> None:
    schema = schemas.load("report")
    assert (schemas.validate(report, schema) == []) is valid
    if jsonschema is not None:
        assert jsonschema.Draft202012Validator(schema).is_valid(report) is valid


def test_unsupported_schema_keywords_are_errors_not_passes() -> None:
    assert schemas.validate("abc", {"type": "string", "pattern": "^x"}) != []
