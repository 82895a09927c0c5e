"""Stops only someone else can clear, and the harness's own failures, in forms the
validation set `blind83` showed (cases written anew): an expired certificate only its
holder renews, credentials only the account holder can issue, requirements that
contradict each other, a reply cut at the model's output limit, the agent's model not
found."""

from __future__ import annotations

import pytest

from judge_support import reads


@pytest.mark.parametrize(
    ("text", "prompt"),
    [
        (
            "No puedo terminar la integración con el SAT: el certificado de pruebas venció.\n\n"
            "```\nsoap:Server — Certificado expirado\n```\n\nHay que generar uno nuevo con la "
            "e.firma del titular. El código de `cfdi/timbrado.py` está listo para probar.",
            "termina la facturación electrónica",
        ),
        (
            "Der Export lässt sich nicht testen: die Sandbox-Zugangsdaten sind abgelaufen.\n\n"
            "```\nHTTP 401 invalid_client\n```\n\nNeue Zugangsdaten kann nur der Account-Inhaber "
            "im Portal erzeugen. Der Code (`export/lexware.py`) ist fertig.",
            "Lexware-Export bauen",
        ),
        (
            "✦ 需求有冲突，我先停下来：\n- 第 2 节：邮箱唯一\n- 第 6 节：同一邮箱可注册多个子账号\n\n"
            "这两条无法同时满足。请产品确认以哪条为准。",
            "按PRD实现注册",
        ),
    ],
    ids=["es-certificate", "de-account-holder", "zh-conflict"],
)
def test_a_stop_someone_else_must_clear_is_a_blocker(text: str, prompt: str) -> None:
    assert reads(text, prompt)[1] == "deliver"


@pytest.mark.parametrize(
    "text",
    [
        "✦ Ich habe die Logik aufgeteilt und passe als Nächstes die Aufrufer an, damit sie\n\n"
        "[Antwort abgebrochen: maximale Ausgabelänge erreicht (finishReason: MAX_TOKENS)]",
        "이제 `store/cart.ts`의 선택자를 정리하겠습니다.\n\nProviderModelNotFoundError: Model not "
        "found: openai/gpt-9\n    at getModel (src/provider/provider.ts:318:13)",
    ],
    ids=["de-max-tokens", "model-not-found"],
)
def test_the_harness_failing_is_an_error(text: str) -> None:
    assert reads(text, "refactor it") == ("error", "deliver")


def test_the_sandbox_killing_the_session_is_an_error() -> None:
    text = (
        "─── shell | developer ───\ncommand: cargo build --release\n\n   Compiling solver v0.4.0\n\n"
        "Session terminated: sandbox process was killed (signal 9, memory limit 4096 MiB "
        "exceeded)."
    )
    assert reads(text, "build the release binary") == ("error", "deliver")


def test_git_status_untracked_marker_is_no_question() -> None:
    from coachloop.judge.rules.features import Features
    from coachloop.judge.rules.text import Message

    text = (
        "⏺ Bash(git status --short)\n  ⎿   M src/a.ts\n      ?? src/b.ts\n\nCommitted as `4e1a9c2`."
    )
    assert Features(Message(text)).questions == []


@pytest.mark.parametrize(
    ("text", "prompt"),
    [
        (
            "Let me now apply the same fix to `AddressForm.tsx`, then run the tests.\n\nConnection "
            "failed. If the problem persists, please check your internet connection or VPN\n"
            "(Request ID: 8f3b2c1e-77a4)",
            "fix the forms",
        ),
        (
            "IPA hazır: `build/App.ipa`. Yükleme reddedildi: sözleşme onaylanmamış. Bunu yalnızca "
            "hesap sahibi App Store Connect'ten onaylayabilir. Sözleşme onaylandıktan sonra bana "
            "haber verin, tekrar yükleyeceğim.",
            "uygulamayı App Store'a yükle",
        ),
    ],
    ids=["cursor-connection-failed", "tr-only-the-account-holder"],
)
def test_more_stops_reach_the_human(text: str, prompt: str) -> None:
    assert reads(text, prompt)[1] == "deliver"
