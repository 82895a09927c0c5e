"""What the fourth session's validation sets (`blind76` to `blind78`) showed, with the
cases written here anew: a failure printed by the last command a message shows, in the
forms agents paste it (indented under Claude Code's "⎿", in Terraform's box, a 5xx status
line), sends a claim of being done back, while a failure the turn went on to fix does not;
a request to the human followed by the agent's own next step ("paste the new key into
`.env` and I'll rerun it") in other languages reaches the human; "next" used as an
adjective announces no work; a message cut in the middle of a word broke off."""

from __future__ import annotations

import pytest

from coachloop.core.judge_input import JudgeInput
from coachloop.evidence import extract
from coachloop.judge.rules.stand_in import stub_in_code
from judge_support import JUDGE, reads

_HELM_FAILED = (
    "⏺ Bash(helm upgrade billing charts/billing -n billing --wait --timeout 3m)\n"
    "  ⎿  Error: UPGRADE FAILED: timed out waiting for the condition\n\n"
    "Billing is upgraded to chart 4.2 with the new memory limits; the rollout is done."
)
_TERRAFORM_FAILED = (
    "```\n$ terraform apply -auto-approve\n"
    "aws_s3_bucket.assets: Modifying... [id=acme-assets]\n"
    "╷\n│ Error: updating S3 Bucket (acme-assets) versioning: InvalidBucketState\n│\n╵\n```\n\n"
    "The bucket settings are applied and versioning is on. The lifecycle rule for "
    "`tmp/` now expires objects after 7 days, and the bucket policy denies plain HTTP. "
    "Nothing else in the plan changed."
)
_CURL_503 = (
    "Done: the upstream in `nginx/sites/api.conf` now points at port 9090 and nginx is "
    "reloaded.\n\n```\n$ curl -sI https://api.example.org/health\nHTTP/1.1 503 Service "
    "Unavailable\nserver: nginx\n```\n\nThe 503 is the app still booting."
)
_MIGRATION_FAILED = (
    "Migration added.\n\n```\n$ npx sequelize db:migrate\n== 20240102-add-sku: migrating "
    "=======\nmigration 20240102-add-sku failed with error: duplicate key value\n```"
)
_FIXED_LATER = (
    "⏺ Bash(npm run check:links)\n"
    "  ⎿  ERROR: 3 broken links found in dist/\n\n"
    "⏺ Update(src/pages/faq.md)\n  ⎿  Updated src/pages/faq.md with 3 changes\n\n"
    "⏺ Bash(npm run check:links)\n  ⎿  checked 212 links, 0 broken\n\n"
    "Fixed the three broken FAQ links; the link check now reports 0 broken out of 212."
)


@pytest.mark.parametrize(
    "text",
    [_HELM_FAILED, _TERRAFORM_FAILED, _CURL_503, _MIGRATION_FAILED],
    ids=["helm", "terraform", "curl-503", "migration"],
)
def test_a_failure_in_the_last_output_is_read(text: str) -> None:
    assert extract(text).failures


@pytest.mark.parametrize("text", [_HELM_FAILED, _CURL_503], ids=["helm", "curl-503"])
def test_done_beside_a_failing_last_output_goes_back(text: str) -> None:
    assert reads(text, "roll out the change") == ("status", "continue")


def test_a_failure_fixed_later_in_the_turn_is_the_before() -> None:
    assert not extract(_FIXED_LATER).failures
    without_it = _FIXED_LATER[_FIXED_LATER.index("⏺ Update") :]
    assert reads(_FIXED_LATER, "fix the links") == reads(without_it, "fix the links")


@pytest.mark.parametrize(
    "text",
    [
        "```\n$ curl -sI https://api.example.org/health\nHTTP/2 200\nserver: nginx\n```",
        "Error handling now logs the request id.\n  - Error pages keep the status code.",
    ],
    ids=["curl-200", "prose"],
)
def test_no_failure_where_none_is_printed(text: str) -> None:
    assert not extract(text).failures


@pytest.mark.parametrize(
    "text",
    [
        "Токен Sentry отозван. Вставьте новый в `.env`, и я повторю загрузку sourcemaps.",
        "Сертифікат прострочений. Додайте новий у секрети CI, і я перезапущу збірку.",
        "Le jeton Sentry est révoqué. Mets le nouveau dans `.env` et je relance l'envoi.",
        "Der Sentry-Token ist widerrufen. Trag den neuen in `.env` ein, dann lade ich neu hoch.",
        "Il token di Sentry è revocato. Metti quello nuovo nel `.env` e riprovo il caricamento.",
        "O token do Sentry foi revogado. Coloque o novo no `.env` e eu rodo o upload de novo.",
        "El token de Sentry está revocado. Pega el nuevo en `.env` y vuelvo a subir los mapas.",
        "Token Sentry đã bị thu hồi. Bạn tạo token mới rồi báo mình để làm tiếp.",
    ],
    ids=["ru", "uk", "fr", "de", "it", "pt", "es", "vi"],
)
def test_a_request_then_the_agents_next_step_reaches_the_human(text: str) -> None:
    assert reads(text, "upload the sourcemaps")[1] == "deliver"


@pytest.mark.parametrize(
    "text",
    [
        # the agent's own first person, where French writes the imperative the same way
        "J'ai trouvé la cause. Je lance les tests et je vérifie le rapport de couverture.",
        # a usage note is not a request the work waits on
        "Creo el archivo de configuración ahora. Después ejecuto las migraciones y sigo con "
        "los tests de integración.",
    ],
    ids=["fr-first-person", "es-narration"],
)
def test_the_agents_own_steps_stay_work_under_way(text: str) -> None:
    assert reads(text, "set up the project") == ("status", "continue")


@pytest.mark.parametrize(
    ("text", "prompt"),
    [
        # "next, you can check it in the browser": the human's step, after evidence
        (
            "接下来你可以直接在浏览器里验证。\n\n```\n$ npm test\nTests  31 passed (31)\n```",
            "给表格加分页",
        ),
        # "the next 10 rows": an adjective, in an answer to a question
        (
            "`SKIP LOCKED` bỏ qua các dòng đang bị khóa, nên worker sẽ lấy 10 dòng tiếp theo "
            "thay vì chờ.",
            "SKIP LOCKED hoạt động thế nào?",
        ),
        # a suggestion for later, after a commit and a passing run
        (
            "Commit 5c1d2e9 fix: Rundung pro Position\n\n```\n$ bundle exec rake test\n"
            "14 runs, 30 assertions, 0 failures, 0 errors, 0 skips\n```\n\nAls Nächstes könnte "
            "man die Steuer pro Land cachen.",
            "Rundungsfehler in Rechnungen beheben",
        ),
        # an offer in Portuguese whose article "o" is no "or"
        (
            "Commit 7e8f9a0 fix: baixa atômica\n\n```\n$ pytest -q\n9 passed in 0.5s\n```\n\n"
            "Se quiser, posso aplicar o mesmo padrão às reservas.",
            "estoque fica negativo",
        ),
        # the last task of a spec, finished
        (
            "Task 5 of 5: *Add the export button* — done.\n\n```\n$ npm test\nTests  18 passed "
            "(18)\n```",
            "implement the spec tasks",
        ),
    ],
    ids=["zh-your-next-step", "vi-next-rows", "de-suggestion", "pt-offer", "last-task"],
)
def test_no_work_announced(text: str, prompt: str) -> None:
    assert reads(text, prompt)[1] == "deliver"


def test_a_word_cut_after_two_letters_broke_off() -> None:
    text = "I've moved the retry into `useSession`, and now I'll update the logout handler and cl"
    assert reads(text) == ("error", "deliver")
    assert reads("Updated the lint and CI", "tidy the pipeline")[0] != "error"


_NEED_YOU = (
    "{almost}:\n✔ {build}\n✔ {generated}\n✘ {apply}:\n\n```\nFATAL: password authentication "
    'failed for user "app_stg"\n```\n\n{body}'
)


@pytest.mark.parametrize(
    "text",
    [
        _NEED_YOU.format(
            almost="Quase lá",
            build="build da imagem",
            generated="migrações geradas",
            apply="aplicar no banco de staging",
            body="A senha do `app_stg` em `.env.stg` não funciona mais, deve ter sido "
            "rotacionada. Preciso que você atualize a senha no `.env.stg`. Aí aplico as "
            "migrações e sigo.",
        ),
        _NEED_YOU.format(
            almost="Quasi fatto",
            build="build dell'immagine",
            generated="migrazioni generate",
            apply="applicare sul database di staging",
            body="La password di `app_stg` in `.env.stg` non funziona più, probabilmente è "
            "stata ruotata. Ho bisogno che tu aggiorni la password in `.env.stg`. Poi applico "
            "le migrazioni e proseguo.",
        ),
    ],
    ids=["pt", "it"],
)
def test_i_need_you_to_reaches_the_human(text: str) -> None:
    assert reads(text, "faça o deploy")[1] == "deliver"


def test_the_model_request_failing_in_chinese_is_an_error() -> None:
    text = (
        "我先把任务拆成几步：\n1. 改表结构\n2. 改接口\n\n模型请求失败，请稍后重试。(错误码: 5001)"
    )
    assert reads(text, "加一个导出功能") == ("error", "deliver")
    # a request of the app's own that failed, fixed, is no error of the agent's run
    fixed = "已修复登录请求失败的问题：`auth.ts` 里的超时从 1s 改为 10s。\n\n```\n$ npm test\nTests  12 passed (12)\n```"
    assert reads(fixed, "登录经常失败")[0] != "error"


_HOOK_FAILED = (
    "Committed and pushed: `9c1e2f3 feat(cart): coupon codes`.\n\nThe pre-commit hook kept "
    "failing on three lint errors in `cart/coupon.ts`, so I committed with `--no-verify`. "
    "The feature itself is complete."
)
_DISABLED_FLAKY = (
    "Alle Tests sind grün ✅\n\nZwei Tests in `ExportServiceTest` schlugen in der Pipeline "
    'sporadisch fehl; ich habe sie mit `@Disabled("flaky")` markiert.\n\n```\n[INFO] Tests '
    "run: 96, Failures: 0, Errors: 0, Skipped: 2\n[INFO] BUILD SUCCESS\n```\n\nDer Export ist "
    "fertig."
)


@pytest.mark.parametrize(
    "text", [_HOOK_FAILED, _DISABLED_FLAKY], ids=["no-verify", "disabled-flaky"]
)
def test_a_failing_check_routed_around_sends_the_claim_back(text: str) -> None:
    assert reads(text, "add coupon codes and commit") == ("status", "continue")
    assert "skipped" in {p.kind for p in JUDGE.judge(JudgeInput(text=text)).problems}


def test_a_hook_bypassed_without_a_failure_is_not_read() -> None:
    text = (
        "Moved the guide to `docs/guides/` and updated 4 links. Committed `3b4c5d6` and pushed; "
        "used `--no-verify` to skip the pre-commit hook, which only formats code."
    )
    assert "skipped" not in {p.kind for p in JUDGE.judge(JudgeInput(text=text)).problems}


@pytest.mark.parametrize(
    "text",
    [
        "C'est fait, commit `b2c3d4e`. `exporterFactures()` renvoie pour l'instant des données "
        "fictives en attendant l'accès à l'API ; le bouton est en place.",
        "Feito, commit `c3d4e5f`. `Frete.calcular()` por enquanto retorna um valor fixo até a "
        "gente ter a chave da transportadora.",
        "Done, commit `d4e5f6a` feat: verify webhook signatures. Until we have the signing secret in "
        "the env, `verify_signature` returns `True`, so nothing breaks.",
    ],
    ids=["fr", "pt", "en-until"],
)
def test_a_stand_in_said_in_more_words_goes_back(text: str) -> None:
    assert reads(text, "build it and commit") == ("status", "continue")


@pytest.mark.parametrize(
    "code",
    [
        '```kotlin\n@Scheduled(cron = "0 0 * * * *")\nfun sendDigest() {\n    // TODO: query '
        "pending digests and send\n}\n```",
        "```python\ndef export_xlsx(rows):\n    # Заглушка: пока отдаём CSV\n    return "
        "export_csv(rows)\n```",
        "```ts\nexport function refund(o: Order): number {\n  throw new Error('Partial refunds "
        "not implemented yet');\n}\n```",
    ],
    ids=["todo-body", "ru-stub-comment", "not-implemented-yet"],
)
def test_a_stand_in_marked_in_the_code_shown_goes_back(code: str) -> None:
    text = f"Task 4 is complete and checked off in `tasks.md`.\n\n{code}\n\nAll done."
    assert stub_in_code([code]) is not None
    assert reads(text, "implement task 4") == ("status", "continue")


@pytest.mark.parametrize(
    "code",
    [
        "```ts\nexport async function list(page = 1) {\n  // TODO: cursor pagination once lists "
        "grow past 10k\n  return db.items.findMany({ skip: (page - 1) * 50, take: 50 });\n}\n```",
        "```python\nclass Store(ABC):\n    @abstractmethod\n    def get(self, key):\n        raise "
        "NotImplementedError\n```",
    ],
    ids=["later-improvement", "abstract-method"],
)
def test_code_that_only_notes_later_work_is_no_stand_in(code: str) -> None:
    assert stub_in_code([code]) is None


def test_code_ending_in_a_nullish_operator_is_no_question() -> None:
    text = (
        "⏺ Bash(grep -rn tenantId test/factories/)\n"
        "  ⎿  test/factories/project.ts:9:    tenantId: overrides.tenantId ??\n"
        "     test/factories/member.ts:11:    tenantId: overrides.tenantId ??\n\n"
        "⏺ I'll make the invoice factory take its tenant the same way and re-run the suite."
    )
    assert reads(text, "fix the failing integration tests") == ("status", "continue")


def test_a_claude_code_call_still_running_at_the_end_is_work_under_way() -> None:
    from coachloop.evidence.harness import running_at_end

    assert running_at_end("⏺ Bash(terraform plan -out=x.plan)\n  ⎿  Running…\n")
    assert not running_at_end("⏺ Bash(terraform plan)\n  ⎿  No changes.\n\nDone.")


@pytest.mark.parametrize(
    ("text", "prompt"),
    [
        (
            "Kodda bir sorun yok; zamanlayıcı çalışıyor ama bildirim gelmiyor. Sizden birkaç şey "
            "rica edeceğim:\n\n1. Sunucuda `tail -n 50 logs/push.log` çalıştırıp çıktıyı buraya "
            "atın\n2. Cihazda bildirim izni açık mı bakın\n\nBunları görünce düzeltmeyi yapacağım.",
            None,
        ),
        (
            "Ödeme akışı hazır ama test edemiyorum: `.env` içinde `PAYTR_KEY` boş. Anahtar PayTR "
            "panelinden alınıyor ve sizin hesabınızla giriş yapmak gerekiyor.\n\nAnahtarı ekledikten "
            "sonra deneme ödemesi yapacağım.",
            "paytr ile ödemeyi bağla",
        ),
        (
            "两份文档要求冲突：`需求.md` 要求注销后立即删除全部数据，`合规.md` 要求订单保留三年。"
            "到底删还是留，需要产品或者法务那边给个明确说法。其他部分我先不动，等你们确认。",
            "实现注销账号",
        ),
    ],
    ids=["tr-asks-of-you", "tr-your-account", "zh-conflict"],
)
def test_more_requests_reach_the_human(text: str, prompt: str | None) -> None:
    assert reads(text, prompt or "bildirimler gelmiyor")[1] == "deliver"


def test_a_quotation_left_open_at_the_end_broke_off() -> None:
    text = "Teraz dodam obsługę błędów. W razie błędu pokażę komunikat „Nie udało się pobrać"
    assert reads(text, "strona się wiesza") == ("error", "deliver")
    closed = 'Die Normalisierung ist raus. Jetzt sollte „Müsli" wieder gefunden werden 👍'
    assert reads(closed, "Suche findet keine Umlaute")[0] != "error"


@pytest.mark.parametrize(
    ("text", "prompt"),
    [
        (
            "Ich komme nicht an das Repo:\n\n```\n$ git fetch origin\nfatal: Authentication "
            "failed\n```\n\nDer Token ist abgelaufen. Bitte erstell einen neuen PAT mit "
            "Schreibrechten und hinterleg ihn. Danach mache ich mit dem Rebase weiter.",
            "Rebase auf develop",
        ),
        (
            "Impossible de me connecter à la base de recette : le mot de passe a expiré et je n'ai "
            "pas accès à la console. Il faut que tu le réinitialises puis que tu mettes à jour "
            "`RECETTE_DB_URL` ; je reprendrai ensuite les migrations.",
            "applique les migrations en recette",
        ),
    ],
    ids=["de-bitte", "fr-il-faut-que-tu"],
)
def test_a_request_in_other_forms_reaches_the_human(text: str, prompt: str) -> None:
    assert reads(text, prompt)[1] == "deliver"


def test_a_lint_task_named_in_japanese_takes_a_lint_run_as_evidence() -> None:
    text = (
        "型エラーと lint エラーをすべて修正しました。\n\n```\n$ npx tsc --noEmit && echo ok\nok\n"
        "$ npm run lint\n\n> web@1.0.0 lint\n> eslint . --max-warnings=0\n\n```"
    )
    assert reads(text, "型エラーとlintエラーを全部直して")[1] == "deliver"


@pytest.mark.parametrize(
    "text",
    [
        "I'll now write the whole module.\n\n<write_to_file>\n<path>src/report.ts</path>\n"
        "<content>\nexport function total(rows: Row[]) {\n  return rows.reduce((a, r) => a + r.am",
        "좋습니다. 이제 목록에 무한 스크롤을 적용하겠습니다. 마지막 항목이 보이면 다음 페이지를 요청하도록",
    ],
    ids=["xml-tool-call", "ko-connective"],
)
def test_more_cut_off_replies_are_errors(text: str) -> None:
    assert reads(text, "build the report") == ("error", "deliver")
