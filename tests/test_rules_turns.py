"""Whole turns of IDE agents, in the forms a validation set showed (`blind22`): the ending
is what follows the last code block; a file named only in the closing offer, or a test
suite's shared helper, is not the change the tests must cover; an answer to "tell me ..."
in any language needs no tests; and the requests such turns end on (an approval button,
a word to type, a fix held for the human's answer), in English and other languages."""

from __future__ import annotations

import pytest

from coachloop.core.verdict import Evidence
from coachloop.judge.rules.features import Features
from coachloop.judge.rules.target import off_target
from coachloop.judge.rules.task import asks_question
from coachloop.judge.rules.text import Message
from judge_support import reads as _reads

_FIXED = (
    "Let me reproduce it first.\n\n```\n$ npx vitest run src/reports -t empty\n"
    " ✗ ReportTable > renders empty report\n```\n\nColumns came from `rows[0]`. Fixed it:\n\n"
    "```\n$ npx vitest run src/reports\n Test Files  3 passed (3)\n      Tests  19 passed (19)\n"
    "```\n\n"
)


def test_a_file_named_only_in_the_closing_offer_is_not_the_change() -> None:
    text = (
        _FIXED + "Empty reports no longer crash and all 19 report tests pass. If you'd like, I "
        "can also apply the same fix to `src/dashboard/Widget.tsx`, which reads `rows[0]` too."
    )
    f = Features(Message(text))
    assert "Widget.tsx" in f.closing_offer
    assert _reads(text, "the reports page crashes on empty reports, fix it")[1] == "deliver"


def test_a_test_suites_shared_helper_is_exercised_by_its_tests() -> None:
    ev = Evidence(
        commands=("pytest tests/api/test_upload.py -q",),
        paths=("tests/utils.py",),
    )
    assert off_target(ev, []) is None
    assert off_target(Evidence(commands=ev.commands, paths=("tests/billing/test_tax.py",)), [])


def test_the_ending_is_what_follows_the_last_code_block() -> None:
    text = (
        "Converted the 14 DTOs to records. Running the build:\n\n```\n> Task :billing:test\n"
        "286 tests completed, 0 failed\nBUILD SUCCESSFUL in 1m 12s\n```\n\n"
        "All 14 DTOs are records now and the billing module builds with every test passing."
    )
    assert not Features(Message(text)).ongoing_tail
    assert Features(
        Message(text.rsplit("\n\n", 1)[0] + "\n\nNow let me update the docs.")
    ).ongoing_tail


def test_a_gerund_that_is_the_subject_is_not_work_under_way() -> None:
    assert not Features(
        Message("Searching for `50%` now matches only the literal string.")
    ).ongoing_tail
    assert Features(Message("Searching the codebase for other callers now.")).ongoing_tail


@pytest.mark.parametrize(
    "prompt",
    [
        "지난달 가장 느렸던 API 5개 알려줘",
        "告诉我上个月最慢的接口",
        "объясни, почему падает сборка",
    ],
)
def test_tell_me_in_any_language_is_a_question(prompt: str) -> None:
    assert asks_question(prompt)


# (what the turn did, the human's prompt): the stop a request ends
_BUCKET = (
    "The dry run lists 14,884 objects to delete; the bucket has no versioning.",
    "clean up the bucket",
)
_ADAPTERS = (
    "Both adapters are written and their 12 tests pass.",
    "send the emails with a real provider",
)


@pytest.mark.parametrize(
    ("turn", "ending"),
    [
        (
            _BUCKET,
            "Click **Run** on the command above if that's fine, or tell me and I'll back up first.",
        ),
        (_BUCKET, "Type **go** when you're ready and I'll run it without `--dry-run`."),
        (_BUCKET, "I'll hold the fix until I know which ordering is the intended one."),
        (_BUCKET, "Assim que você disser qual das duas prefere eu rodo o deploy."),
        (_BUCKET, "有効にしてよければ切り替えます。"),
        (
            _ADAPTERS,
            "Drop the correct Figma link (or a screenshot of the frame) here and I'll match it.",
        ),
        (
            _ADAPTERS,
            "I don't want to delete either without knowing which one your team considers live.",
        ),
        (_ADAPTERS, "Whichever is true decides which file I change, so I'll wait for you on that."),
        (
            _ADAPTERS,
            "コードを生成できないので、30秒以内に使えるコードを貼っていただければこちらで実行します。",
        ),
        (
            _ADAPTERS,
            "Hangisini kullanacağımıza karar verdiğinizde ortam değişkenlerini hazırlayacağım.",
        ),
        (_ADAPTERS, "最后一项需要你拍板：要不要继续支持 IE11。确认后我再改 `vite.config.ts`。"),
        (
            _ADAPTERS,
            "어느 쪽으로 갈지 정해주시면, 그에 맞춰 redirect URI와 `profile()` 매핑까지 모두 마무리하겠습니다.",
        ),
    ],
)
def test_requests_that_end_a_turn(turn: tuple[str, str], ending: str) -> None:
    done, prompt = turn
    assert _reads(done + "\n\n" + ending, prompt)[1] == "deliver"


def test_click_then_a_check_is_a_handoff_not_a_request() -> None:
    text = "Fixed the redirect loop. **Test:** open `/preview`, click Continue → should open."
    assert _reads(text, "fix")[0] != "question"


@pytest.mark.parametrize(
    "text",
    [
        "Тепер оновлю функцію пошуку, а також додам обмеження на",
        "Сейчас переведу поиск на `tsvector` и",
        "Agora vou ajustar a consulta para usar o índice da",
    ],
)
def test_a_reply_cut_off_on_a_preposition_is_an_error(text: str) -> None:
    assert _reads(text) == ("error", "deliver")


@pytest.mark.parametrize(
    "text",
    [
        "The board isn't connected to this machine: no USB serial device is present. Plug it "
        "in via its USB port. Then I'll flash it and run the self-test.",
        "All three commits are ready locally, but the org enforces SAML SSO and the session "
        "needs to be re-authorized. That's an interactive sign-in on your account. Once it's "
        "done, I'll push the branches.",
        "| Step | State |\n|---|---|\n| `STRIPE_SECRET_KEY` | ❌ empty; it's in your Stripe "
        "dashboard, which I can't access |\nOnce the key is in `.env.local`, I'll run the flow.",
        "스토리지 한도 1TB에 걸려 멈췄습니다. 한도 상향은 계정 관리자 권한이 필요해서 제가 할 수 "
        "없습니다. 한도가 늘어나면 같은 명령을 다시 실행하면 이어서 진행됩니다.",
    ],
)
def test_a_step_of_someone_elses_before_the_work_goes_on_is_a_blocker(text: str) -> None:
    assert _reads(text, "ship it") == ("blocker", "deliver")


def test_a_tool_call_printed_as_text_and_cut_off_is_an_error() -> None:
    text = (
        "Mình sẽ thêm hàm kiểm tra số điện thoại.\n"
        '{"type":"tool_use","name":"edit_file","input":{"path":"src/phone.ts","edits":[{"old'
    )
    assert _reads(text) == ("error", "deliver")


def test_an_offer_of_more_work_announces_none() -> None:
    text = (
        "Task 3.1 ist erledigt.\n\n```\nTests:       7 passed, 7 total\n```\n\n"
        "Wenn du magst, kann ich als Nächstes 3.2 (Dublettenerkennung) angehen."
    )
    assert not Features(Message(text)).ongoing_tail
    assert Features(Message(text.replace("Wenn du magst, kann ich", "Jetzt gehe ich"))).ongoing_tail


@pytest.mark.parametrize(
    "ending",
    [
        "Whichever you prefer becomes the pattern; I'll continue on that branch once you've picked.",
        "To start the transformation, choose the target JDK version: **17** or **21**.",
        "Which combination you want decides what I commit next.",
        "Só me confirma se posso começar agora, em horário comercial.",
        "От этого зависит, что уйдёт в чеки, поэтому без вашего ответа я чек не включаю.",
        "Confirm karo: abhi bhejna hai ya subah, phir main chala deta hoon.",
    ],
)
def test_a_finished_report_that_ends_asking_is_a_question(ending: str) -> None:
    text = (
        "Implemented both options and their tests pass:\n\n```\n$ npm test\nTests: 12 passed, "
        "12 total\n```\n\n" + ending
    )
    assert _reads(text, "set up the versioning") == ("question", "deliver")


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        (
            "Signing fails: no development team is set. Open `DatePin.xcodeproj` and pick your "
            "team, or paste your Team ID here and I'll set it for both targets.",
            "question",
        ),
        ("Antes de insertar, decime si hago upsert por CUIT o solo agrego los nuevos.", "question"),
        (
            "Puedo hacer una de estas:\n1. Filtro por vendedor\n2. Todos ven todo\n\nRespondé con el número.",
            "question",
        ),
        ("Есть два пути: A и B. Напишите, какой вариант берём.", "question"),
        (
            "Код модерації готовий, але `deleteMessage` падає. Додати бота в адміни може лише "
            "власник або адмін групи.",
            "blocker",
        ),
        (
            "Токен відкликали. Новий токен можна отримати тільки з вашого акаунта Telegram. Після "
            "цього `fly secrets set BOT_TOKEN=...` і я перезапущу деплой.",
            "blocker",
        ),
    ],
)
def test_requests_and_blockers_of_solo_projects(text: str, kind: str) -> None:
    assert _reads(text, "finish the bot") == (kind, "deliver")


def test_if_needed_i_will_look_deeper_is_an_offer() -> None:
    text = "Итого 1178 заказов (11,9 %) не оплачены. Если нужно, посмотрю глубже."
    assert not Features(Message(text)).ongoing_tail
