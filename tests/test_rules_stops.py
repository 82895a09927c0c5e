"""Stops a human must see, in the forms this project's validation sets showed (`blind27`,
`blind28`, `blind30`, `blind32`, `blind34`, `blind36`): the agent's own run breaking, said
casually or in its tool's own line; requests the next step waits on, phrased as statements,
as polite imperatives or conditionals in many languages; and results that only read like
work announced. Claims that go back and work under way: `test_rules_claims.py`."""

from __future__ import annotations

import pytest

from coachloop.core.judge_input import JudgeInput
from judge_support import JUDGE
from judge_support import reads as _reads


@pytest.mark.parametrize(
    "text",
    [
        # the agent tool's credits, or its connection failing until the retries ran out
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
        # cut off on a preposition or a Chinese or Hinglish conjunction, mid-sentence
        "● Update(src/player.gd)\n  ⎿  Updated src/player.gd with 3 additions\n\nNow I'll "
        "change the mask so the player can fall through the ledge without",
        "✦ 我先把路由拆到 `router/` 下，再调整中间件顺序，把鉴权放在限流之后，这样",
        "Handler likh diya hai aur ab main signature check add kar raha hoon taaki",
        # the harness's or the model service's own lines
        "Je relis les 40 gabarits un par un.\n\n  ⎿  Read templates/page.php (300 lines)\n\n"
        "Prompt is too long",
        "Eksportuję raporty…\n\nThe model is currently overloaded. Please try again later. "
        "(ThrottlingException)",
        "Je lance maintenant la suite complète.\n\n■ unexpected status 502 Bad Gateway: <html>",
        "The model is experiencing heavy traffic right now. Please try again in a few minutes.",
        "正在整理 `service/` 下的接口……\n\n模型响应异常，本轮对话已中断。点击「重试」继续。",
    ],
)
def test_the_agents_own_run_breaking_is_an_error(text: str) -> None:
    assert _reads(text) == ("error", "deliver")


def test_the_agents_own_usage_said_casually_reaches_the_human() -> None:
    # the reset time is its account's; the type stays the rules' own reading (a report)
    text = (
        "looks like I've burned through my usage on this account for now, it says the limit "
        "resets around 9pm. I was halfway through the cache refactor in `api/cache.py` (the "
        "helper is in, the call sites aren't)."
    )
    assert _reads(text)[1] == "deliver"


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
        # requests phrased as statements, and the Arabic question mark
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
        # es, fr: "quedo atento a que me confirmes", "je te laisse … me dire", "il me faudrait"
        "Las tarifas nuevas están listas en staging. El IVA de Canarias no lo puedo decidir yo. "
        "Quedo atento a que me confirmes cómo quieres esas tarifas antes de ejecutarlo en "
        "producción.",
        "Les deux variantes du menu sont sur la préprod. Je te laisse regarder et me dire "
        "laquelle tu gardes, je supprime l'autre ensuite.",
        "- ✅ L'export des ventes est prêt.\n- ⚠️ Pour les clients UE il me faudrait la liste "
        "des numéros de TVA que vous utilisez.\n- ⏭️ Ensuite je m'occupe des achats.",
        # tr: "if you tell me, I go on"
        "SMS başlığı onay bekliyor, benim yapabileceğim bir şey yok. Onaylanınca haber "
        "verirseniz değişkeni güncelleyip tekrar denerim.",
        "Planı hazırladım. Yıllık indirim oranını bulamadım; oranı bildirirseniz uygulamaya "
        "başlayacağım.",
        # Hinglish "batao kaunsa …", an Italian answer asked for in quotes, "Connect to the VPN"
        "Fix `develop` ke upar likha hai. Production `release/3.2` se chal raha hai, wahan alag "
        "se port karna padega. Batao kaunsa branch base lena hai, uske hisaab se PR khol dunga.",
        "Rebase pronto, i test passano in locale:\n\n```\n$ pytest -q\n214 passed in 18.2s\n"
        '```\n\nServe un `git push --force-with-lease`. Rispondi "ok" e procedo, altrimenti lo '
        "lascio a te.",
        "`mvn verify` can't resolve internal artifacts: the host only resolves on the corporate "
        "VPN. Connect to the VPN and I'll rerun the build.",
    ],
)
def test_a_request_to_the_human_reaches_them(text: str) -> None:
    assert _reads(text)[1] == "deliver"


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
    verdict = JUDGE.judge(JudgeInput(text=text, prompt="set up the dashboard"))
    assert verdict.route == "deliver"
    assert verdict.confidence == 0.85  # a sure delivery, whatever the score


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        (
            "这两个接口用 GraphQL 实现都不自然。\n\n可选方案：\n1. 其余接口改 GraphQL，上传保留 REST\n"
            "2. 全部改 GraphQL\n\n我建议方案 1。你选一个，我就开始改。",
            "question",
        ),
        (
            "The spec says two things that can't both hold: the PRD wants refunds with no "
            "approval, the compliance doc wants a second approver over ₩500,000. I've built "
            "everything up to that point. Which rule wins is a compliance call, not mine.",
            "blocker",
        ),
    ],
)
def test_a_choice_or_a_contradiction_is_put_to_the_human(text: str, kind: str) -> None:
    assert _reads(text) == (kind, "deliver")


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
    ("text", "prompt"),
    [
        # a review invited after finished work
        (
            "Раздел 3.1 готов, коммит `4be21a0`; файлы: `3.1_summary.md`, `3.1_quiz.md`.\n\n"
            "Проверьте, пожалуйста, всё ли вас устраивает.",
            "напиши материалы раздела 3.1",
        ),
        # an approved step done, with its output ("as confirmed" is the approval, not a check)
        (
            "Deleted the expired rows as confirmed:\n\n```\nshop=> DELETE FROM sessions WHERE "
            "created_at < now() - interval '90 days';\nDELETE 5311\nshop=> SELECT count(*) FROM "
            "sessions WHERE created_at < now() - interval '90 days';\n count\n-------\n     0\n"
            "```\n\n5,311 rows removed; the EU rows, which we're keeping, are untouched.",
            "retention is 90 days, keep EU rows. go ahead",
        ),
        # a docs task with its spec linted
        (
            "Documentación actualizada.\n\n- `docs/api/envios.md`: nuevos endpoints\n- "
            "`openapi/envios.yaml`: esquema `Envio`\n\n```\n$ npx @redocly/cli lint "
            "openapi/envios.yaml\nWoohoo! Your API description is valid. 🎉\n```",
            "documenta los endpoints de envíos",
        ),
    ],
)
def test_a_finished_answer_stays_a_completion(text: str, prompt: str) -> None:
    assert _reads(text, prompt) == ("completion", "deliver")


# The forms the validation sets `blind38` and `blind39` showed (written here anew).
@pytest.mark.parametrize(
    ("text", "kind"),
    [
        # the IDE's or SDK's own line, after narrated work; one after a block left open
        (
            "Writing the migration for `invoices` now.\n\nThe model you've selected is "
            "experiencing a high volume of traffic. Try changing the model and re-running.",
            "error",
        ),
        (
            "Updating the reducers next.\n\nSorry, the response hit the length limit. Please "
            "rephrase your prompt.",
            "error",
        ),
        (
            "Here is the hook:\n\n```ts\nexport function useCart() {\n  const [items, setItems] = "
            "useState(\n\nThe model's response exceeded the maximum output length. Try breaking "
            "the task into smaller steps.",
            "error",
        ),
        (
            "Let me look at the schema first.\n\nAI_APICallError: Overloaded\n    at run "
            "(/usr/lib/opencode:1:2211)\n  statusCode: 529",
            "error",
        ),
        ("我看了 `store/index.ts`，重复渲染的原因是", "error"),
        # a request that names where to do it, before the agent's next step
        (
            "Refunds fail: the restricted key has no refund scope. In the Stripe dashboard "
            "(Developers → API keys) either give that key refund rights or put a full test key "
            "in `.env`, then I'll rerun the suite.",
            "question",
        ),
        # a requirement clash, an owner-only setting, no other access
        (
            "Die zwei Tickets widersprechen sich: eins will Gastdaten nach 30 Tagen löschen, das "
            "andere die Lieferadresse zehn Jahre behalten. Das muss jemand fachlich klären.",
            "blocker",
        ),
        (
            "La subida a Play falla con 403. Esto solo lo puede cambiar el propietario de la "
            "cuenta en Play Console; cuando esté, vuelvo a subir el build.",
            "blocker",
        ),
        (
            "Je ne peux pas me connecter au VPS : la clé n'est pas autorisée et je n'ai pas "
            "d'autre accès. Une fois la clé ajoutée, je relance le déploiement.",
            "blocker",
        ),
    ],
)
def test_harness_lines_and_blockers_of_the_later_sets(text: str, kind: str) -> None:
    assert _reads(text) == (kind, "deliver")


@pytest.mark.parametrize(
    "text",
    [
        "The job dies before upload and its log is cut. Run `make e2e CI=1` locally and paste "
        "the complete output here:\n\n```\nmake e2e CI=1 2>&1 | tee e2e.log\n```",
        "Both `main` and `release` take PRs here and the docs don't say which. Tell me the "
        "target branch and I'll open it.",
        "The script deletes 230 rows in production. Check `to_delete.csv` and give me the "
        "go-ahead before I run it.",
        "Воркер не стартует после деплоя. Виконай на сервері й скинь вивід:\n\n```\n"
        "systemctl status worker\n```",
        "Есть два пути: переписать модуль целиком или обернуть старый API. Выбери вариант, и "
        "я начну.",
        "Можна через CSS-змінні або через `dark:` класи. Обери варіант, і я почну.",
        "Mình chưa tái hiện được lỗi. Bạn gửi mình file log lúc lỗi và tên máy in nhé.",
        "方針は A（一括移行）と B（段階移行）の2つです。どちらにするか決めてください。",
    ],
)
def test_requests_of_the_later_sets_reach_the_human(text: str) -> None:
    assert _reads(text)[1] == "deliver"


@pytest.mark.parametrize(
    ("text", "prompt"),
    [
        (
            "Die Doku ist fertig: `docs/api/export.md` mit Beispielen, `openapi.yaml` ergänzt.\n\n"
            "```\n$ npx @redocly/cli lint openapi.yaml\nWoohoo! Your API description is valid. 🎉"
            "\n```",
            "schreib die Doku für den Export-Endpunkt",
        ),
        # a command's own check line holds "should"; the agent's words do not hedge
        (
            "Upgraded to SDK 52.\n\n```\n$ npx expo-doctor\n```\n✔ Check dependencies for "
            "packages that should not be installed directly\n✔ Check Expo config\n\n```\n$ npm "
            "test\nTests: 88 passed, 88 total\n```",
            "upgrade expo to sdk 52",
        ),
    ],
)
def test_finished_answers_of_the_later_sets_stay_completions(text: str, prompt: str) -> None:
    assert _reads(text, prompt) == ("completion", "deliver")


# The forms the validation sets `blind42` and `blind43` showed (written here anew).
@pytest.mark.parametrize(
    ("text", "prompt", "kind"),
    [
        (
            "Let me run the suite first.\n\n■ exceeded retry limit, last status: 429 Too Many "
            "Requests",
            "fix the flaky test",
            "error",
        ),
        (
            'Saya cek dulu validasinya.\n\nAPI Request Failed\n\n429 {"error":{"message":'
            '"Rate limit exceeded","code":429}}',
            "perbaiki validasi form",
            "error",
        ),
        (
            "Bil tak boleh dicipta: kunci rahsia dalam `.env` tak sah. Awak perlu log masuk ke "
            "akaun pembayaran dan ambil kunci baru. Saya tak ada akses ke akaun tu.",
            "sambung payment gateway",
            "question",
        ),
        (
            "Ödeme testi reddediliyor: `.env` içindeki anahtarlar boş. Bunları panelden alman "
            "lazım, benim erişimim yok. Anahtarlar gelince testleri bitiriyorum.",
            "ödeme akışını test et",
            "blocker",
        ),
        (
            "सर्वर पर SSH नहीं हो रहा। आपको पैनल में जाकर यह पब्लिक की जोड़नी होगी, फिर मैं डिप्लॉय कर दूँगा।",
            "site deploy kar do",
            "question",
        ),
        # a past step after "Then", a command's inline result, a docs task in Czech
        (
            "Applied the plan:\n\n```\nApply complete! Resources: 2 added, 0 changed, 0 destroyed.\n"
            "```\n\nThen migrated the state to the new bucket. Committed as `c41d9e2`.",
            "create the state bucket and apply",
            "completion",
        ),
        (
            "Added a trigram index on `customers.name`; the query went from 2.3 s to 14 ms.\n\n"
            "Migration: `db/migrations/0151_trgm.sql`. `npm test -- search` → 12 passed.",
            "the customer search is slow, fix it",
            "completion",
        ),
        (
            "Dokumentace API je aktualizovaná.\n\nZměněné soubory:\n- `docs/api.md`: nové "
            "endpointy a příklady\n- `docs/errors.md`: nové kódy chyb\n\nKód jsem neměnil.",
            "aktualizuj dokumentaci api",
            None,
        ),
        (
            "**Summary**\n- Added `docs/runner/config.md` with all 19 variables\n\n**Testing**\n"
            "- ✅ `python scripts/check_env_docs.py` → 19/19 documented\n- ⚠️ No code changes, so "
            "the test suite was not run",
            "document the runner's env vars",
            "completion",
        ),
        # an answer to a question, closing on "for now" (şimdi), not work announced
        (
            "Tek sunucu için **PM2 yeterli**, Docker'a gerek yok. Kısacası: şimdi PM2, büyürsen "
            "Docker Compose.",
            "docker mı kullanayım pm2 mi? küçük bir site",
            "completion",
        ),
    ],
)
def test_stops_of_the_sets_42_and_43(text: str, prompt: str, kind: str | None) -> None:
    # None: delivered, its type left to the scorer's reading (a report or a request)
    assert _reads(text, prompt) == (kind or _reads(text, prompt)[0], "deliver")
