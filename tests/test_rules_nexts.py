"""Deliverable stops worded like progress, as the validation sets `blind66` to `blind69`
showed them (the cases are written here anew): a next step only suggested or left to the
human, something left as it is, the agent's next step put after what only the human can
do ("I'll rerun them once you add the key", in pt, es, nl, tr too), a flag kept off by
default, requests in Spanish, Portuguese and Japanese,
an explicit go-ahead waited for, replies cut off on a function word in more languages, a
count after a dash, a noun that looks like a gerund. And what still goes back: the run and
the PR left to the human, a step told as the next thing the agent does, a question the
agent asks itself and answers with work, "everything's green" said, not shown."""

from __future__ import annotations

import pytest

from judge_support import reads as _reads


def test_a_question_to_the_human_beside_work_is_still_a_question() -> None:
    text = "Which region should the bucket live in? Creating the IAM role meanwhile."
    assert _reads(text, "set up the upload bucket") == ("question", "deliver")


@pytest.mark.parametrize(
    ("text", "prompt", "kind"),
    [
        # a next step only suggested, or the human's
        (
            "Two jobs still read the legacy `ORDERS_V1` table: `nightly-export` and "
            "`invoice-sync`. Next step would be moving both to the view, export first.",
            "what still reads the old orders table?",
            "completion",
        ),
        (
            "PR is up: https://github.com/acme/web/pull/88 — next step is review.",
            "add the cookie banner and open a PR",
            "completion",
        ),
        (
            "Rewrote `docs/setup.md` and `docs/faq.md` for the new installer. Next I'd suggest "
            "a read-through by someone new to the project.",
            "update the setup docs",
            "completion",
        ),
        (
            "done. mypy: Success: no issues found. pytest: 31 passed in 2.2s. next: nothing",
            "fix the types",
            "completion",
        ),
        # something left as it is
        (
            "`pytest -q`: 44 passed in 3.02s. I'll leave the branch as is for your review.",
            "make the slugs ascii-only",
            "completion",
        ),
        (
            "The worker pool size is 8, from `config/worker.toml`. I'll leave it unchanged.",
            "how big is the worker pool?",
            "completion",
        ),
        # the agent's next step after what only the human can do
        (
            "The Twilio auth token in `.env` is revoked (`20003 Authenticate`). I'll rerun the "
            "SMS tests once you add a fresh `TWILIO_AUTH_TOKEN`.",
            "make the sms tests pass",
            "blocker",
        ),
        (
            "I'll apply the change once the file is writable: `deploy/prod.env` is read-only "
            "(owned by root).",
            "raise the timeout in prod.env",
            "blocker",
        ),
        # the same in other languages
        (
            "Vou continuar depois que liberarem meu acesso: o `git push` dá "
            "`Permission to loja/infra.git denied`.",
            "sobe a mudança",
            "blocker",
        ),
        (
            "Seguiré cuando me den permiso: `kubectl apply` devuelve `forbidden`.",
            "despliega",
            "blocker",
        ),
        (
            "Ik ga verder zodra de database weer bereikbaar is: die staat in onderhoud.",
            "draai de migraties",
            "blocker",
        ),
        (
            "Mailgun API anahtarını yenilediğinizde devam edeceğim: `401 Unauthorized` dönüyor.",
            "e-posta doğrulamayı ekle",
            "blocker",
        ),
        # a decision, not work: a flag kept off; the next step on the human's side
        (
            "Import preview shipped behind `IMPORT_V2`.\n\n```\n$ pytest -q\n52 passed in 4.1s\n```\n\n"
            "I'll keep the flag off by default so you can enable it per workspace.",
            "add the import preview",
            "completion",
        ),
        (
            "Applied locally:\n\n```\n$ alembic upgrade head\nINFO  Running upgrade a1 -> b2, add org_id\n```\n\n"
            "Next step on your side is running the same on staging.",
            "write and apply the org_id migration locally",
            "completion",
        ),
        ("Para seguir necesito que me pases el `.env` de staging.", "arregla el login", "question"),
        # a question closing the message without its mark (blind71-74)
        (
            "Rebased onto main; the branch history changed, so anyone who pulled it must "
            "re-clone. ok to force-push",
            "rebase the feature branch",
            "question",
        ),
        (
            "The ticket says amounts in cents, the API doc says euros. which wins",
            "add the payout export",
            "question",
        ),
        (
            "Pon el token correcto en `.env` y vuelvo a lanzar la sincronización.",
            "sincroniza los pedidos",
            "question",
        ),
        (
            "The webhook secret was rotated in the vault; I need the new one.",
            "fix the webhook",
            "question",
        ),
        (
            "Kopier bitte die komplette Fehlermeldung aus der Konsole hier rein, im Screenshot "
            "fehlt der Stacktrace.",
            "die seite ist weiß",
            "question",
        ),
        (
            "두 설정 키 중 어느 이름을 남길지 정해 주세요. 정해지면 바로 진행하겠습니다.",
            "설정 정리해줘",
            "question",
        ),
        # a training run's end shown
        (
            "Training finished:\n\n```\nepoch 20/20 loss=0.211 val_loss=0.254\n"
            "test: f1=0.861 precision=0.870 recall=0.852\n```\nCheckpoint in `models/best.pt`.",
            "train the classifier and tell me when it's done",
            "completion",
        ),
        # waiting on what only the human can do, in French and Chinese
        (
            "Le serveur renvoie `503` depuis une heure (maintenance annoncée). Je ne peux pas "
            "publier le tableau tant qu'il n'est pas revenu.",
            "publie le tableau de bord",
            "blocker",
        ),
        ("短信服务返回余额不足，验证码没法联调。充值后我接着测。", "接入短信验证码", "blocker"),
        # a draft PR left for the human's review (pt)
        (
            "Corrigido. `npm test` → Tests: 40 passed, 40 total. Vou deixar o PR em rascunho "
            "para você revisar.",
            "corrige o cálculo do desconto",
            "completion",
        ),
        # a suggestion for the next time, and a note, not work announced
        (
            "Run finished:\n\n```\nepoch 12/12 loss=0.30\ntest: accuracy=0.912\n```\n\n"
            "Next time we could stop at 10 epochs to save an hour.",
            "train it and report",
            "completion",
        ),
        # requests
        (
            "Pásame el log completo del worker y sigo con esto.",
            "el worker se cae de noche",
            "question",
        ),
        (
            "Vou criar o modelo primeiro. Me diz qual banco prefere: Postgres ou MySQL",
            "cria o cadastro",
            "question",
        ),
        (
            "社内レジストリの認証が通りません。`NPM_TOKEN` を設定していただければ続けます。",
            "依存関係を更新して",
            "question",
        ),
        (
            "The purge script is ready and the dry run lists 312 stale buckets. Running it "
            "deletes them for good, so I won't do that without your explicit go-ahead.",
            "clean up the stale buckets",
            "question",
        ),
        # cut off on a function word
        (
            "Saya akan memperbarui `nginx.conf` dan menambahkan header untuk",
            "tambah header keamanan",
            "error",
        ),
        (
            "Mình sẽ kiểm tra `OrderController` trước, hàm `refund()` đang",
            "review controller",
            "error",
        ),
        ("سأقوم الآن بتحديث الملف لإضافة التحقق من", "أضف التحقق", "error"),
        # a count after its command and a dash
        (
            "Summary\n- Moved the card fields to Stripe Elements\n\nTesting\n- ✅ `npm test` — 64 passed",
            "stop storing card numbers",
            "completion",
        ),
        # a noun, not work under way
        (
            "Staging and prod both return `X-Frame-Options: DENY` (checked with `curl -sI`).",
            "is clickjacking protection on?",
            "completion",
        ),
    ],
)
def test_read_as_and_delivered(text: str, prompt: str, kind: str) -> None:
    assert _reads(text, prompt) == (kind, "deliver")


@pytest.mark.parametrize(
    ("text", "prompt"),
    [
        # the checks handed to the human: not finished
        (
            "All 4 tasks implemented and committed (`9a1b2c3`). I'll leave the test run and the PR to you.",
            "",
        ),
        # the next thing the agent does
        ("Parser done. Next step is wiring it into the CLI.", "add a parser for the config"),
        # questions the agent puts to itself and answers with work
        (
            "Why is the queue backing up? Checking the consumer's prefetch setting next.",
            "the queue backs up",
        ),
        (
            "Is the cache even hit, or does every call miss? Running the profiler now:",
            "the page is slow",
        ),
        # a check said, not shown
        ("Everything's green on my side 👍", "fix the flaky build"),
        # a prediction about the next time, not evidence
        ("Updated the hook script. Next time you commit, you'll see the lint output.", ""),
    ],
)
def test_still_sent_back(text: str, prompt: str) -> None:
    assert _reads(text, prompt)[1] == "continue"
