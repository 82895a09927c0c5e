"""Stops that hand the turn to the human, in the forms the validation sets `blind45` to
`blind57` showed (written here anew): Claude Code's and other harnesses' own failure lines
after narrated work, a role or a budget only someone else holds, requests put as "reply
with approval", "tell me to", "j'ai besoin de toi", "cuando las tengas", ja/zh/ko requests;
and a finished check run whose closing leaves the next step to the human."""

from __future__ import annotations

import pytest

from coachloop.judge.rules.task import prompt_kind
from judge_support import reads as _reads


def test_a_next_step_left_to_the_human_is_not_work_announced() -> None:
    text = (
        "All release checks pass.\n\n```\n$ make release-check\n==> go test ./... ok (812 "
        "tests, 0 failures)\nrelease-check: all 6 checks passed\n```\n\nI didn't tag anything; "
        "that's the next step whenever you want it."
    )
    assert _reads(text, "run the release checks") == ("completion", "deliver")


def test_an_offer_to_help_is_not_a_request() -> None:
    # "let me know and I'll help": nothing waited on (a claim that predicts goes back)
    text = "Fixed the import; the page should load now. If you still see errors, let me know and I'll help."
    assert _reads(text, "the page is blank")[1] == "continue"


def test_a_finished_report_with_a_passing_run_is_not_sent_back_on_its_wording() -> None:
    text = (
        "The `:api` tests are fixed.\n\n**What was wrong:** the test compared timestamps at "
        "different precisions.\n\n**Fix:** truncate to millis.\n\n```\n$ ./gradlew :api:test\n"
        "BUILD SUCCESSFUL in 58s\n```\n\nTest report: 188 tests, 0 failures, 0 ignored."
    )
    assert _reads(text, "fix the failing gradle build")[1] == "deliver"


@pytest.mark.parametrize(
    ("prompt", "asks"),
    [
        ("revisa el PR 58", True),  # the review is the answer
        ("relis la PR 12 stp", True),
        ("revisa por qué el job de ETL tarda el doble", False),  # find out why: work
    ],
)
def test_a_review_asked_for_is_a_question(prompt: str, asks: bool) -> None:
    assert prompt_kind(prompt)[0] is asks


def test_a_toggle_asked_for_before_the_next_step() -> None:
    text = (
        "The handlers need the message content intent, which is toggled in the developer "
        "portal. Flip it under Bot → Privileged Intents and confirm here, then I'll run the bot."
    )
    assert _reads(text, "migrate the bot")[1] == "deliver"


# Stops of the validation sets (`blind45`–`blind57`) read as a type and delivered; None:
# delivered as the sure check says, the rules' own reading of the narrated work kept.
@pytest.mark.parametrize(
    ("text", "prompt", "kind"),
    [
        (
            "Let me see how the tables page.\n\n⎿  Read(src/table.tsx)\n\nThe hook already "
            "pages, so I only need to\n\n⎿  API Error: Connection error.\n   TypeError (fetch "
            "failed)",
            "do the task",
            None,
        ),
        (
            "Did 5 of the 9 TODOs in `lexer/`.\n\n- ✅ CRLF\n- ⏳ next: unicode escapes\n\n"
            "Error: Compaction failed: Conversation too long. Press esc twice to go up a few "
            "messages and try again.",
            "do the task",
            "error",
        ),
        (
            "Installed the browser tools. Now I'll walk the checkout flow.\n\nError: MCP server "
            '"browser" disconnected unexpectedly (exit code 134)',
            "do the task",
            "error",
        ),
        ("Updating the fixtures.\n\nLLM provider error: Connection error.", "do the task", "error"),
        (
            "Regenerating the snapshots.\n\nError: ERR_STREAM_PREMATURE_CLOSE\nThe agent stopped "
            "unexpectedly. Try again or start a new chat.",
            "do the task",
            None,
        ),
        (
            "The map widget is built, but every request is refused (ApiNotActivatedMapError). "
            "Enabling the API needs Owner/Editor on that project, and billing must be on. I'll "
            "check it once that's done.",
            "do the task",
            "blocker",
        ),
        (
            "12 of 20 specs pass on staging; the rest need MFA exemptions for the test users, "
            "which are for the security team to decide and configure.",
            "do the task",
            "blocker",
        ),
        (
            "The route works with a mocked client. The real call returns 'credit balance is too "
            "low' for the product's own workspace key: the workspace needs credits added in the "
            "console before I can run the end-to-end test.",
            "do the task",
            "blocker",
        ),
        (
            "`kr-seoul` 러너가 전부 오프라인입니다. 러너 서버는 제가 접근 권한이 없어서 재시작을 못 "
            "합니다.",
            "do the task",
            "blocker",
        ),
        (
            "デプロイが権限エラーで止まりました。プロジェクトのオーナーにロールを付与してもらう必要が"
            "あります。付与されたら再実行します。",
            "do the task",
            "blocker",
        ),
        (
            "Jules encountered an unexpected error and could not complete the task. Please try "
            "again later.",
            "do the task",
            "error",
        ),
        (
            "Perfetto! Ora aggiorno il file `card.liquid` in modo che il badge",
            "do the task",
            "error",
        ),
        (
            "Gefunden. Ich passe jetzt die `Card`-Komponente an, damit der Streichpreis",
            "do the task",
            "error",
        ),
        (
            "El CLI está logueado con una cuenta de colaborador. El propietario de la tienda tiene "
            "que crearte una cuenta de empleado; en cuanto esté, vuelvo a lanzarlo.",
            "do the task",
            "blocker",
        ),
        (
            "Die Signierung schlägt fehl. Der Kunde muss unsere Apple-ID in App Store Connect "
            "einladen. Danach kann ich hochladen.",
            "do the task",
            "blocker",
        ),
        (
            "Oops, my API credits ran dry: the router answers `402 Insufficient credits` for the "
            "model I run on. Top it up and hit retry.",
            "finish the task",
            "error",
        ),
        (
            "✦ I'm being throttled on my end (`429` on the last calls), so I'm stopping mid-task.",
            "finish the task",
            "error",
        ),
        (
            "Hit my rate limit with the model provider again and my retries are all used up. Say "
            '"continue" and I\'ll resume.',
            "finish the task",
            "error",
        ),
        (
            "⏺ My connection to the model keeps dropping: three retries died with `API Error: "
            "Request timed out.` Resend and I'll pick up from the fix.",
            "finish the task",
            "error",
        ),
        (
            "Something went sideways: I ran into the max output tokens and the tool call came out "
            "garbled. Nothing was written.",
            "finish the task",
            "error",
        ),
        (
            "Sorry, my model calls are getting `overloaded` responses. Try me again in a bit.",
            "finish the task",
            "error",
        ),
        (
            "My session crashed (`Extension host terminated unexpectedly`) and the edits are lost.",
            "finish the task",
            "error",
        ),
        (
            "I'll now update the loader for the v2 format. Let me read the rest of the file\n\n"
            "[Output truncated: response exceeded 32000 output token maximum]",
            "go on",
            "error",
        ),
        (
            "`camerax` needs minSdk 23; we're on 21 (2.8% of installs). Confirm you're fine "
            "dropping them before I change it, or I can gate the feature instead.",
            "bump minSdk",
            "question",
        ),
        (
            "Corrigido: o `MenuController` agora cancela a inscrição em `OnDisable`.\n\n```\nTest "
            "run: EditMode + PlayMode\n  Total: 64  Passed: 64  Failed: 0\n```",
            "corrige o vazamento de memória",
            "completion",
        ),
        (
            "The model is temporarily unavailable. Please try again in a few minutes.\n\n(Kiro) "
            "Elapsed time: 3s",
            "go on with task 4",
            "error",
        ),
        (
            "The bridge rejects the app (`link button not pressed`). The button has to be pressed "
            "by someone in the room within 30 seconds of the request.",
            "turn on the lights",
            "blocker",
        ),
        (
            "Added `CONTRIBUTING.md` (setup, tests, style, PR checklist) and linked it from "
            "`README.md`.\n\nFiles changed:\n- `CONTRIBUTING.md` (new)\n- `README.md` (+3 lines)",
            "add a CONTRIBUTING file",
            "completion",
        ),
    ],
)
def test_read_as_and_delivered(text: str, prompt: str, kind: str | None) -> None:
    type_, route = _reads(text, prompt)
    assert route == "deliver" and type_ == (kind or type_)


# Requests and choices of the validation sets that reach the human, whatever their type.
@pytest.mark.parametrize(
    ("text", "prompt"),
    [
        (
            "The migration is written with `executeInTransaction=false`. Reply with approval to "
            "keep it as a regular migration, or tell me to move it to `db/manual/`.",
            "fix it",
        ),
        (
            "J'ai mis à jour la référence. Il reste un point où j'ai besoin de toi : dis-moi si la "
            "doc doit suivre le code (`202`) ou l'inverse.",
            "fix it",
        ),
        (
            "Faltan las credenciales de pruebas; el transportista solo se las manda al titular. "
            "Cuando las tengas, ponlas en `ENVIOS_USER` y `ENVIOS_PASS`.",
            "fix it",
        ),
        (
            "ヘッダー名はログを見ないと分かりません。次の通知が届いたら、以下の出力を貼ってください。",
            "fix it",
        ),
        ("镜像推送需要登录你的阿里云账号，我这边没有。你登录完说一声，我继续 push。", "fix it"),
        ("第三點很可疑。請用預設瀏覽器開啟，然後把 console 的錯誤訊息原文貼給我。", "fix it"),
        (
            "The gate fails at 0.78 coverage. Options:\n1. lower the gate\n2. add tests for `pdf`\n"
            "3. exclude the generated package\n\nWhich would you like me to do?",
            "add it",
        ),
        (
            "Two places can hold the threshold: a theme setting or a shop metafield. Let me know A "
            "or B and I'll wire it up.",
            "add it",
        ),
        (
            "Optie A: vacatures in het CMS. Optie B: koppeling met de ATS. Kies optie A of B, dan "
            "ga ik verder met de uitwerking.",
            "add it",
        ),
        (
            "Docker isn't running here and `sudo` asks for a password. Start Docker Desktop and "
            "I'll bring the stack up.",
            "spin up the dev stack",
        ),
        (
            "The design doc is in `.kiro/specs/search/design.md`. Review it and let me know if it "
            "looks right so I can move on to the tasks phase.",
            "spec: search",
        ),
        (
            "PR ready: https://github.com/acme/api/pull/88. CI: ✅ test, ✅ lint. I'll stay "
            "subscribed to the PR in case review comments come in.",
            "upgrade pydantic",
        ),
        (
            "Знайшов 4 таблиці без посилань у коді. Підтверди, що можна видаляти всі, або скажи, "
            "які залишити.",
            "видали старі таблиці",
        ),
        (
            "План готов. Подтверди, что делаем именно так и бэкап свежий — тогда запускаю.",
            "почисти миграции",
        ),
        ("Zaloguj się do konsoli i wklej mi tutaj listę adresów przekierowań.", "napraw logowanie"),
        (
            "Staging returns 502 and the status page shows an incident at the host. I'll need "
            "staging back before these tests mean anything.",
            "run the integration tests",
        ),
        (
            "Деплой не пройшов: закінчився trial. Це обмеження вашого акаунта, а не коду; після "
            "оплати я перезапущу деплой.",
            "задеплой бекенд",
        ),
        (
            "`pip install` dies with `No space left on device`. I won't delete anything outside the "
            "project on my own — free up some space and I'll retry.",
            "do it",
        ),
        (
            "Six modules have no imports; two are named in the CMS config. I'll remove the four. "
            "For those two, confirm whether the CMS still loads them.",
            "do it",
        ),
        (
            "The drive isn't mounted here and I have no creds for it. Copy `sales.xlsx` into "
            "`data/` or mount the drive and I'll carry on.",
            "do it",
        ),
        (
            "Every call returns `429 monthly quota exceeded` for the key in `.env`. Bump the plan "
            "or drop another key in `.env` and I'll regenerate the fixtures.",
            "do it",
        ),
        (
            "The portal shows a human check to the headless browser. If you can export the list as "
            "CSV, drop it in `data/` and I'll take it from there.",
            "do it",
        ),
        (
            "The token is expired (`403`). Make a new one under Settings → Security and put it in "
            "`FIGMA_TOKEN`; then I'll pull the tokens.",
            "do it",
        ),
        (
            "12 branches are merged. Deleting remote branches can't be undone from here, so confirm "
            "and I'll delete them.",
            "do it",
        ),
        (
            "Loop detected: the model repeated the same tool call (`read_file a.py`) 9 times. "
            "Stopping the request to prevent an infinite loop.",
            "fix the export",
        ),
        (
            "Sorry, the response was filtered by the Responsible AI Service. Please rephrase your "
            "prompt and try again.",
            "add the chart",
        ),
        (
            "Prices updated and tests pass (40 passed). Pushing them notifies 2,100 subscribers: "
            "please approve before I run `push_prices --notify`.",
            "sync the prices",
        ),
        (
            "`git push heroku main` fails: payment method required. The team needs a verified "
            "payment method before the worker dyno can be added.",
            "deploy the worker",
        ),
        (
            "The webhook was removed after 19 failures; re-creating it needs the app to be "
            "re-installed by the store owner.",
            "replay the webhooks",
        ),
        (
            "Three campaigns are active; pausing the first also stops welcome emails. Confirm "
            "which to pause.",
            "pause the marketing emails",
        ),
        (
            "Der Abruf braucht eine TAN. Bitte starte `python import.py` einmal selbst und "
            "bestätige die TAN.",
            "importiere die Kontoauszüge",
        ),
        (
            "Аккаунт CRM заблокирован: закончилась подписка. Нужно продлить тариф, после этого "
            "перезапущу выгрузку.",
            "выгрузи сделки",
        ),
        # a description and a date are no work announced
        (
            "It runs daily and writes unmatched rows to `exceptions`; anything unmatched after "
            "that stays there until someone resolves it by hand.",
            "What does the reconcile job do?",
        ),
        (
            "The range ended on the first day of next month. Changed to `< end`.\n\n```\n$ make "
            "test\n7 passed in 0.9s\n```",
            "fix the off-by-one in the report",
        ),
    ],
)
def test_reaches_the_human(text: str, prompt: str) -> None:
    assert _reads(text, prompt)[1] == "deliver"
