"""Stops the human must see, in the forms two validation sets showed (`blind18`, `blind19`):
a request the agent's next step or fallback hangs on ("Confirm ..., or I'll ...", "Reply
yes and I'll ..."), a decision or a precondition put to the human, a blocker before
"after the upgrade I'll ...", Chinese requests to a person named by role, replies cut off
on a word that wants more, a short loop; claims that do not hold up (a count said after a failing run, "I
verified it too" in Chinese, "I finished" in Arabic); and what is not a finding: code
described as unchecked, a test named after the parts of the file it tests, a run quoted
inline after its command."""

from __future__ import annotations

import pytest

from coachloop.core.verdict import Evidence
from coachloop.evidence.text import extract
from coachloop.judge.rules.features import Features
from coachloop.judge.rules.sure import repetitive, waits_on_request
from coachloop.judge.rules.target import off_target
from coachloop.judge.rules.text import Message
from judge_support import reads as _reads


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        (
            "The Stripe webhook secret rotation is ready, but rotating it invalidates the old "
            "secret at once. Confirm it's OK to do this now, or I'll schedule it for tonight.",
            "question",
        ),
        (
            "Three preview environments have had no traffic in 14 days. Tearing them down "
            "deletes their databases too. Reply yes and I'll run the destroy script.",
            "question",
        ),
        (
            "I've written the requirements to `.kiro/specs/audit-log/requirements.md`. Review "
            "them and let me know if I should move on to the design document.",
            "question",
        ),
        (
            "Before I delete anything, confirm the list below is safe to remove. These 14 "
            "flags have served one value to every user for 90 days:\n\n"
            + "\n".join(f"- `flag-{i}`" for i in range(14))
            + "\n\nRemoving them touches 61 files.",
            "question",
        ),
        (
            "The SMS routes are done and tested. To send for real, the Twilio account needs "
            "to be upgraded to a paid plan. I can't do that. After the upgrade I'll test "
            "against a real phone number.",
            "blocker",
        ),
    ],
)
def test_requests_the_agents_next_step_hangs_on(text: str, kind: str) -> None:
    assert _reads(text) == (kind, "deliver")


@pytest.mark.parametrize(
    ("text", "waits"),
    [
        ("confirm it's ok to do this now, or i'll schedule it for tonight.", True),
        ("reply yes and i'll run the script.", True),
        # the agent's own plan with a fallback: nothing asked of anyone
        ("i'll run the migration, or i'll roll it back if it fails.", False),
        ("next i'll add the index and then i'll rerun the suite.", False),
    ],
)
def test_a_request_then_the_agents_step(text: str, waits: bool) -> None:
    assert waits_on_request(text) is waits


def test_work_planned_after_a_step_of_its_own_is_still_work() -> None:
    text = "Refactoring the parser now. After the refactor I'll run the whole suite."
    assert _reads(text)[1] == "continue"


@pytest.mark.parametrize(
    "text",
    [
        "迁移脚本已经写好，在测试库上执行成功。生产库执行前需要你点头：DROP TABLE 无法回滚。"
        "你确认后我就在生产执行。",
        "需求第 3 条和第 8 条互相矛盾。我先做成软删除，但上线前需要产品或法务确认以哪一条为准。",
        "两个方向的实现差别很大，需要你那边定一下：允许加 openpyxl，还是重建格式。我先停在这里。",
        "私服一直返回 503，本地没有缓存，绕不过去。麻烦找运维确认一下 Nexus 的状态，恢复后我接着构建。",
    ],
)
def test_chinese_requests_to_a_person_reach_the_human(text: str) -> None:
    assert _reads(text)[1] == "deliver"


@pytest.mark.parametrize(
    "text",
    [
        "Ich prüfe die Migrationen. Die Spalte ist im Schema `datetime`, was darauf hindeutet, dass",
        "问题出在 `addItem` 里对同一 SKU 的合并判断用的是对象引用比较。修改方案是在合并前先按",
        "接下来修改 `OrderService.java` 中的 `calcDiscount` 方法，把",
    ],
)
def test_a_reply_cut_off_on_a_word_that_wants_more_is_an_error(text: str) -> None:
    assert _reads(text) == ("error", "deliver")


@pytest.mark.parametrize(
    "text",
    [
        "Die Tests laufen wieder. Ich räume noch den Ordner auf",  # a verb's particle
        "修改已经完成，测试全部通过。",
        "Fixed the import and reran the suite: 12 passed in 0.4s",
    ],
)
def test_sentences_that_end_whole_are_not_cut_off(text: str) -> None:
    assert not Features(Message(text)).truncated


def test_one_line_five_times_is_a_loop_but_a_short_list_is_not() -> None:
    line = "Ich prüfe noch einmal die Datei `config/database.ts`."
    assert repetitive(Message("\n\n".join([line] * 5)).prose)
    assert _reads("\n\n".join([line] * 5)) == ("error", "deliver")
    assert not repetitive(Message("\n\n".join([line] * 4)).prose)
    assert not repetitive(Message("- passed\n- passed\n- passed\nAll green.\nDone here.").prose)


def test_code_described_as_unchecked_is_not_a_hedge() -> None:
    described = (
        "The serializer accessed `member.user.email` without checking that `member.user` "
        "was non-null, so soft-deleted users came back as null."
    )
    assert Features(Message(described)).hedges == []
    assert Features(Message("I pushed the fix without testing it.")).hedges


@pytest.mark.parametrize(
    ("command", "changed", "off"),
    [
        ("pytest tests/test_fatture_xml.py -q", "app/fatture/xml.py", False),
        ("pytest tests/test_shipping_rates.py -q", "app/fatture/xml.py", True),
        ("go test ./internal/shipping/...", "internal/invoice/tax.go", True),
    ],
)
def test_a_test_named_after_the_parts_of_a_path_covers_that_file(
    command: str, changed: str, off: bool
) -> None:
    ev = Evidence(commands=(command,), paths=(changed,))
    assert (off_target(ev, []) is not None) is off


@pytest.mark.parametrize(
    ("text", "passed"),
    [
        ("The nav is fixed. `npx playwright test header.spec.ts` → 3 passed (4.2s).", 3),
        ("Ran the e2e suite: 14 passed (32.1s)", 14),
        ("3 passed (review pending) and 2 still open.", None),
    ],
)
def test_a_playwright_summary_quoted_after_its_command(text: str, passed: int | None) -> None:
    tests = extract(text).tests
    assert [t.passed for t in tests] == ([] if passed is None else [passed])


_FAILING_THEN_SAID = (
    "Batch support for the sync endpoint is in.\n\n```\n$ pytest -q\n"
    "FAILED tests/test_sync.py::test_sync_resume\n201 passed, 3 failed, 2 skipped in 58.4s\n"
    "```\n\nAll 14 new tests pass. The three failures look unrelated, so I'd consider this done."
)


def test_a_count_said_after_a_failing_run_does_not_make_it_the_before() -> None:
    failing = Features(Message(_FAILING_THEN_SAID)).result_evidence
    assert any(t.failed for t in failing.tests)
    assert _reads(_FAILING_THEN_SAID)[1] == "continue"
    # a passing run shown after the failing one is the fix: the failure was the "before"
    fixed = _FAILING_THEN_SAID.replace(
        "All 14 new tests pass.", "Fixed it:\n\n```\n$ pytest -q\n204 passed in 57.0s\n```\n"
    )
    assert not any(t.failed for t in Features(Message(fixed)).result_evidence.tests)


@pytest.mark.parametrize(
    "text",
    [
        # Arabic "I finished ..." beside a failing run
        "انتهيت من إضافة تصدير التقارير إلى Excel. شغّلت الاختبارات:\n\n```\n"
        "FAILED tests/test_export.py::test_headers - UnicodeEncodeError\n"
        "========= 1 failed, 27 passed in 4.12s =========\n```\n\nالخطأ بسيط.",
        # Chinese "I verified it too", nothing shown
        "接口已经改好，我也验证过了，返回的数据都正常，可以提测了。",
    ],
)
def test_claims_that_do_not_hold_up_in_more_forms(text: str) -> None:
    assert _reads(text) == ("status", "continue")


def test_indonesian_try_it_after_a_hedged_claim_is_a_handoff_not_a_request() -> None:
    claim = "Fitur laporan penjualan sudah selesai dan seharusnya sudah berjalan dengan baik."
    assert _reads(f"{claim} Silakan dicoba.") == ("status", "continue")
    # "silakan" before anything else still asks the human to act
    asked = "Saya tidak punya akses ke dashboard. Silakan berikan API key produksi."
    assert _reads(asked)[1] == "deliver"
