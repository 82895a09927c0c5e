"""Blockers written in the other languages real agents use are typed as blockers.

The messages are written for this test (not taken from any benchmark): an agent that
cannot go on for want of access, credentials or a service, in Russian, Chinese,
Japanese, Portuguese and Polish; and the same words in work under way, which stays
work under way.
"""

from __future__ import annotations

import pytest

from coachloop.core.judge_input import JudgeInput
from coachloop.judge import make_judge

JUDGE = make_judge()

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
    verdict = JUDGE.judge(JudgeInput(text=text))
    assert (verdict.type, verdict.route) == ("blocker", "deliver")


@pytest.mark.parametrize("text", UNDER_WAY)
def test_blocker_words_in_work_under_way_do_not_make_a_blocker(text: str) -> None:
    verdict = JUDGE.judge(JudgeInput(text=text))
    assert (verdict.type, verdict.route) == ("status", "continue")
