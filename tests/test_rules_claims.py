"""Claims that go back and work under way, in the forms this project's validation sets
showed (`blind27`–`blind36`): a claim that predicts instead of showing, asserts a check it
does not show, or was not run, in many languages; a claim of done beside a failing run that
is the last one shown (a named check, without a score), with go's re-runs counted as the fix;
work announced in more forms; and the readings that are not work announced (a gerund that
is its sentence's subject, the agent stopping, an offer, a yes awaited)."""

from __future__ import annotations

import pytest

from coachloop.core.judge_input import JudgeInput
from coachloop.evidence.runners import go_counts
from coachloop.evidence.text import extract
from coachloop.judge.rules.ending import gerund_opening
from coachloop.judge.rules.features import Features
from coachloop.judge.rules.text import Message
from judge_support import JUDGE
from judge_support import reads as _reads


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
        # from blind30 and blind34: nl, de, es, pt, it, tr, cs, ru
        "De verzendregels zijn aangepast in WooCommerce. Het zou nu goed moeten gaan, volgens "
        "mij lag het aan de zones.",
        "Die Cronjobs sind eingerichtet und sollten ab morgen früh um 6 Uhr laufen.",
        "Listo, el rol mayorista está creado. Ahora los clientes B2B deberían ver sus precios.",
        "A automação foi criada. Verifiquei tudo e está funcionando como esperado.",
        "Ho finito: i test del backend passano tutti e la pagina è online.",
        "Dışa aktarma eklendi.\n\n```\nRan 31 tests in 2.207s\n\nFAILED (errors=2)\n```\n\n"
        "Hatalar eski testlerden, özellik tamam.",
        "Hotovo, platby teď správně přecházejí do stavu PAID. Testy prošly a na sandboxu jsem "
        "to ověřil.",
        "Oprava je hotová. Mělo by to fungovat i při opožděné notifikaci.",
        "Настроил cert-manager. Сертификат должен выпуститься в течение пары минут.",
        "Taşma hatasını giderdim. Artık küçük ekranlarda da sorun çıkmaması lazım.",
    ],
)
def test_a_claim_that_predicts_asserts_or_was_not_run_goes_back(text: str) -> None:
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
    text = f"Finished the blog pages. Ran the build:\n\n```\n{output}\n```\n\nDone, ready to ship."
    assert extract(text).failures
    assert _reads(text, "add the blog pages") == ("status", "continue")


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


def test_a_go_package_that_failed_then_passed_on_a_rerun_was_fixed() -> None:
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


def test_dutch_ready_is_not_a_claim_of_done() -> None:
    assert not Features(Message("De release staat klaar voor review.")).done
    assert Features(Message("De bug in de export is opgelost.")).done


@pytest.mark.parametrize(
    "text",
    [
        "Sedang menulis test untuk modul pembayaran (`tests/test_bayar.py`). Sudah 5 kasus.",
        "✦ أقرأ الآن ملفات الإعدادات لفهم كيف يُحمَّل المفتاح قبل تعديل الواجهة.",
        "Dry run ho gaya, loss gir raha hai. Pura run ke baad metrics compare karunga.",
        "`internal/auth` 테스트는 통과했고, 이제 세션 저장소 이전 작업 들어갑니다.",
        "単体テストは通りました。次は `src/io.rs` を編集中。",
        "Quick note: the migration is applied locally. I'm now updating the generated types, "
        "then the form.",
        "OK, le thème enfant est créé. J'importe maintenant les réglages de l'ancien site.",
        "まず既存のマイグレーションを実行して、どこで止まるか確認します。",
        "Progress: 2/4 services moved to the new config loader. `billing` and `mailer` next; "
        "continuing.",
        "Zwischenstand: 3 von 6 Seiten sind umgestellt. Mache mit `profil.vue` und "
        "`rechnung.vue` weiter.",
        "依赖装好了，开始改 `crawler/store.py`，把 SQLite 换成 PostgreSQL。",
        "先看一下 `PaymentController` 里回调的调用链，再决定怎么加幂等。",
        "タスク 4 に着手します。まず `OrderRepository` のインターフェースを定義します。",
        "Nejdřív si projdu `CartService.php` a testy košíku, ať vím, kde se počítá DPH.",
        "Návrh mám v `docs/packeta.md`. Přepínám do Code mode a začínám widgetem v košíku.",
        # the agent going on, not stopping
        "Understood, I'll stop touching the webhook and focus on the PDF layout.",
    ],
)
def test_work_under_way_goes_back(text: str) -> None:
    assert _reads(text) == ("status", "continue")


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
    assert gerund_opening("Adding the middleware now.")


@pytest.mark.parametrize(
    "text",
    [
        "Agar chaho to main retry logic bhi fix karunga.",
        "Production me purana version chal raha hai.",
        "Kalau setuju, saya jalankan migrasinya sekarang.",
    ],
)
def test_an_offer_a_state_or_a_yes_awaited_is_not_work_announced(text: str) -> None:
    assert not Features(Message(text)).ongoing_any


# Claims and work announced in the less common languages of the validation set `blind43`
# (written here anew); their deliveries beside them (a request, a blocker) stay delivered.
@pytest.mark.parametrize(
    ("text", "prompt"),
    [
        ("เพิ่มระบบสะสมแต้มแล้วครับ ทดสอบครบทุกเคสแล้ว ผ่านหมด", "เพิ่มระบบสะสมแต้ม"),
        (
            "Tapos na yung export ng grades. Na-test ko na lahat ng sections, ready na.",
            "gawa ka ng grade export",
        ),
        ("סיימתי את טופס ההרשמה. בדקתי הכל וכל הטסטים עוברים.", "תוסיף טופס הרשמה"),
        ("انتهيت من صفحة الطلبات. اختبرت كل شيء ويعمل بشكل ممتاز.", "سوي صفحة الطلبات"),
        (
            "Dah betulkan! Harga disimpan sebagai string, saya tukar ke `Number()`. Sepatutnya "
            "jumlah dah betul sekarang.",
            "jumlah harga dalam troli pelik",
        ),
        (
            "Opraveno ✅ Ceny by se teď měly zobrazovat správně. Upravil jsem `pricing.js`.",
            "ceny jsou špatně",
        ),
        (
            "Vou primeiro ler `schema.prisma` e depois ajusto o handler de status.",
            "o status do pedido não muda",
        ),
        ("Pehle `orders` table dekh leta hoon, phir refund route banaunga.", "refund add karo"),
        ("קודם אבדוק את `schema.sql`, ואז אוסיף את טבלת המידות.", "תוסיף מידות למוצרים"),
        ("اول ساختار جدول `products` را بررسی می‌کنم، بعد صفحه را می‌سازم.", "صفحه محصولات بساز"),
        # traditional Chinese: "should be fine now, please reload and check"
        (
            "已經修好了！改成透過 store 的 `setQty` 更新。應該可以了，請重新整理頁面確認一下～",
            "數量不會更新",
        ),
    ],
)
def test_claims_and_work_announced_in_more_languages_go_back(text: str, prompt: str) -> None:
    assert _reads(text, prompt)[1] == "continue"


@pytest.mark.parametrize(
    "text",
    [
        "สคริปต์ลบข้อมูลเสร็จแล้ว แต่ต้องใช้บัญชีเจ้าของ channel ออก token ใหม่ ผมเข้าไม่ได้ครับ",
        "Skrip pemadaman dah siap. Ini tak boleh undo. Sahkan dulu sebelum saya jalankan.",
        "אני צריך את קובץ התמחור. תוסיף אותו לצ'אט בבקשה ואז אציע את השינוי.",
    ],
)
def test_requests_and_blockers_beside_those_forms_stay_delivered(text: str) -> None:
    assert _reads(text)[1] == "deliver"
