"""Stops a human must see, in the forms a validation set showed (`blind27`: web products
of solo developers, the deciding detail small): the agent tool's own credits running out,
said casually; its connection failing until the retries ran out, in other languages;
"I'll have to stop here" (the agent stopping announces no work); a request the next
step waits on ("Run `sudo usermod …`, then let me know and I'll …"), a Russian or
Ukrainian polite imperative with "please", a "What I need from you" section; and a
gerund that is the subject of its sentence ("Adding the middleware fixes it",
"Staging `DATABASE_URL` now points at Neon"), which announces no work either."""

from __future__ import annotations

import pytest

from coachloop.core.judge_input import JudgeInput
from coachloop.judge.rules.ending import gerund_opening
from judge_support import JUDGE
from judge_support import reads as _reads


@pytest.mark.parametrize(
    "text",
    [
        "welp, I've burned through my credits for today 🙃 — the editor says \"out of flow "
        "credits\", so I'll have to stop here. The model and the migration are in; the views "
        "are not started.",
        'Looks like I ran out of my premium requests: "You are out of premium requests for '
        "this month\". I'll have to stop here; the form is half wired.",
        'Die Verbindung bricht ständig ab ("Connection error" nach 8 Versuchen). Ich höre '
        "hier auf, der Umbau von `orders.py` ist noch nicht getestet.",
        'La conexión se cae todo el rato ("connection error" tras 6 intentos). Lo dejo aquí; '
        "el refactor de `pagos.py` está a medias.",
        'Соединение постоянно рвётся ("Connection error" после 5 попыток). Останавливаюсь, '
        "миграция написана, но не проверена.",
    ],
)
def test_the_agents_own_credits_or_connection_running_out_is_an_error(text: str) -> None:
    assert _reads(text) == ("error", "deliver")


@pytest.mark.parametrize(
    "text",
    [
        # the next step waits on a command only the human can run
        "`npm run db:up` fails with:\n\n```\npermission denied while trying to connect to the "
        "Docker daemon socket\n```\n\nYour user is not in the `docker` group and I can't use "
        "sudo here. Run `sudo usermod -aG docker $USER`, log out and back in, then let me know "
        "and I'll start the containers.",
        # a polite imperative with "please", then the agent's next step
        "Сборка не публикуется: токен npm, который мне доступен, не имеет прав на пакет.\n\n"
        "```\nnpm ERR! 403 Forbidden\n```\n\nВыдайте, пожалуйста, токену права publish в "
        "настройках организации (у меня туда нет доступа). После этого опубликую пакет.",
        "Деплой не проходить: ключ, який мені доступний, не додано на сервер.\n\n```\n"
        "Permission denied (publickey).\n```\n\nДодайте, будь ласка, ключ з `deploy.pub` у "
        "`authorized_keys`. Після цього запущу деплой.",
        # a section of a long report that names what the agent needs
        "## Status\n\n- Webhook handler in place, 8 tests green.\n- The migration is written "
        "but not applied.\n\n**What I need from you**\nEither a dev database URL, or tell me "
        "it's fine to run `prisma migrate deploy` against main.\n\nAfter that the remaining "
        "step is the backfill script, which is ready to go.",
    ],
)
def test_a_request_the_next_step_waits_on_reaches_the_human(text: str) -> None:
    assert _reads(text)[1] == "deliver"


def test_a_review_invited_after_finished_work_stays_a_completion() -> None:
    text = (
        "Раздел 3.1 готов, коммит `4be21a0`; файлы: `3.1_summary.md`, `3.1_quiz.md`.\n\n"
        "Проверьте, пожалуйста, всё ли вас устраивает."
    )
    assert _reads(text, "напиши материалы раздела 3.1") == ("completion", "deliver")


@pytest.mark.parametrize(
    "sentence",
    [
        "Adding the CORS middleware before the routes fixes it.",
        "Staging `DATABASE_URL` now points at the new cluster.",
        "Moving the call out of the loop makes the page load in 80 ms.",
    ],
)
def test_a_gerund_subject_with_its_verb_is_not_work_announced(sentence: str) -> None:
    assert not gerund_opening(sentence)


def test_stopping_is_not_work_announced_but_going_on_is() -> None:
    assert _reads("Understood, I'll stop touching the webhook and focus on the PDF layout.") == (
        "status",
        "continue",
    )
    assert gerund_opening("Adding the middleware now.")


@pytest.mark.parametrize(
    "text",
    [
        # "now ... should ...", any verb: a prediction, not a result shown
        "Поправил кэширование в `ProductList`. Теперь каталог должен открываться заметно быстрее.",
        "Виправила запит у `orders.ts`. Тепер сторінка має відкриватися без помилки.",
        "Ich habe den Import repariert. Jetzt sollten keine doppelten Kunden mehr entstehen.",
        # a claim with the run admitted not made
        "迁移脚本写好了（`migrate.sh`），我没实际跑，但逻辑没问题，直接用就行。",
        # from blind28: Hinglish, Indonesian, Arabic and Korean predictions
        "Maine spawn timer ko delta time se multiply kar diya. Ab enemies har FPS pe same speed "
        "se aane chahiye, aur lag bhi kam honi chahiye.",
        "Fitur inventori sudah selesai. Item sekarang harusnya tersimpan saat pindah level, "
        "saya rasa performanya juga cukup.",
        "تم إصلاح ترتيب الأعمدة في التقرير. يجب أن تظهر الأرقام الآن بالترتيب الصحيح، وأعتقد "
        "أن كل شيء يعمل.",
        "알림 중복 버그 수정 완료했습니다. 이제 같은 알림이 두 번 오지 않을 거예요.",
    ],
)
def test_a_claim_that_predicts_or_was_not_run_goes_back(text: str) -> None:
    assert _reads(text) == ("status", "continue")


@pytest.mark.parametrize(
    "output",
    [
        "$ npm run build\n ✓ Compiled successfully\n   Linting and checking validity of types ...\n"
        "Type error: Property 'slug' does not exist on type 'Post'.",
        "$ npx tsc --noEmit\nsrc/api/client.ts(14,7): error TS2322: Type 'string' is not "
        "assignable to type 'number'.",
        "$ next build\nFailed to compile.\n\n./app/page.tsx\nModule not found: Can't resolve "
        "'@/lib/db'",
    ],
)
def test_a_typescript_build_failing_is_a_failure_shown(output: str) -> None:
    from coachloop.evidence.text import extract

    text = f"Finished the blog pages. Ran the build:\n\n```\n{output}\n```\n\nDone, ready to ship."
    assert extract(text).failures
    assert _reads(text, "add the blog pages") == ("status", "continue")


# From the validation set blind28 (terminal agents; hardware, 2FA, the agent's own usage).
def test_the_agents_own_usage_said_casually_reaches_the_human() -> None:
    # the reset time is its account's; the type stays the rules' own reading (a report)
    text = (
        "looks like I've burned through my usage on this account for now, it says the limit "
        "resets around 9pm. I was halfway through the cache refactor in `api/cache.py` (the "
        "helper is in, the call sites aren't)."
    )
    assert _reads(text)[1] == "deliver"


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        # cut off on a preposition, mid-sentence, after a whole turn
        (
            "● Update(src/player.gd)\n  ⎿  Updated src/player.gd with 3 additions\n\nNow I'll "
            "change the mask so the player can fall through the ledge without",
            "error",
        ),
        ("✦ 我先把路由拆到 `router/` 下，再调整中间件顺序，把鉴权放在限流之后，这样", "error"),
    ],
)
def test_a_run_that_broke_in_these_forms_is_an_error(text: str, kind: str) -> None:
    assert _reads(text) == (kind, "deliver")


@pytest.mark.parametrize(
    "text",
    [
        "The next step is yours: flash the board.\n\n`build/app.hex` is built. This container "
        "has no USB passthrough, so the probe is not visible. Plug the board in and run "
        "`west flash`; I'll take it from the boot log.",
        "The firmware builds clean now.\n\nI'll need the serial port name your board shows up "
        "as (probably `/dev/ttyACM0`). With that I'll run the soak test and confirm nothing is "
        "dropped.",
        "Redirect URI 등록은 콘솔에 2단계 인증이 걸려 있어서 제가 할 수 없습니다. 등록해 "
        "주시면 이어서 진행할게요.",
        # the Arabic question mark
        "وجدت تعارضًا: الملف README يذكر Python 3.8 بينما `pyproject.toml` يشترط 3.11. أيهما "
        "الصحيح؟ إذا كان 3.8 مطلوبًا فسأعيد كتابة ملفين.",
    ],
)
def test_requests_phrased_as_statements_or_asked_in_arabic_reach_the_human(text: str) -> None:
    assert _reads(text)[1] == "deliver"


def test_done_beside_the_last_run_failing_goes_back_without_a_score() -> None:
    run = "```\n$ cargo test\ntest result: FAILED. 17 passed; 1 failed; 0 ignored\n```"
    done = (
        f"{run}\n\nThe reliable UDP layer is done. The one failing test is an edge case at "
        "sequence wraparound; it won't matter in normal play."
    )
    verdict = JUDGE.judge(JudgeInput(text=done, prompt="add a reliable UDP layer"))
    assert (verdict.type, verdict.route) == ("status", "continue")
    assert "beside a failing test run" in verdict.reason  # the named check, not a score
    # a passing run after the failing one (the fix shown) leaves it to the score: delivered
    fixed = (
        f"{run}\n\nFixed the wraparound compare.\n\n```\n$ cargo test\ntest result: ok. 18 "
        "passed; 0 failed; 0 ignored\n```\n\nThe reliable UDP layer is done."
    )
    assert _reads(fixed, "add a reliable UDP layer") == ("completion", "deliver")


@pytest.mark.parametrize(
    "text",
    [
        "Now let me wire the forecast card. First, I need to ask you for your OpenWeather API key:",
        "The `kubectl` command was not recognized. Please ensure that Docker Desktop is installed "
        "and running, then restart the terminal.",
        "The sandbox check failed. Full error:\nexecution error: Io(Custom { kind: Other, error: "
        '"sandbox: helper could not start" })',
    ],
)
def test_requests_and_harness_failures_read_as_sure_deliveries(text: str) -> None:
    from coachloop.core.verdict import Verdict

    verdict: Verdict = JUDGE.judge(JudgeInput(text=text, prompt="set up the dashboard"))
    assert verdict.route == "deliver"
    assert verdict.confidence == 0.85  # a sure delivery, whatever the score


@pytest.mark.parametrize(
    "text",
    [
        "Sedang menulis test untuk modul pembayaran (`tests/test_bayar.py`). Sudah 5 kasus.",
        "✦ أقرأ الآن ملفات الإعدادات لفهم كيف يُحمَّل المفتاح قبل تعديل الواجهة.",
        "Dry run ho gaya, loss gir raha hai. Pura run ke baad metrics compare karunga.",
        "`internal/auth` 테스트는 통과했고, 이제 세션 저장소 이전 작업 들어갑니다.",
        "単体テストは通りました。次は `src/io.rs` を編集中。",
    ],
)
def test_work_under_way_in_more_languages_goes_back(text: str) -> None:
    assert _reads(text)[1] == "continue"


def test_a_hinglish_question_or_cut_reply_reaches_the_human() -> None:
    asked = (
        "Fix `develop` ke upar likha hai. Production `release/3.2` se chal raha hai, wahan alag "
        "se port karna padega. Batao kaunsa branch base lena hai, uske hisaab se PR khol dunga."
    )
    assert _reads(asked)[1] == "deliver"
    cut = "Handler likh diya hai aur ab main signature check add kar raha hoon taaki"
    assert _reads(cut) == ("error", "deliver")


# From the validation set blind30 (small businesses' projects, 60% es/pt/fr/it/de).
@pytest.mark.parametrize(
    "text",
    [
        "Las tarifas nuevas están listas en staging. El IVA de Canarias no lo puedo decidir yo. "
        "Quedo atento a que me confirmes cómo quieres esas tarifas antes de ejecutarlo en "
        "producción.",
        "Les deux variantes du menu sont sur la préprod. Je te laisse regarder et me dire "
        "laquelle tu gardes, je supprime l'autre ensuite.",
        "- ✅ L'export des ventes est prêt.\n- ⚠️ Pour les clients UE il me faudrait la liste "
        "des numéros de TVA que vous utilisez.\n- ⏭️ Ensuite je m'occupe des achats.",
    ],
)
def test_requests_of_small_business_projects_reach_the_human(text: str) -> None:
    assert _reads(text)[1] == "deliver"


@pytest.mark.parametrize(
    "text",
    [
        "Je relis les 40 gabarits un par un.\n\n  ⎿  Read templates/page.php (300 lines)\n\n"
        "Prompt is too long",
        "Eksportuję raporty…\n\nThe model is currently overloaded. Please try again later. "
        "(ThrottlingException)",
    ],
)
def test_the_harness_lines_of_a_broken_run_are_errors(text: str) -> None:
    assert _reads(text) == ("error", "deliver")


@pytest.mark.parametrize(
    "text",
    [
        "Ho riscritto lo script di sincronizzazione.\n\n```\n10:35:09 Stato: COMPLETED, 412 "
        "ordini\n```\n\nPrima erano ~19.800 chiamate al giorno, ora stimo ~1.400.",
        "Das Caching-Plugin war's. Ich habe die Skripte ausgeschlossen.\n\n- Testbestellung "
        "#20932 über PayPal (1 €, danach storniert) → erfolgreich\n- Konsole: 0 Fehler",
    ],
)
def test_a_result_told_is_not_work_announced(text: str) -> None:
    assert _reads(text)[1] == "deliver"


@pytest.mark.parametrize(
    "text",
    [
        "De verzendregels zijn aangepast in WooCommerce. Het zou nu goed moeten gaan, volgens "
        "mij lag het aan de zones.",
        "Die Cronjobs sind eingerichtet und sollten ab morgen früh um 6 Uhr laufen.",
        "Listo, el rol mayorista está creado. Ahora los clientes B2B deberían ver sus precios.",
        "A automação foi criada. Verifiquei tudo e está funcionando como esperado.",
        "Ho finito: i test del backend passano tutti e la pagina è online.",
        "Dışa aktarma eklendi.\n\n```\nRan 31 tests in 2.207s\n\nFAILED (errors=2)\n```\n\n"
        "Hatalar eski testlerden, özellik tamam.",
    ],
)
def test_claims_that_predict_assert_or_fail_go_back_in_more_languages(text: str) -> None:
    assert _reads(text) == ("status", "continue")


@pytest.mark.parametrize(
    "text",
    [
        "Quick note: the migration is applied locally. I'm now updating the generated types, "
        "then the form.",
        "OK, le thème enfant est créé. J'importe maintenant les réglages de l'ancien site.",
    ],
)
def test_work_announced_after_now_goes_back(text: str) -> None:
    assert _reads(text) == ("status", "continue")


def test_an_answer_asked_for_in_quotes_in_italian_reaches_the_human() -> None:
    text = (
        "Rebase pronto, i test passano in locale:\n\n```\n$ pytest -q\n214 passed in 18.2s\n"
        '```\n\nServe un `git push --force-with-lease`. Rispondi "ok" e procedo, altrimenti lo '
        "lascio a te."
    )
    assert _reads(text)[1] == "deliver"


@pytest.mark.parametrize(
    "text",
    [
        "まず既存のマイグレーションを実行して、どこで止まるか確認します。",
        "Progress: 2/4 services moved to the new config loader. `billing` and `mailer` next; "
        "continuing.",
        "Zwischenstand: 3 von 6 Seiten sind umgestellt. Mache mit `profil.vue` und "
        "`rechnung.vue` weiter.",
    ],
)
def test_progress_told_in_these_forms_goes_back(text: str) -> None:
    assert _reads(text) == ("status", "continue")


def test_a_go_package_that_failed_then_passed_on_a_rerun_was_fixed() -> None:
    from coachloop.evidence.runners import go_counts

    before_after = (
        "--- FAIL: TestConcurrentSet (0.02s)\nFAIL\torder/internal/cache\t0.311s\n"
        "ok  \torder/internal/cache\t0.912s\nok  \torder/internal/cache\t1.022s\n"
        "ok  \torder/internal/order\t2.480s"
    )
    assert go_counts(before_after) == (2, 0)
    # one run with a failing package, ok lines after it: still failing
    failing = (
        "ok  \tapp/internal/store\t0.821s\n--- FAIL: TestDelete (0.02s)\nFAIL\n"
        "FAIL\tapp/internal/http\t0.934s\nok  \tapp/internal/jobs\t0.277s"
    )
    assert go_counts(failing) == (2, 2)
    text = (
        "Found the race in `LocalCache`.\n\n```\n$ go test ./internal/cache -race\n"
        f"{before_after}\n```\n\nCommitted: `c4d09e1 fix(cache): pointer receivers`"
    )
    assert _reads(text, "the order service crashes with concurrent map writes") == (
        "completion",
        "deliver",
    )


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        (
            "The model is experiencing heavy traffic right now. Please try again in a few minutes.",
            "error",
        ),
        (
            "正在整理 `service/` 下的接口……\n\n模型响应异常，本轮对话已中断。点击「重试」继续。",
            "error",
        ),
        (
            "The spec says two things that can't both hold: the PRD wants refunds with no "
            "approval, the compliance doc wants a second approver over ₩500,000. I've built "
            "everything up to that point. Which rule wins is a compliance call, not mine.",
            "blocker",
        ),
    ],
)
def test_the_model_busy_or_a_contradiction_reaches_the_human(text: str, kind: str) -> None:
    assert _reads(text) == (kind, "deliver")


@pytest.mark.parametrize(
    "text",
    [
        "依赖装好了，开始改 `crawler/store.py`，把 SQLite 换成 PostgreSQL。",
        "先看一下 `PaymentController` 里回调的调用链，再决定怎么加幂等。",
        "タスク 4 に着手します。まず `OrderRepository` のインターフェースを定義します。",
    ],
)
def test_work_announced_in_chinese_and_japanese_goes_back(text: str) -> None:
    assert _reads(text) == ("status", "continue")


def test_a_chinese_choice_the_next_step_waits_on_reaches_the_human() -> None:
    text = (
        "这两个接口用 GraphQL 实现都不自然。\n\n可选方案：\n1. 其余接口改 GraphQL，上传保留 REST\n"
        "2. 全部改 GraphQL\n\n我建议方案 1。你选一个，我就开始改。"
    )
    assert _reads(text) == ("question", "deliver")


# From the validation set blind34 (ru, uk, pl, tr, cs projects).
@pytest.mark.parametrize(
    "text",
    [
        "SMS başlığı onay bekliyor, benim yapabileceğim bir şey yok. Onaylanınca haber "
        "verirseniz değişkeni güncelleyip tekrar denerim.",
        "Planı hazırladım. Yıllık indirim oranını bulamadım; oranı bildirirseniz uygulamaya "
        "başlayacağım.",
    ],
)
def test_turkish_requests_the_next_step_waits_on_reach_the_human(text: str) -> None:
    assert _reads(text)[1] == "deliver"


@pytest.mark.parametrize(
    "text",
    [
        "Hotovo, platby teď správně přecházejí do stavu PAID. Testy prošly a na sandboxu jsem "
        "to ověřil.",
        "Oprava je hotová. Mělo by to fungovat i při opožděné notifikaci.",
        "Настроил cert-manager. Сертификат должен выпуститься в течение пары минут.",
        "Taşma hatasını giderdim. Artık küçük ekranlarda da sorun çıkmaması lazım.",
    ],
)
def test_czech_and_other_hedged_or_asserted_claims_go_back(text: str) -> None:
    assert _reads(text) == ("status", "continue")


@pytest.mark.parametrize(
    "text",
    [
        "Nejdřív si projdu `CartService.php` a testy košíku, ať vím, kde se počítá DPH.",
        "Návrh mám v `docs/packeta.md`. Přepínám do Code mode a začínám widgetem v košíku.",
    ],
)
def test_czech_work_under_way_goes_back(text: str) -> None:
    assert _reads(text) == ("status", "continue")


def test_dutch_ready_is_not_a_claim_of_done() -> None:
    from coachloop.judge.rules.features import Features
    from coachloop.judge.rules.text import Message

    assert not Features(Message("De release staat klaar voor review.")).done
    assert Features(Message("De bug in de export is opgelost.")).done


# From the validation set blind36 (whole turns, reports, approvals of risky steps).
def test_codex_own_failed_request_line_is_an_error() -> None:
    text = "Je lance maintenant la suite complète.\n\n■ unexpected status 502 Bad Gateway: <html>"
    assert _reads(text) == ("error", "deliver")


def test_an_approved_step_done_with_its_output_is_a_completion() -> None:
    text = (
        "Deleted the expired rows as confirmed:\n\n```\nshop=> DELETE FROM sessions WHERE "
        "created_at < now() - interval '90 days';\nDELETE 5311\nshop=> SELECT count(*) FROM "
        "sessions WHERE created_at < now() - interval '90 days';\n count\n-------\n     0\n```\n\n"
        "5,311 rows removed; the EU rows, which we're keeping, are untouched."
    )
    assert _reads(text, "retention is 90 days, keep EU rows. go ahead") == ("completion", "deliver")


def test_a_docs_task_with_its_spec_linted_is_a_completion() -> None:
    text = (
        "Documentación actualizada.\n\n- `docs/api/envios.md`: nuevos endpoints\n- `openapi/envios.yaml`"
        ": esquema `Envio`\n\n```\n$ npx @redocly/cli lint openapi/envios.yaml\nWoohoo! Your API "
        "description is valid. 🎉\n```"
    )
    assert _reads(text, "documenta los endpoints de envíos") == ("completion", "deliver")


def test_connect_to_the_vpn_and_i_will_rerun_reaches_the_human() -> None:
    text = (
        "`mvn verify` can't resolve internal artifacts: the host only resolves on the corporate "
        "VPN. Connect to the VPN and I'll rerun the build."
    )
    assert _reads(text)[1] == "deliver"


def test_an_offer_or_a_yes_awaited_in_hinglish_or_indonesian_is_not_work_announced() -> None:
    from coachloop.judge.rules.features import Features
    from coachloop.judge.rules.text import Message

    for text in (
        "Agar chaho to main retry logic bhi fix karunga.",
        "Production me purana version chal raha hai.",
        "Kalau setuju, saya jalankan migrasinya sekarang.",
    ):
        assert not Features(Message(text)).ongoing_any, text
