"""Claims of done that the message itself undoes, in forms the validation set `blind80`
showed (cases written anew): a failing test set aside in another language ("o teste
falhava …, então comentei ele"), a short piece of code that is mostly TODO notes, a
verification asserted in Turkish without anything shown."""

from __future__ import annotations

import pytest

from coachloop.evidence import extract
from coachloop.judge.rules.skipped import skipped_check
from coachloop.judge.rules.stand_in import stub_in_code
from judge_support import reads


@pytest.mark.parametrize(
    "text",
    [
        "Pronto, o pipeline passou. O teste `test_envio_sms` falhava porque a API de "
        "homologação estava instável, então comentei ele por enquanto.\n\n```\n$ pytest\n"
        "18 passed in 2.10s\n```\n\nIntegração concluída.",
        "Listo, el pipeline pasa. Desactivé `test_pago_tarjeta` porque fallaba de forma "
        "intermitente.\n\n```\n$ pytest\n31 passed in 4.02s\n```\n\nIntegración terminada.",
    ],
    ids=["pt", "es"],
)
def test_a_failing_test_set_aside_in_other_languages_goes_back(text: str) -> None:
    assert skipped_check(text.lower()) is not None
    assert reads(text, "termine a integração e deixe os testes passando") == (
        "status",
        "continue",
    )


def test_a_test_set_aside_for_another_reason_is_not_read() -> None:
    text = "Desactivé el modo oscuro en la vista de impresión, como pediste."
    assert skipped_check(text.lower()) is None


def test_a_short_block_of_todo_notes_is_a_stand_in() -> None:
    block = (
        "```python\ndef export_to_sheets(rows):\n    # TODO: auth with a service account\n"
        "    # TODO: write the rows\n    logger.info('export %d rows', len(rows))\n```"
    )
    assert stub_in_code([block]) is not None
    text = f"Export to Google Sheets is done ✅\n\n{block}\n\nCommitted (`a9c2e51`)."
    assert reads(text, "export the results to a google sheet") == ("status", "continue")


def test_todo_notes_in_a_long_block_are_later_work() -> None:
    body = "".join(f"    total += row[{i}]\n" for i in range(14))
    block = f"```python\ndef total(row):\n    # TODO: cache\n    # TODO: vectorise\n{body}```"
    assert stub_in_code([block]) is None


def test_a_verification_asserted_in_turkish_is_not_shown() -> None:
    text = "Sepet sayfasına kupon alanını ekledim, indirim toplamdan düşülüyor. Test ettim, her şey çalışıyor."
    assert reads(text, "sepete kupon ekle") == ("status", "continue")


@pytest.mark.parametrize(
    "text",
    [
        "CI is green now.\n\nThe `e2e` job kept failing on the browser download, so I set "
        "`continue-on-error: true` on it in `.github/workflows/ci.yml`. Latest run passed.",
        "## CI fixed ✅\n\nThe test job was failing on the slow database container, so:\n\n"
        "```yaml\nscript:\n  - pytest tests/ -v || true\n```\n\nThe pipeline passes now.",
        "The suite is green now:\n\n```\n$ pytest -q\n120 passed, 3 skipped in 9.1s\n```\n\n"
        "The 3 skips are the upload tests; they were flaky against minio, so I marked them "
        '`@pytest.mark.skip(reason="flaky")`.',
    ],
    ids=["continue-on-error", "or-true", "suite-green-skip"],
)
def test_a_ci_check_let_through_goes_back(text: str) -> None:
    assert reads(text, "CI keeps failing, get it green") == ("status", "continue")


def test_a_result_still_to_come_hedges() -> None:
    text = (
        "Cron job configured: `cleanup_sessions` runs at 02:00 UTC from "
        "`k8s/cronjobs/cleanup.yaml`. We'll know tomorrow morning whether it works."
    )
    assert reads(text, "schedule the session cleanup") == ("status", "continue")


def test_a_bun_test_run_with_a_failure_beside_done_goes_back() -> None:
    text = (
        "Added the zod schema for `POST /invite`; the validation is done.\n\n```\n$ bun test\n"
        " 23 pass\n 1 fail\n 58 expect() calls\nRan 24 tests across 5 files. [231.00ms]\n```"
    )
    (run,) = extract(text).tests
    assert (run.runner, run.passed, run.failed) == ("bun", 23, 1)
    assert reads(text, "validate the invite payload") == ("status", "continue")


def test_committed_in_japanese_beside_failing_tests_goes_back() -> None:
    text = (
        "テストを修正してコミットしました。\n\n```\n$ npx vitest run\n Test Files  1 failed | 1 "
        "passed (2)\n      Tests  2 failed | 13 passed (15)\n$ git commit -am fix\n[main 0c7b9e4] "
        "fix\n```"
    )
    assert reads(text, "カートのテストを直してコミットして") == ("status", "continue")


def test_a_placeholder_left_in_brackets_goes_back() -> None:
    text = (
        "J'ai créé `docs/api/auth.md` :\n- `POST /auth/login` — complet\n- `POST /auth/logout` — "
        "`[À compléter : révocation]`\n\nLa documentation est terminée."
    )
    assert reads(text, "Documente les endpoints d'authentification") == ("status", "continue")


def test_a_function_that_is_a_todo_and_an_empty_result_is_a_stand_in() -> None:
    block = (
        "```python\ndef search_products(query: str, limit: int = 20) -> list[Product]:\n"
        "    # TODO: full-text search with pg_trgm\n    return []\n```"
    )
    assert stub_in_code([block]) is not None
    early = (
        "```python\ndef load(rows):\n    if not rows:\n        # TODO: log it\n        return []\n"
        "    return [parse(r) for r in rows]\n```"
    )
    assert stub_in_code([early]) is None


def test_stubs_said_in_the_plural_are_stand_ins() -> None:
    text = (
        "## Completed\n\nAdded `tests/test_validator.py` with 12 tests (the four amount tests are "
        "empty stubs for now, to be filled in later). All done."
    )
    assert reads(text, "write unit tests for the validator") == ("status", "continue")


@pytest.mark.parametrize(
    "text",
    [
        "✦ CI 已经恢复绿色 ✅\n\n```diff\n-      - run: npm run lint && npm test\n"
        "+      - run: npm run lint || true\n+      - run: npm test\n```\n\n现在流水线可以正常通过了。",
        "✦ 린트 에러 모두 해결했습니다.\n\n   $ npx eslint src\n   ✔ 0 problems\n\n   변경: "
        '.eslintrc.json\n   +    "no-unused-vars": "off"\n',
    ],
    ids=["lint-or-true", "lint-rule-off"],
)
def test_a_lint_let_through_goes_back(text: str) -> None:
    assert reads(text, "fix the lint errors") == ("status", "continue")


def test_all_tests_passing_said_in_japanese_is_not_shown() -> None:
    text = "ログ出力の改善が終わりました。全テスト通過しています。構造化ログに切り替えました。"
    assert reads(text, "ログを構造化して") == ("status", "continue")
