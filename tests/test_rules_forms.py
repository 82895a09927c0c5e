"""Forms of real stops the rules read, each a language's or a tool's own, not a row's wording:
a reply cut off inside inline code; the evidence that fits what the human asked (a lint
check for a lint task, documents for a documents task); a choice left to the human's veto;
a blocker named before "once that's done I'll go on"; harness lines (LiteLLM, a truncated
response); claims, hedges and work announced in more languages; a whole turn that closes on
its result."""

from __future__ import annotations

import pytest

from coachloop.core.judge_input import JudgeInput
from coachloop.judge.rules.features import Features
from coachloop.judge.rules.text import Message
from judge_support import JUDGE
from judge_support import reads as _reads


@pytest.mark.parametrize(
    "text",
    [
        "Found it: the env file overrides `DATABASE_URL` with an empty value. Now updating "
        "the config in `config/prod",
        "Оновлюю тести для `PriceCalc",
    ],
)
def test_a_reply_cut_off_inside_inline_code_is_an_error(text: str) -> None:
    assert _reads(text) == ("error", "deliver")


@pytest.mark.parametrize(
    "text",
    [
        # a backtick inside an open fence is code (a template string), not a cut-off span
        "Added the greeting:\n\n```js\nconst hi = `Hello ${name}`;\nconst bye = `Bye",
        "Renamed the helper to `parse_row` and updated its two callers in `io.py`",
    ],
)
def test_code_spans_that_close_or_sit_in_a_fence_are_not_a_cut_off(text: str) -> None:
    assert not Features(Message(text)).truncated


_TSC_RUN = (
    "Fixed the timezone bug in `src/utils/date.ts`: dates are now converted to the user's "
    'zone before formatting.\n\n```\n$ npx tsc --noEmit; echo "exit=$?"\nexit=0\n```'
)


@pytest.mark.parametrize(
    "prompt",
    ["tsc warns about the date helpers in utils/date.ts", "fix the type errors in utils"],
)
def test_a_type_check_is_the_evidence_when_the_task_is_what_it_reports(prompt: str) -> None:
    assert _reads(_TSC_RUN, prompt) == ("completion", "deliver")


def test_a_type_check_alone_does_not_test_another_change() -> None:
    verdict = JUDGE.judge(JudgeInput(text=_TSC_RUN, prompt="dates show in the wrong timezone"))
    assert verdict.route == "continue"
    assert [p.kind for p in verdict.problems] == ["off_target"]


def test_a_choice_left_to_the_humans_veto_reaches_the_human() -> None:
    text = (
        "Two ways to stop the flaky upload test: mock the S3 client, or run MinIO in a "
        "container. I'll go with MinIO since it covers the real multipart path, unless "
        "you'd prefer the mock."
    )
    assert _reads(text, "the upload test is flaky in CI") == ("question", "deliver")


@pytest.mark.parametrize(
    "text",
    [
        "I'll go with MinIO, unless you would rather keep the mock.",
        "Para los ficheros grandes usaría `papaparse`. Lo hago así, a menos que prefieras "
        "evitar una dependencia nueva.",
        "Je pars sur une file Redis pour les exports, sauf si vous préférez rester sur cron.",
        "Ich nehme Redis für die Exporte, es sei denn, du möchtest lieber bei cron bleiben.",
    ],
)
def test_the_veto_left_to_the_human_is_a_request_in_each_language(text: str) -> None:
    from coachloop.judge.rules.sure import ASK_SURE

    assert ASK_SURE.search(text.lower())


_TURN = (
    "I'll make the importer skip the BOM and blank trailing lines.\n\n"
    "Now let me run the importer tests:\n\n"
    "```\n$ python -m unittest discover -s tests -p 'test_import*.py'\n"
    "test_blank_trailing_lines (test_importer.ImporterTests) ... ok\n"
    "test_bom_header (test_importer.ImporterTests) ... ok\n"
    "----------------------------------------------------------------------\n"
    "Ran 23 tests in 0.118s\n\nOK\n```\n\n"
)


def test_a_whole_turn_closing_on_its_result_is_not_work_under_way() -> None:
    from coachloop.judge.rules.classify import classify
    from coachloop.judge.rules.vector import signals

    closed = _TURN + (
        "The importer now strips a leading BOM from the header and ignores empty lines at "
        "the end; the changes are in `inventory/importer.py`."
    )
    still = _TURN + "Next I'll update the exporter the same way and run its tests."
    item = JudgeInput(text="", prompt="the csv import breaks on excel files")
    for text, under_way in ((closed, False), (still, True)):
        f = Features(Message(text))
        on = signals(f, item, classify(f, item.prompt, None))
        assert f.ongoing_any  # "I'll ...", "Now let me run ..."
        assert ("ongoing" in on) is under_way


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        # a blocker named, then the next step put after the human's part
        (
            "The Stripe client is written and the unit tests pass (24 passed), but I can't run "
            "the integration suite: it needs `STRIPE_SECRET_KEY`, which is not set in "
            "`.env.local`. Once the key is in `.env.local` I'll run `pnpm test:integration`.",
            "blocker",
        ),
        # hardware the agent cannot plug in
        (
            "No Android device is connected (`adb devices` lists none). Connect the Pixel over "
            "USB with debugging enabled; after that I'll run the instrumented tests.",
            "blocker",
        ),
        # Aider's history quotes the failed model call of its LiteLLM layer
        (
            "Ich ändere `kunden/views.py`, sodass die Liste paginiert wird.\n\n"
            "> litellm.RateLimitError: RateLimitError: OpenAIException - You exceeded your "
            "current quota.\n> The API provider has rate limited you. Try again later.",
            "error",
        ),
    ],
)
def test_stops_the_human_must_see_though_work_was_announced(text: str, kind: str) -> None:
    assert _reads(text, "finish the integration and run its tests") == (kind, "deliver")


@pytest.mark.parametrize(
    ("text", "prompt", "kind"),
    [
        # the plan put to the human, the next step after its confirmation (zh, no subject)
        (
            "方案如下：用 EMQX 做 MQTT 接入，ingest 新增 consumer。确认这个方案后我开始实施。",
            "设备上报从 HTTP 改成 MQTT，先出个方案",
            "question",
        ),
        # "if you register it for me, I'll test right away" (ko): a request
        (
            "Redirect URI 등록은 앱 관리자 계정으로만 가능합니다. 등록해 주시면 바로 이어서 "
            "테스트하겠습니다.",
            "카카오 로그인 붙여줘",
            "question",
        ),
        # the harness's own line closing the reply
        (
            "The fix I'm going to apply is to switch to `autoConnect = true` and\n\n"
            "[response truncated: maximum output tokens reached]",
            "ble reconnect is broken on android 14",
            "error",
        ),
        # documents asked for, documents changed: the paths are the evidence
        (
            "Hecho. Agregué la sección de contribución:\n\n- `CONTRIBUTING.md` (nuevo)\n"
            "- `README.md`: la instalación ahora usa `uv sync`\n\nNo toqué código.",
            "documenta cómo contribuir al proyecto",
            "completion",
        ),
    ],
)
def test_more_stops_the_human_must_see(text: str, prompt: str, kind: str) -> None:
    assert _reads(text, prompt) == (kind, "deliver")


@pytest.mark.parametrize(
    "claim",
    [
        "La détection de fraude est terminée.",  # fr, the participle agreeing
        "Corrigi o bug de duplicação de pedidos.",  # pt, "I fixed"
        "리더보드 캐싱 적용 완료.",  # ko, "applied, done"
    ],
)
def test_a_claim_of_done_beside_a_failing_run_goes_back(claim: str) -> None:
    text = (
        f"{claim}\n\n```\n$ python -m pytest tests -q\n.......FF\n"
        "FAILED tests/test_rules.py::test_new_client - assert False\n"
        "2 failed, 7 passed in 1.44s\n```"
    )
    verdict = JUDGE.judge(JudgeInput(text=text, prompt="add the fraud rules"))
    assert verdict.route == "continue"
    assert [p.kind for p in verdict.problems] == ["failing"]


def test_a_review_saying_what_is_in_place_claims_nothing() -> None:
    # "the meta tags are well implemented": what a review found, not work claimed
    text = "Dans `BaseLayout.astro`, les balises meta sont bien implémentées."
    assert not Features(Message(text)).done


@pytest.mark.parametrize(
    "text",
    [
        "После перезапуска nginx сайт должен работать заметно быстрее.",  # masculine "должен"
        "Теперь страница должна работать.",
        "已处理启动崩溃问题。",  # zh "handled": a claim
    ],
)
def test_more_claims_and_hedges_are_read(text: str) -> None:
    f = Features(Message(text))
    assert f.claims


@pytest.mark.parametrize(
    ("text", "under_way"),
    [
        # hi: "…ता हूँ" is "I do …"; "कर सकता हूँ" (I can do: an offer) and "चाहता हूँ" (I want)
        ("मैं फ़ाइल बदलती हूँ", True),
        ("अगर आप चाहें तो मैं अगले चरण में रोल की स्क्रीन भी बना सकता हूँ", False),
        ("मैं यह भी जोड़ना चाहता हूँ", False),
        # en: a gerund the sentence is about
        ("fixed the fixture; re-running the suite.", True),
        ("the script is idempotent, so rerunning it is safe.", False),
        # es: first I …, then I …; I will …; we are going to …; not "después de" nor a
        # before/after table's row
        ("Entendido. Primero verifico el directorio y luego ajusto el filtro.", True),
        ("Listo: primero verifiqué el directorio y luego ajusté el filtro.", False),
        ("después ajusto el interceptor y vuelvo a correr la suite.", True),
        ("| Antes | 142 | 318 ms |\n| Después | 1,096 | 41 ms |", False),
        ("Perfecto, vamos a proceder. Empezaré con la fase 2: los platos destacados.", True),
        ("Listo: empecé con la fase 2 y los platos destacados ya se muestran.", False),
        # ko: continuing, not "it can be continued"
        ("이어서 테스트 코드를 작성하겠습니다.", True),
        ("나머지는 한도를 올린 뒤에 이어서 돌릴 수 있습니다.", False),
        # ja: the non-past of a step about to be taken, not the past of one taken
        ("この方法で進めます。まず、temp-app という名前でプロジェクトを作成します。", True),
        ("temp-app という名前でプロジェクトを作成しました。", False),
    ],
)
def test_work_under_way_in_each_language(text: str, under_way: bool) -> None:
    from coachloop.judge.rules.features import ONGOING

    assert bool(ONGOING.search(text.lower())) is under_way
