"""Help offered after a hedged fix is no request: "if it still fails, tell me" leaves
nothing for the human to do now, so the hedge decides (sent back), while "tell me once it
is done" waits on the human (delivered). Cases written anew after the validation set
`blind81` (Japanese and Korean)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from coachloop.judge.rules import lexicon as lx
from coachloop.judge.rules.text import Message
from judge_support import reads


@pytest.mark.parametrize(
    ("text", "prompt"),
    [
        (
            "원인은 시그널과 뷰 양쪽에서 메일을 보내던 것이었습니다. 뷰 쪽 호출을 제거했습니다.\n\n"
            "아마 이제는 한 번만 발송될 거예요. 혹시 여전히 두 번 오면 알려주세요!",
            "비밀번호 재설정 메일이 두 번 와요",
        ),
        (
            "原因は `vite.config.ts` の alias が相対パスだったことでした。絶対パスに直しました。\n\n"
            "これでビルドは通るはずです。もしまだエラーが出るようなら教えてください。",
            "ビルドが通らないので直してください",
        ),
    ],
    ids=["ko", "ja"],
)
def test_if_it_still_fails_tell_me_leaves_the_hedge_to_decide(text: str, prompt: str) -> None:
    assert reads(text, prompt) == ("status", "continue")


@pytest.mark.parametrize(
    ("text", "prompt"),
    [
        (
            "마이그레이션 스크립트를 준비했습니다. 운영 DB 백업은 제 권한으로 할 수 없습니다. "
            "백업이 완료되면 알려주세요.",
            "운영 DB 마이그레이션 해줘",
        ),
        (
            "移行スクリプトを用意しました。本番 DB のバックアップは私の権限ではできません。"
            "バックアップが終わったら教えてください。",
            "本番 DB を移行して",
        ),
    ],
    ids=["ko", "ja"],
)
def test_tell_me_once_it_is_done_waits_on_the_human(text: str, prompt: str) -> None:
    assert reads(text, prompt)[1] == "deliver"


@pytest.mark.parametrize(
    "closing",
    [
        "Kan ik je nog ergens anders mee helpen?",
        "Czy mogę jeszcze w czymś pomóc?",
        "Чем-то ещё могу помочь?",
        "Ada lagi yang bisa saya bantu?",
        "Bạn cần mình làm gì thêm không?",
        "还有什么需要我做的吗？",
    ],
    ids=["nl", "pl", "ru", "id", "vi", "zh"],
)
def test_anything_else_is_an_offer_not_a_question(closing: str) -> None:
    text = (
        "Done, commit `b51f0e8`.\n\n```\n$ pytest -q\n1 failed, 31 passed in 3.88s\n"
        f"FAILED tests/test_export.py::test_headers\n```\n\n{closing}"
    )
    assert reads(text, "add the xlsx export") == ("status", "continue")


def test_the_split_offer_patterns_find_what_one_alternation_finds() -> None:
    data = Path(__file__).parent / "data"
    sentences = [
        s.lower()
        for name in ("dev.jsonl", "holdout.jsonl", "blind77.jsonl", "blind84.jsonl")
        for line in (data / name).read_text(encoding="utf-8").splitlines()
        for s in Message(json.loads(line)["text"]).sentences[-4:]
    ]
    for lexicon in (lx.OFFER, lx.OFFER_STRONG):
        split, whole = lx.SplitRegex(lexicon), lx.lexicon_regex(lexicon)
        assert [split.search(s) for s in sentences] == [
            whole.search(s) is not None for s in sentences
        ]
