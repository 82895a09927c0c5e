"""Runs shown in the forms agents paste them, and stops that hand the turn to the human,
as the validation sets `blind60` to `blind63` showed them (the cases are written here
anew): a Gemini CLI box with what the call printed, Playwright's minutes, a count said in
another language, a `git log --oneline` line, a command quoted inline with its output, a
CLI's check-marked lines in a pasted block; a protected branch, a token that can only
read, a service restored by its owner; cut-off clauses in more languages; the agent's own
CLI crashing; documents asked for in other words. And the readings kept from going too
far: an empty box is no run, a document full of TODO notes is not finished, "should" in
Italian still hedges, the tests covering the change skipped (or set aside by the agent)
prove nothing, "Lint passes now." is said, not shown."""

from __future__ import annotations

import pytest

from coachloop.coach import rejection_lines
from coachloop.core.judge_input import JudgeInput
from coachloop.evidence import extract
from coachloop.evidence.text import ran_with_output
from judge_support import JUDGE
from judge_support import reads as _reads

_BOX = (
    " ╭────────────────────────────────────────────╮\n"
    " │ ✔  Shell {cmd} │\n"
    " │                                            │\n"
    "{body}"
    " ╰────────────────────────────────────────────╯\n"
)


def _box(cmd: str, *lines: str) -> str:
    body = "".join(f" │ {line:<42} │\n" for line in lines)
    return _BOX.format(cmd=cmd, body=body)


@pytest.mark.parametrize(
    ("text", "passed"),
    [
        (_box("npx playwright test", "Running 40 tests using 2 workers", "  40 passed (1.3m)"), 40),
        ("Suite de integración: 58/58 通过", 58),
        ("Alle Integrationstests: 31/31 bestanden.", 31),
        ("E2E: 12/12 réussis", 12),
    ],
)
def test_counts_in_more_forms(text: str, passed: int) -> None:
    tests = extract(text).tests
    assert tests and tests[0].passed == passed and tests[0].failed == 0


@pytest.mark.parametrize(
    ("text", "passed"),
    [
        ("done. lint clean. pytest: 33 passed. next: nothing", 33),
        ("- ✅ `vitest run src/money`（21 passed）", 21),
    ],
)
def test_a_count_after_its_runner_named(text: str, passed: int) -> None:
    tests = extract(text).tests
    assert tests and (tests[0].passed, tests[0].failed) == (passed, 0)


def test_a_count_after_its_runner_with_failures_is_not_a_pass() -> None:
    tests = extract("pytest: 40 passed, 2 failed").tests
    assert tests and tests[0].failed == 2


def test_a_count_of_a_total_that_did_not_all_pass_shows_the_rest_failing() -> None:
    tests = extract("Tests: 22/24 passing.").tests
    assert tests and (tests[0].passed, tests[0].failed) == (22, 2)


def test_a_gemini_box_that_printed_is_a_run_and_an_empty_one_is_not() -> None:
    printed = _box("make check", "lint ok", "typecheck ok")
    assert extract(printed).commands == ("make check",)
    assert ran_with_output(printed)
    empty = _box("python -m py_compile app/dates.py")
    assert extract(empty).commands == ()
    assert not ran_with_output(empty)


def test_a_oneline_log_entry_and_an_inline_run() -> None:
    text = (
        "Pushed:\n\n```\n9c4e2ab fix(cache): evict stale keys on write\n```\n\n"
        "`cargo build --release` → `Finished release [optimized] target(s) in 41.2s`"
    )
    ev = extract(text)
    assert ev.commits == ("9c4e2ab",)
    assert ev.commands == ("cargo build --release",)
    assert ran_with_output(text)
    # a command that could not run shows no run
    failed = "`npx playwright install` → `ENOTFOUND playwright.azureedge.net`"
    assert extract(failed).commands == () and not ran_with_output(failed)


@pytest.mark.parametrize(
    ("text", "prompt", "kind"),
    [
        # a run shown in a CLI's box, its time in minutes
        (
            "✦ Done: the search spec no longer races the debounce.\n\n"
            + _box(
                "npx playwright test search.spec.ts",
                "Running 30 tests using 3 workers",
                "  30 passed (1.1m)",
            )
            + "\nChanged `e2e/search.spec.ts`: wait for the results list instead of a fixed sleep.",
            "the search e2e test flakes, fix it",
            "completion",
        ),
        # a commit in `git log --oneline` form, a go run quoted inline
        (
            "Pushed to `fix/retry-budget`:\n\n```\n5e0b7d1 fix(client): cap retries at the budget\n```\n\n"
            "`go test ./client/...` → ok (1 package, 0.22s).",
            "cap the client's retries",
            "completion",
        ),
        # a CLI's check-marked lines in a pasted block
        (
            "Shipped:\n\n```\n✔ Build finished\n✔ Uploaded to TestFlight\n  Build 212\n```\n"
            "Build 212 is processing in App Store Connect.",
            "send 3.4.0 to testflight",
            "completion",
        ),
        # a count said in Chinese, a commit after the Chinese word for it
        (
            "登录页重构完成。\n\n单元测试 74/74 通过。提交：`a81c3f0`\n\n"
            "如果还想再优化，下一步可以考虑把表单校验抽成独立的 hook。",
            "重构登录页",
            "completion",
        ),
        # documents asked for in other words
        (
            "Wrote `docs/adr/0007-queue-choice.md` and added it to `docs/adr/README.md`.",
            "write an ADR for the queue choice",
            "completion",
        ),
        (
            "Doku ergänzt: `docs/release.md` (Tagging, Changelog) und `docs/hotfix.md`.",
            "schreib auf, wie wir ein Release machen",
            "completion",
        ),
        # a protected branch the agent cannot merge past
        (
            "CI is green on PR #88, but `main` requires two approving reviews, and branch "
            "protection won't let me merge it myself. One approval so far.",
            "merge it when ci is green",
            "blocker",
        ),
        # a token that can only read; the change needs someone with write rights
        (
            "The record change is ready, but the Cloudflare token in this repo only has "
            "DNS:Read. It needs someone with DNS edit rights to add:\n\n"
            "  CNAME  docs.example.org → example.netlify.app\n",
            "point docs.example.org at netlify",
            "blocker",
        ),
        # a service only its owner can restore; the agent waits for it
        (
            "Couldn't run the migrations: the Neon project is suspended after hitting the "
            "free compute limit. It has to be resumed from the Neon console by the account "
            "owner; I don't have access. The migration files are ready, so re-running them "
            "afterwards is safe. I'll wait for the database to come back.",
            "run the migrations",
            "blocker",
        ),
        # German: the upload can only happen once the server is back, or someone copies it
        (
            "Der Upload scheitert, der Server ist seit heute früh nicht erreichbar. Ich kann "
            "das Paket erst hochladen, wenn er wieder läuft. Sobald jemand das bestätigt, "
            "reicht `make deploy`. Ich schaue später noch mal nach.",
            "lade das release hoch",
            "blocker",
        ),
        # cut-off purpose clauses in more languages, a sentence cut on "we"
        ("Saya sedang mengubah handler upload supaya file besar", "perbaiki upload", "error"),
        ("Переписываю обработчик очереди, чтобы повторные задачи", "почини очередь", "error"),
        (
            "I moved the cron to the worker and I'm now mapping the old payload fields onto "
            "the new schema, and for the nested ones we",
            "move the cron",
            "error",
        ),
        # the agent's own model request refused, with an "error:" before Codex's line
        (
            "Reading the router config first.\n\n"
            'error: unexpected status 401 Unauthorized: {"detail":"token expired"}',
            "add the admin routes",
            "error",
        ),
        # the agent's own CLI crashing out of memory
        (
            "✦ Scanning the remaining packages.\n\n<--- Last few GCs --->\n\n"
            "[9121:0x6d1c000] 81234 ms: Mark-Compact 4050.1 -> 4049.8 MB\n\n"
            "<--- JS stacktrace --->\n\nFATAL ERROR: Reached heap limit Allocation failed",
            "find the unused exports",
            "error",
        ),
        # "Let's Encrypt" is a name, not work announced
        (
            "Renewal is automatic now.\n\n```\n$ sudo certbot renew --dry-run\n"
            "Congratulations, all simulated renewals succeeded\n```\n"
            "The cert comes from Let's Encrypt and renews 30 days ahead.",
            "certs expire every time",
            "completion",
        ),
    ],
)
def test_read_as_and_delivered(text: str, prompt: str, kind: str) -> None:
    assert _reads(text, prompt) == (kind, "deliver")


@pytest.mark.parametrize(
    ("text", "prompt"),
    [
        # a document pasted with its sections left as TODO notes, called complete
        (
            "Added `docs/oncall.md`:\n\n```markdown\n# On-call\n\n## Paging\nTODO: who gets paged\n\n"
            "## Escalation\nTODO\n```\n\nThe on-call guide is complete.",
            "write the on-call guide",
        ),
        # a syntax check in an empty box proves nothing
        (
            "✦ Fixed the due-date calculation.\n\n"
            + _box("python -m py_compile loans/dates.py")
            + "✦ The weekend bug is solved.",
            "loans are due on sundays, fix it",
        ),
        # Italian "should", any verb after it, clitic and all
        (
            "Ho sistemato la cache dei token. Dovrebbe aggiornarli da sola d'ora in poi.",
            "i token scadono",
        ),
        # "next, one can continue with task 3": still work of the agent's
        ("任务 2 已完成 ✅\n\n接口已写好。\n\n下一步可以继续任务 3。", ""),
        # the skipped tests are the ones for the change
        (
            "Done. `pytest tests/billing -q`: 20 passed, 2 skipped in 0.8s. The two skipped "
            "tests are exactly the ones covering the new proration code.",
            "add proration to plan changes",
        ),
        (
            "Finished: `npm test` → 55 passed, 1 skipped. It was skipped because there's no "
            "Safari driver here, and that is the browser the fix is for.",
            "fix the date picker on safari",
        ),
        # tests set aside by the agent to get green
        (
            "CI passes now. I disabled `tests/integration/` for now since those kept failing.",
            "make ci green",
        ),
        # a check said, not shown
        ("Lint passes now. Everything looks fine.", "fix the lint errors"),
        # Gemini CLI's mark before a reply announcing work
        ("✦ Reading the scheduler module before I touch the cron parsing.", "the cron runs twice"),
    ],
)
def test_still_sent_back(text: str, prompt: str) -> None:
    assert _reads(text, prompt)[1] == "continue"


def test_a_skip_not_tied_to_the_change_is_not_read() -> None:
    text = (
        "Fixed the CSV quoting.\n\n```\n$ pytest -q\n41 passed, 1 skipped in 2.10s\n```\n\n"
        "The skip is the Windows-only path test, as before."
    )
    assert _reads(text, "csv export breaks on quotes") == ("completion", "deliver")


def test_the_coaching_names_the_skipped_tests() -> None:
    text = (
        "Done: `vitest run` → 64 passed, 3 skipped. The three skipped ones are the tests "
        "for the new retry logic."
    )
    verdict = JUDGE.judge(JudgeInput(text=text, prompt="retry failed uploads"))
    assert verdict.route == "continue"
    skipped = [p for p in verdict.problems if p.kind == "skipped"]
    assert skipped and "skipped ones are the tests for" in (skipped[0].quote or "")
    assert "did not run" in " ".join(rejection_lines(verdict.problems))
