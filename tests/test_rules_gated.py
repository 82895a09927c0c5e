"""Stops whose next step waits on the human, in the forms a validation set showed
(`blind21`): a plan whose first phase starts "as soon as you approve", in the languages
real agents write in; an answer asked for in inline code ("Reply `y` to run both"); a
step only an account holder can take, or a console setting that needs billing, before
the work goes on. And two readings that sent answers back: a place named ("the bug is
in the parser") is not a claim of done; "looking at it now" is work under way."""

from __future__ import annotations

import pytest

from coachloop.judge.rules.features import Features
from coachloop.judge.rules.text import Message
from judge_support import reads as _reads

_PLAN = (
    "## Plan\n\n1. Add a `NotificationPort` interface.\n2. Move the email sender behind it.\n"
    "3. Add the SMS worker.\n\nI've only read the code so far. "
)


@pytest.mark.parametrize(
    "ending",
    [
        "I'll start phase 1 as soon as you approve this split.",
        "Je lance la phase 1 dès que tu valides ce découpage.",
        "Je commence la phase 1 une fois que vous aurez validé le plan.",
        "Sobald du den Plan freigibst, fange ich mit Phase 1 an.",
        "En cuanto me des el visto bueno, empiezo con la fase 1.",
        "Assim que você aprovar, começo a fase 1.",
        "Appena confermi, parto con la fase 1.",
        "Как только подтвердишь, начну с первого этапа.",
        "Jak tylko zatwierdzisz, zacznę od etapu 1.",
        "Onay verirsen 1. aşamadan başlıyorum.",
        "Bạn duyệt xong thì mình bắt đầu giai đoạn 1.",
        "Setelah kamu setujui, saya mulai tahap 1.",
        "Tolong konfirmasi dulu, baru saya jalankan skripnya.",
        "确认后我就开始第一阶段。",
        "承認いただければフェーズ1から始めます。",
        "Aap approve kar do to main phase 1 shuru karta hoon.",
        'Reply "y" to run both commands, or `1` to run only the first.',
        "Reply `y` to run both commands.",
    ],
)
def test_a_next_step_gated_on_the_humans_approval_is_a_question(ending: str) -> None:
    assert _reads(_PLAN + ending, "Split out the notification service") == (
        "question",
        "deliver",
    )


def test_a_code_in_prose_is_not_an_answer_asked_for() -> None:
    text = "Added the lookup. The API will respond with code 404 when the user is missing."
    assert _reads(text)[1] != "question"


@pytest.mark.parametrize(
    "text",
    [
        "The upload failed:\n\n```\nerror: exportArchive: PLA Update available\n```\n\nThe "
        "updated agreement has to be accepted by the account holder of the team. Once it is, "
        "rerun `fastlane beta`.",
        "The geocoding call returns REQUEST_DENIED: the key's Cloud project doesn't have the "
        "API enabled, and enabling it requires billing on the project. After that the search "
        "should start returning results; the code side is in place.",
    ],
)
def test_a_step_only_someone_else_can_take_is_a_blocker(text: str) -> None:
    assert _reads(text, "Get the upload working") == ("blocker", "deliver")


def test_a_place_named_is_not_a_claim_of_done() -> None:
    assert not Features(Message("The slow part is in `ci.yml`: the cache is never restored.")).done
    assert Features(Message("The fix is in. Reloading the page shows the new total.")).done


def test_looking_at_it_now_is_work_under_way() -> None:
    f = Features(
        Message("Down to 2 failures (41 passed). I haven't touched it yet; looking at it now.")
    )
    assert f.ongoing_tail


@pytest.mark.parametrize(
    "text",
    [
        "The install fails on the registry's side:\n\n```\nnpm ERR! 503 Service Unavailable\n```"
        "\n\nThere's nothing I can change on our side; the lockfile is fine.",
        "Wysyłka nie działa: serwer zwraca `503 Service Unavailable`, trwa przerwa techniczna "
        "środowiska testowego. Po naszej stronie nic więcej nie zrobię, trzeba poczekać.",
        "上传成功，但刷新 CDN 失败：`Forbidden.RAM`。当前用户没有刷新权限，需要主账号管理员在控制台授权。",
        "El informe a las 00:00 y la importación de las 02:30 se contradicen: no puedo cambiar "
        "el horario del ERP desde aquí.",
    ],
)
def test_an_outside_party_the_work_waits_for_is_a_blocker(text: str) -> None:
    assert _reads(text, "Deploy the release") == ("blocker", "deliver")
