"""The stops the helper-written blind sets showed misjudged, on messages written here.

A request whose answer the agent's next step waits on ("Confirm and I'll apply it"),
the harness's line closing the agent's words, one sentence over and over on one line,
and "I can't go on until ...": each reaches the human whatever the scorer says; the
words that read like work under way but are not ("Existing tests:", "the workaround
we're using"); work under way and requests in more languages; and the other way, a
stand-in called done and hedged claims in more languages, sent back.
"""

from __future__ import annotations

import pytest

from coachloop.core.judge_input import JudgeInput
from judge_support import JUDGE
from judge_support import reads as _reads


def _asks(text: str) -> bool:
    """The rules read a request to the human in `text` (`Features.asks`)."""
    from coachloop.judge.rules.features import Features
    from coachloop.judge.rules.text import Message

    return Features(Message(text)).asks


@pytest.mark.parametrize(
    "text",
    [
        "The dry run above touched 1,204 rows. Running it for real rewrites them and cannot "
        "be undone. Confirm and I'll run it without --dry-run.",
        "I'll need to drop `orders_old` (2.1 GB) to free the space. Confirm you want this on "
        "production and I'll apply it.",
        "Both libraries can do it:\n1. **zod**: smaller.\n2. **yup**: already in the repo.\n\n"
        "Pick one and I'll wire it in.",
        "The serial port is not there (`ls /dev/ttyUSB*` finds nothing). Please connect the "
        "board, then tell me and I'll flash it.",
        "The deploy key only has read access. Add it as a write key in the repository "
        "settings (Settings > Deploy keys) and I'll push the tag.",
        "Bitte lege den API-Schlüssel in `.env` an, danach starte ich den Import erneut.",
    ],
)
def test_a_request_the_next_step_waits_on_reaches_the_human(text: str) -> None:
    kind, route = _reads(text)
    assert route == "deliver", text
    assert kind in ("question", "blocker"), text


def test_an_offer_of_help_if_it_fails_is_not_a_request() -> None:
    text = (
        "The dev server should be running now. If you still see the error, please let me "
        "know and I'll look into it."
    )
    kind, route = _reads(text, "fix the dev server")
    assert (kind, route) == ("status", "continue")


@pytest.mark.parametrize(
    "closing",
    [
        'API Error: 529 {"type":"error","error":{"type":"overloaded_error"}}',
        "[Response interrupted: the model reached the maximum output token limit]",
        "Our servers are experiencing high traffic right now, please try again in a minute.",
    ],
)
def test_a_harness_line_closing_the_message_is_an_error(closing: str) -> None:
    text = f"Next I'll update the remaining call sites of `parseDate`.\n\n{closing}"
    assert _reads(text) == ("error", "deliver")


def test_one_sentence_over_and_over_on_one_line_is_a_loop() -> None:
    text = "I will now run the test suite to verify the changes. " * 8
    assert _reads(text) == ("error", "deliver")
    # said twice, it is narration
    assert _reads("I will now run the test suite to verify the changes. " * 2)[1] == "continue"


@pytest.mark.parametrize(
    "text",
    [
        "The feature code is finished, but I can't verify the end-to-end flow until credits "
        "are added to the OpenAI account.",
        "Die Migration ist bereit, aber ich kann sie erst ausführen, wenn das VPN wieder "
        "erreichbar ist.",
        "La migración está lista, pero no puedo ejecutarla hasta que vuelva la conexión.",
    ],
)
def test_i_cannot_go_on_until_is_for_the_human(text: str) -> None:
    assert _reads(text)[1] == "deliver", text


def test_adjectives_and_labels_are_not_work_under_way() -> None:
    text = (
        "Fixed the off-by-one in `lru.go` (evict when `len > cap`).\n\nTesting\n"
        "- `go test ./pkg/cache/ -race`\n\n```\nok  \tgithub.com/acme/relay/pkg/cache\t1.204s\n```"
    )
    assert _reads(text, "fix the cache eviction") == ("completion", "deliver")


@pytest.mark.parametrize(
    "text",
    [
        "Ik heb de parser omgezet naar `lark`. Nu ga ik verder met de foutmeldingen.",
        "Sto aggiornando i test di `FatturaService` per il nuovo repository in memoria.",
        "Estou migrando os handlers para o novo cliente HTTP; já converti 4 de 9.",
        "Zaczynam od modułu `auth`, potem przejdę do `billing`.",
        "Запускаю миграции на тестовой базе, потом проверю индексы.",
        "`CartService` 리팩터링은 절반쯤 끝났고, 나머지는 옮기는 중입니다.",
        "मैं अब `OrderService` के लिए tests लिख रहा हूँ।",
        "Şimdi `OrderService` için testleri yazıyorum.",
    ],
)
def test_work_under_way_in_more_languages_goes_back(text: str) -> None:
    assert _reads(text) == ("status", "continue"), text


@pytest.mark.parametrize(
    "text",
    [
        "Sertifikanın süresi dolmuş. Yeni sertifikayı yüklemeniz gerekiyor; sonra işi tekrar "
        "çalıştıracağım.",
        "Görev listesini onaylarsanız ilk görevden başlayacağım.",
        "Chứng chỉ đã hết hạn. Bạn cần liên hệ nhà cung cấp; khi xong mình sẽ chạy lại job.",
        "कृपया नया build चलाकर बताइए कि crash अब भी आ रहा है या नहीं।",
        "Kun je de API-sleutel in `.env` zetten? Daarna ga ik verder met de import.",
        "يرجى إضافة مفتاح API إلى ملف `.env` ثم سأعيد تشغيل المهمة.",
    ],
)
def test_requests_in_more_languages_reach_the_human(text: str) -> None:
    assert _reads(text)[1] == "deliver", text


@pytest.mark.parametrize(
    "text",
    [
        "The importer is done:\n- `import/parse.py` reads the CSV\n- `import/load.py` upserts "
        "the rows, with the exchange rates from a fixed table (TODO: fetch them from the ECB "
        "feed)\n\nThe pipeline is ready to run.",
        "Listo: el endpoint `GET /facturas/:id/pdf` ya existe. Por ahora devuelve un PDF de "
        "ejemplo fijo, falta conectarlo con los datos del pedido. La tarea está completa.",
        "Gotowe: przycisk eksportu działa. Na razie `export_pdf` zwraca pusty dokument. "
        "Commit 51ac0b2 feat: eksport do PDF",
    ],
)
def test_a_stand_in_called_done_goes_back(text: str) -> None:
    verdict = JUDGE.judge(JudgeInput(text=text, prompt="build the export"))
    assert (verdict.type, verdict.route) == ("status", "continue"), text
    assert any(p.kind == "placeholder" for p in verdict.problems), verdict.problems


def test_a_todo_in_the_code_shown_is_not_a_stand_in() -> None:
    text = (
        "Backoff added in `retry.ts`:\n\n```ts\n// TODO: tune the jitter once we see prod "
        "traffic\nconst delay = Math.min(base * 2 ** attempt, maxDelay);\n```\n\n```\n$ npx "
        "vitest run\n Test Files  4 passed (4)\n      Tests  31 passed (31)\n```"
    )
    assert _reads(text, "add backoff to the upload retries") == ("completion", "deliver")


@pytest.mark.parametrize(
    "text",
    [
        "Ich habe die Rundung in `PriceCalculator` korrigiert. Das sollte das Problem mit den "
        "Cent-Differenzen lösen.",
        "Corrigi o CORS no backend. Agora o frontend deve conseguir chamar a API sem erros.",
        "Переписал запрос ленты на keyset-пагинацию. Должно стать заметно быстрее.",
        "Poprawiłem eksport: plik powinien przechodzić walidację.",
        "Ik heb de berekening aangepast. Het zou nu moeten werken.",
        "J'ai ajouté `durable=True` à la file, ce qui devrait résoudre la perte de messages.",
        # verb-final German and Dutch: the modal and the verb far apart
        "Ich habe den Export umgestellt. Das sollte den Fehler mit den doppelten Zeilen in der "
        "Monatsübersicht der Buchhaltung beheben.",
        "Ik heb de datumnotatie in de export aangepast. Dat zou de verschuiving van een dag bij "
        "de klanten in Azië nu moeten oplossen.",
        "عدّلت دالة التحويل لتستخدم المنطقة الزمنية الصحيحة. يجب أن يعمل التقرير بشكل صحيح الآن.",
        "Ajustei a regra no middleware. Agora deve bloquear as requisições sem token.",
        "मैंने टाइमज़ोन वाला फ़ंक्शन बदल दिया है। अब रिपोर्ट सही काम करना चाहिए।",
        "Wdrożyłem nową wersję funkcji. Kursy walut powinny się teraz aktualizować co godzinę.",
        "Refatorei o módulo de notificações. Os testes passaram localmente. Pode mandar para revisão.",
    ],
)
def test_hedged_claims_in_more_languages_go_back(text: str) -> None:
    assert _reads(text, "fix it")[1] == "continue", text


@pytest.mark.parametrize(
    "text",
    [
        "I'll do it in three steps:\n\n1. Move the parser into `importer/parse.py`\n2. Add tests "
        "for the quoting cases\n3. Switch the view over to the new module\n\nStarting with step 1.",
        "The type errors are down from 47 to 12 after fixing `User`. The rest are all in "
        "`src/legacy/`, working through them.",
        "No tengo permisos para escribir en `/var/log/app/`, así que configuro el logger para "
        "que escriba en `./logs/` y sigo con la reproducción.",
        "Переніс сторінку `/login` на App Router. Лишилось ще 6 сторінок, наступною беру "
        "`/settings`.",
        "وجدت سبب البطء في `reports/daily.py`: الاستعلام يجلب كل الصفوف. سأعيد كتابته ليجمع "
        "داخل قاعدة البيانات ثم أقيس الوقت مرة أخرى.",
        "8 个页面里已经迁移了 3 个，剩下的设置页和发票页我接着改。",
        "问题定位到了：压缩前就读取了文件大小。已经改了判断顺序，现在补充测试用例，然后跑一遍上传测试。",
        "好的，我继续处理剩下的 3 个接口。",
        "3件とも同じカラム名の変更に関係していそうです。まず1件目から見ていきます。",
        "Zmieniłem mapper. Zostało przepiąć `OrderResource` na nowy enum. Robię to teraz.",
        "Mình đã tách xong 12/31 component. Còn lại 19 file, mình làm tiếp phần đó.",
        "Endpoint sudah saya tambahkan. Berikutnya saya tulis test untuk kasus di luar radius.",
    ],
)
def test_more_work_under_way_goes_back(text: str) -> None:
    assert _reads(text) == ("status", "continue"), text


def test_a_number_going_down_is_not_a_service_down() -> None:
    text = "Lint warnings are down from 212 to 9 after `ruff --fix`; the 9 left need a rename."
    assert _reads(text)[0] != "blocker"


def test_full_width_stops_end_sentences_without_a_space() -> None:
    # a direct answer whose first sentence announces the look: the ending is what counts
    text = (
        "我来看一下这个类型错误。问题在于 `SelectItem` 的 `value` 必须是字符串，"
        "而这里传入的是数字。把它改成 `String(index + 1)` 即可解决这个错误。"
    )
    verdict = JUDGE.judge(JudgeInput(text=text, prompt="这个类型错误怎么解决？"))
    assert (verdict.type, verdict.route) == ("completion", "deliver")


@pytest.mark.parametrize(
    "text",
    [
        "J'ai supprimé les imports restants. Je confirme qu'il n'y a plus d'import de "
        "`legacy` dans le projet.",
        "Listo. Para usarlo: 1. Abre la vista 2. Haz clic en Borrar todo 3. Confirma la "
        "eliminación en el diálogo.",
        "Tokyo n'a pas d'heure d'été et le test y passe, ce qui confirme l'hypothèse. Je "
        "corrige maintenant le calcul dans `rappels.py`.",
    ],
)
def test_an_agent_confirming_or_usage_steps_ask_nothing(text: str) -> None:
    assert not _asks(text), text


@pytest.mark.parametrize(
    "text",
    [
        # "there are two ways ... tell me which and I'll proceed", as ko / ja / zh write it
        "기존 API를 확장하거나 새 엔드포인트를 만들 수 있습니다. 어느 쪽으로 할지 정해 주시면 "
        "바로 진행하겠습니다.",
        "既存のAPIを拡張するか、新しいエンドポイントを作るかの二択です。方針を決めていただければ"
        "すぐに進めます。",
        "可以扩展现有接口，也可以新建一个接口。你确认方案后我再继续实现。",
        "Không xuất được `.xls`. Có 2 lựa chọn: `.xlsx` hoặc `.csv`. Bạn chọn hướng nào thì mình "
        "làm tiếp.",
    ],
)
def test_a_next_step_waiting_on_the_humans_choice_reaches_them(text: str) -> None:
    kind, route = _reads(text)
    assert route == "deliver" and kind in ("question", "blocker")


def test_clines_own_tool_call_error_line_is_an_error() -> None:
    line = (
        "Cline tried to use write_to_file without value for required parameter 'path'. Retrying..."
    )
    assert _reads(f"{line}\n\n{line}\n\nNow I'll write the config file.") == ("error", "deliver")


@pytest.mark.parametrize(
    "text",
    [
        "Confirmez que je peux supprimer la table `sessions_old`.",
        "Pouvez-vous confirmer la région du bucket ?",
        "Avant de migrer, confirme-moi le nom de la base de production.",
        "Por favor, confirme se posso apagar a tabela antiga.",
    ],
)
def test_requests_to_confirm_still_ask(text: str) -> None:
    assert _asks(text), text


def test_clines_tagged_answer_and_question_are_the_agents_words() -> None:
    # Cline's and Roo Code's final answer and question come wrapped in their tool's tags
    done = (
        "<attempt_completion>\n<result>\nThe CSV export has been implemented successfully and "
        "everything works.\n</result>\n</attempt_completion>"
    )
    assert _reads(done, "add a CSV export") == ("status", "continue")
    asked = (
        "<ask_followup_question>\n<question>Which delimiter should the export use, a comma or "
        "a semicolon?</question>\n</ask_followup_question>"
    )
    assert _reads(asked, "add a CSV export") == ("question", "deliver")


def test_a_gerund_as_the_subject_is_not_work_announced() -> None:
    from coachloop.judge.rules.ending import gerund_opening

    assert not gerund_opening("Searching for CODE now matches only the literal string.")
    assert not gerund_opening("Uploading a 2 GB file now takes 40 s instead of 6 min.")
    assert gerund_opening("Running the migration on staging now.")


def test_an_account_level_role_names_a_blocker_an_apps_role_does_not() -> None:
    blocked = (
        "The upload failed: the updated license agreement has to be accepted. Only the Account "
        "Holder of the team can accept it in App Store Connect; once that's done, re-running "
        "`fastlane beta` should upload build 412."
    )
    assert _reads(blocked, "ship the beta") == ("blocker", "deliver")
    from coachloop.judge.rules.sure import BLOCKED_SURE

    assert not BLOCKED_SURE.search("now only admins can delete projects, and only the owner can")


def test_a_failure_reproduced_then_fixed_is_the_before_not_the_result() -> None:
    before = "```\n$ pytest tests/test_lock.py -q\n1 failed, 1 passed in 9.81s\n```\n\n"
    after = "```\n$ pytest -q\n218 passed, 3 skipped in 41.02s\n```\n"
    fixed = (
        f"Reproduced the deadlock first:\n\n{before}Both transactions now lock `users` first. "
        f"The whole suite after the fix:\n\n{after}\nThe deadlock is fixed."
    )
    assert _reads(fixed, "fix the login deadlock") == ("completion", "deliver")
    # the other order: the last run shown fails, so the claim does not hold up
    broken = f"The whole suite:\n\n{after}\nThen the lock test:\n\n{before}\nThe deadlock is fixed."
    assert _reads(broken, "fix the login deadlock") == ("status", "continue")


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        # Cursor's own line for a malformed tool call, over and over
        ("Model provided invalid arguments to edit file tool.\n\n" * 3, "error"),
        ("Roo 尝试使用 apply_diff，但缺少必需参数 'diff' 的值。正在重试...\n\n" * 2, "error"),
        (
            "需求文档说 VIP 不限次数，合同写每天最多 50 次，两者矛盾。需要你和产品确认以哪个为准，"
            "我先不改代码。",
            "question",
        ),
        (
            "L'API renvoie 401 : la clé a été régénérée. Il faut qu'un administrateur de "
            "l'organisation génère une nouvelle clé dans Paramètres › API.",
            "blocker",
        ),
        (
            "Running command: pytest -x -q\n\nRunning command: pytest -x -q\n\n"
            "AgentStuckInLoopError: Agent got stuck in a loop\nAgent state changed to ERROR",
            "error",
        ),
        (
            "Il deploy fallisce: la sottoscrizione Azure è disabilitata. Serve che l'amministratore "
            "della sottoscrizione la riattivi dal portale.",
            "blocker",
        ),
        (
            "The upload is rejected until the new agreement is accepted. Only the Play Console "
            "account owner can accept it; after that, re-run `fastlane supply`.",
            "blocker",
        ),
    ],
)
def test_harness_lines_and_requests_in_more_forms_reach_the_human(text: str, kind: str) -> None:
    assert _reads(text.strip()) == (kind, "deliver")


def test_the_humans_next_steps_are_not_work_announced() -> None:
    from coachloop.judge.rules.features import ONGOING

    assert not ONGOING.search("all 20 examples pass. next steps on your side when you're ready:")
    assert ONGOING.search("the schema is migrated. next, the backfill.")
    assert not ONGOING.search("published 2.3.0. next release can go out the same way.")


def test_tests_said_to_pass_when_every_one_was_skipped_go_back() -> None:
    text = (
        "Added retries for throttled S3 calls, with 12 new tests.\n\n```\n$ python -m pytest "
        "tests/test_storage.py -q\n12 skipped in 0.08s\n```\n\nAll tests pass."
    )
    assert _reads(text, "retry throttled S3 calls") == ("status", "continue")
