"""Terse stops, in the forms the validation set `blind58` showed (written here anew): a run
quoted after its inline command, a harness's stream error, a choice before a step that can't
be undone, a bare "Confirm.", an account only the human pays for, credentials a sandbox
lacks, a spending limit, and someone else's account that has to act."""

from __future__ import annotations

import pytest

from coachloop.evidence.text import extract
from judge_support import reads as _reads


@pytest.mark.parametrize(
    ("text", "passed"),
    [
        ("- ✅ `pytest tests/profile -q` (17 passed)", 17),
        ("Alle Tests grün (`npm test`: 54 passing).", 54),
        ("Migration applied. `pytest` 21 passed.", 21),
        ("`npm test -- search` → 12 passed", 12),
    ],
)
def test_a_count_after_its_inline_command_is_a_run(text: str, passed: int) -> None:
    tests = extract(text).tests
    assert tests and tests[-1].passed == passed and tests[-1].failed == 0


def test_a_count_quoted_by_itself_is_not_read_as_its_commands_run() -> None:
    # "→ `5 passed`": the backtick opens the count, it does not close a command
    assert not extract("Testing: `pytest tests/test_utils.py -q` → `5 passed`").tests


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        (
            "Сейчас поправлю импорт…\n\nstream error: unexpected status 502 Bad Gateway; "
            "retrying 5/5 in 16s…",
            "error",
        ),
        (
            "Signing fails: no provisioning profile in this keychain. Someone with the Apple dev "
            "account has to export it.",
            "blocker",
        ),
        (
            "Summary\n- retry uploads with backoff\n\nTesting\n- ⚠️ `pytest tests/s3` not run: no "
            "AWS credentials in the sandbox",
            "blocker",
        ),
        (
            "CI won't run: the org hit the Actions spending limit. Billing needs sorting first.",
            "blocker",
        ),
    ],
)
def test_terse_errors_and_blockers(text: str, kind: str) -> None:
    assert _reads(text, "do it") == (kind, "deliver")


@pytest.mark.parametrize(
    "text",
    [
        "Tests green (88 passed). Before I push: squash into one commit or keep the 4 WIP commits",
        "I'm about to run `git reset --hard origin/main`; it drops your edits in 2 files. Confirm.",
        "The SMS provider's trial only sends to verified numbers, so the test fails. verify the "
        "number or upgrade the account",
    ],
)
def test_terse_requests(text: str) -> None:
    assert _reads(text, "finish it")[1] == "deliver"


def test_waiting_on_ci_before_calling_it_done_is_work_under_way() -> None:
    text = (
        "Tests are green locally (`cargo test`: 40 passed). Pushed the branch; waiting for the "
        "Windows job before I call this done."
    )
    assert _reads(text, "fix the crash on Windows")[1] == "continue"
