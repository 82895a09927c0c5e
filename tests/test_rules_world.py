"""Blockers and plain requests in the other languages real agents use reach the human.

The messages are written for this test (not taken from any benchmark): an agent that
cannot go on for want of access, credentials or a service, in Russian, Chinese,
Japanese, Portuguese and Polish, and the same words in work under way, which stays
work under way; requests that wait on the human (paste the output, tell me once it ran,
which option), delivered whatever the scorer says.
"""

from __future__ import annotations

import pytest

from coachloop.core.judge_input import JudgeInput
from coachloop.judge import make_judge
from coachloop.judge.rules.classify import classify
from coachloop.judge.rules.features import Features
from coachloop.judge.rules.sure import sure_deliver
from coachloop.judge.rules.text import Message

JUDGE = make_judge()


def _reads(text: str, prompt: str | None = None) -> tuple[str, str]:
    """(type, route) of the offline judge's verdict."""
    verdict = JUDGE.judge(JudgeInput(text=text, prompt=prompt))
    return verdict.type, verdict.route


BLOCKERS = [
    "Не могу задеплоить: у сервисного аккаунта нет прав доступа к реестру образов. "
    "Нужен администратор проекта, чтобы выдать роль.",
    "无法推送到远程仓库：当前的访问令牌没有写入权限。需要您在 GitHub 设置里生成一个新的令牌。",
    "ステージング環境にログインできません。認証情報が期限切れのようです。"
    "新しいAPIキーを発行していただく必要があります。",
    "Não consigo rodar as migrações: o usuário do banco não tem permissão de escrita. "
    "Você precisa liberar o acesso no painel.",
    "Nie mogę opublikować paczki: brak uprawnień do organizacji w npm. "
    "Musisz dodać mnie jako maintainera.",
]
UNDER_WAY = [
    "Добавил проверку доступа в middleware и обновил тесты. Теперь запускаю полный прогон.",
    "已在中间件中添加权限检查，正在运行完整的测试。",
]


@pytest.mark.parametrize("text", BLOCKERS)
def test_a_blocker_in_another_language_reaches_the_human_as_one(text: str) -> None:
    assert _reads(text) == ("blocker", "deliver")


@pytest.mark.parametrize("text", UNDER_WAY)
def test_blocker_words_in_work_under_way_do_not_make_a_blocker(text: str) -> None:
    assert _reads(text) == ("status", "continue")


REQUESTS = [
    "Ich habe das Skript angepasst. Schick mir bitte die Ausgabe von `make check`, "
    "dann sehe ich weiter.",
    "He preparado el comando de migración. Avísame cuando lo hayas ejecutado en producción.",
    "运行 `npm run build` 之后，把输出贴给我，我再看是哪一步出错了。",
    "Я подготовил скрипт миграции. Как только вы запустите его на сервере, сообщите, "
    "когда он закончит.",
    "Przygotowałem dwie wersje konfiguracji. Którą opcję wybierasz: A czy B",
]


@pytest.mark.parametrize("text", REQUESTS)
def test_a_plain_request_in_another_language_reaches_the_human(text: str) -> None:
    # delivered whatever the scorer says: a sure delivery (`sure.sure_deliver`)
    features = Features(Message(text))
    assert sure_deliver(features, classify(features, "fix the build", None)) == "question"
    assert _reads(text, "fix the build") == ("question", "deliver")


# A closing question in another language is read as in English: an offer of more work
# after a claim does not make the message a question (the claim is judged), a choice
# or an offer with nothing claimed does; a full-width question mark ends a question.
CLOSINGS = [
    (
        "已修复登录页的空指针问题，提交 3f2a9c1。\n\n```\n$ pytest -q\n42 passed in 1.31s\n```\n\n"
        "需要我顺便更新文档吗？",
        "completion",
    ),
    ("已完成修改，应该可以正常工作了。需要我再做其他调整吗？", "status"),
    (
        "Исправил обработку таймаутов, должно работать. Хотите, я добавлю ещё и логирование?",
        "status",
    ),
    ("缓存要用 Redis 还是 Memcached？两种我都可以接。", "question"),
    ("我已经分析了原因：连接池在重试时没有释放连接。需要我直接修改吗？", "question"),
]


@pytest.mark.parametrize(("text", "expected"), CLOSINGS)
def test_a_closing_question_in_another_language_reads_as_in_english(
    text: str, expected: str
) -> None:
    assert JUDGE.judge(JudgeInput(text=text, prompt="fix it")).type == expected


# Verification claimed in words and not shown sends the claim back, as in English; the
# same claim beside the test run's output is a completion.
ASSERTED = [
    "Исправил расчёт скидки в корзине. Все тесты проходят, работает корректно.",
    "修复了购物车的折扣计算，所有测试都通过了，运行正常。",
    "Corrigi o cálculo do desconto no carrinho. Todos os testes passam e funciona perfeitamente.",
    "カートの割引計算を修正しました。テストはすべて通りました。",
]


@pytest.mark.parametrize("text", ASSERTED)
def test_verification_asserted_in_another_language_is_not_taken_on_trust(text: str) -> None:
    verdict = JUDGE.judge(JudgeInput(text=text, prompt="fix the discount bug"))
    assert (verdict.type, verdict.route) == ("status", "continue")
    assert [p.kind for p in verdict.problems] == ["unverified"]


def test_verification_shown_beside_the_claim_is_a_completion() -> None:
    text = (
        "Исправил расчёт скидки в корзине.\n\n```\n$ pytest -q\n58 passed in 2.10s\n```\n\n"
        "Все тесты проходят."
    )
    assert _reads(text, "fix the discount bug") == ("completion", "deliver")


ERRORS = [
    "Ошибка: не удалось получить ответ от модели, соединение сброшено.",
    "错误：请求超时，模型没有返回任何内容。",
    "Произошла ошибка при обработке запроса. Повторите попытку позже.",
    "エラーが発生しました。しばらくしてからもう一度お試しください。",
    "Ocorreu um erro ao processar sua solicitação. Tente novamente mais tarde.",
]


@pytest.mark.parametrize("text", ERRORS)
def test_the_run_failing_in_another_language_is_an_error(text: str) -> None:
    assert _reads(text) == ("error", "deliver")


# Docs work: the written document's path is its evidence (the README's labelling rule),
# whatever language names the report.
DOCS = [
    (
        "회의 결과를 요약 문서로 정리해 `docs/meeting-notes.md`에 저장했습니다.",
        "정리된 문서로 만들어줘",
    ),
    ("Подготовил отчёт по нагрузочному тесту: docs/load-test-report.md.", "напиши отчёт"),
    ("已将调研结果整理成文档，保存在 `docs/research/summary.md`。", "把结果整理成文档"),
]


@pytest.mark.parametrize(("text", "prompt"), DOCS)
def test_a_document_written_in_another_language_is_a_completion(text: str, prompt: str) -> None:
    assert _reads(text, prompt) == ("completion", "deliver")


# A hedged claim in another language goes back as in English ("should work now").
HEDGED = [
    "我修改了缓存逻辑，现在应该可以正常工作了。",
    "キャッシュのロジックを修正しました。これで動くはずです。",
    "Поправил логику кэша, теперь должно работать.",
    "Ajustei a lógica do cache, agora deve funcionar.",
    "Ho sistemato la logica della cache, ora dovrebbe funzionare.",
    "Önbellek mantığını düzelttim, artık çalışması gerekir.",
    "Poprawiłem logikę cache, teraz powinno działać.",
]


@pytest.mark.parametrize("text", HEDGED)
def test_a_hedged_claim_in_another_language_goes_back(text: str) -> None:
    assert _reads(text, "fix the login timeout") == ("status", "continue")


def test_no_language_of_a_base_lexicon_is_replaced_by_its_world_part() -> None:
    # `lexicon/__init__.py` merges each base lexicon with its world part by language key:
    # a key in both would silently drop the base's patterns for that language
    import re
    from pathlib import Path

    from coachloop.judge.rules import lexicon

    source = Path(lexicon.__file__).read_text(encoding="utf-8")
    merges = re.findall(r"(\w+): Lexicon = \{\*\*(\w+)\.(\w+), \*\*(\w+)\.(\w+)\}", source)
    assert len(merges) >= 9
    for name, base_mod, base, world_mod, world in merges:
        a = getattr(getattr(lexicon, base_mod), base)
        b = getattr(getattr(lexicon, world_mod), world)
        assert not set(a) & set(b), (name, set(a) & set(b))
