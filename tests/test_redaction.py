"""The one redaction: every catalogued secret format hidden, ordinary text left alone."""

from __future__ import annotations

import pytest

from coachloop import redaction
from coachloop.redaction import REDACTED, printable, redact, redact_value

EXAMPLES = [(fmt.name, ex) for fmt in redaction.CATALOGUE for ex in fmt.examples]

# The 17 formats of issue 13 (the redactor before it missed 11 of them), each with the
# part that must not survive.
ISSUE_FORMATS = [
    ("sk-ant-api03-AbCdEf12_34-xyzXYZ", "AbCdEf12_34"),
    ("sk-proj-Abc123Def456Ghi789Jkl0", "Abc123Def456"),
    ("ghp_aBcD1234EfGh5678IjKl9012MnOp3456QrSt", "aBcD1234EfGh"),
    ("github_pat_11ABCDEFG0abcdefghij_Zz9Yx8Wv7", "11ABCDEFG0abc"),
    ("AKIAIOSFODNN7EXAMPLE", "IOSFODNN7"),
    ("ASIAY34FZKBOKMUTVV7A", "Y34FZKBOKM"),
    ("aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "wJalrXUtnFEMI"),
    ("xoxb-123456789012-1234567890123-AbCdEfGhIjKl", "1234567890123-AbC"),
    ("sk_live_4eC39HqLyjWDarjtT1zdp7dc", "4eC39HqLyjW"),
    ("glpat-xY7zAbCdEf12GhIjKl34", "xY7zAbCdEf12"),
    ("AIzaSyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStUvW", "SyA1b2C3d4E5"),
    ("eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N", "dozjgNryP4J3"),
    (
        "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA7x\n-----END RSA PRIVATE KEY-----",
        "MIIEpA",
    ),
    ("password: hunter2!", "hunter2"),
    ("postgres://app:s3cretPass@db.example.com:5432/app", "s3cretPass"),
    ("123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw", "AAHdqTcvCH1v"),
    ("Authorization: Bearer abcdefgh.ijklmnop-qrst", "abcdefgh.ijkl"),
]

ORDINARY = [
    "I ran the tests: 42 passed in 1.2s. Committed 3f2a9c1.",
    "max_tokens = 4096",
    "key = cache_key",
    "token = settings.api_token",
    'llm_api_key_env = "AWS_SECRET_ACCESS_KEY"',
    "password: required",
    "TOKEN=$TOKEN and API_KEY=${API_KEY}",
    "the password field is required; see docs at https://example.com/a:b",
    "ask them for their sk-ant- key",
    "secret = None",
    "Asia is large; skills are data.",
    "def f(token: str) -> str: return token",
]


@pytest.mark.parametrize(("name", "example"), EXAMPLES)
def test_every_catalogued_example_is_redacted(name: str, example: str) -> None:
    out = redact(example)
    assert REDACTED in out, name
    assert redact(out) == out  # idempotent


@pytest.mark.parametrize(("text", "secret"), ISSUE_FORMATS)
def test_the_seventeen_formats_of_the_issue(text: str, secret: str) -> None:
    out = redact(f"the agent printed {text} in its answer")
    assert secret not in out
    assert out.startswith("the agent printed ") and out.endswith(" in its answer")


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_text_is_left_alone(text: str) -> None:
    assert redact(text) == text


def test_the_name_before_a_secret_is_kept() -> None:
    out = redact("export GITHUB_TOKEN=Ab12Cd34Ef56Gh78 and DB_PASSWORD=Tr0ub4dor&3")
    assert out == f"export GITHUB_TOKEN={REDACTED} and DB_PASSWORD={REDACTED}"
    assert redact("redis://:hunter22@localhost:6379/0") == f"redis://:{REDACTED}@localhost:6379/0"


def test_generic_values_are_entropy_checked() -> None:
    assert redaction.entropy("aaaaaaaa") == 0.0
    assert redaction.entropy("abcdefgh") == pytest.approx(3.0)
    assert redaction.looks_secret("q8Zt4Lm2Xv9Rb7Kd")
    assert not redaction.looks_secret("aaaaaaaaaaaa")  # long but not random
    assert not redaction.looks_secret("<your-key>")
    assert redaction.looks_secret("hunter2", password=True)
    assert not redaction.looks_secret("required", password=True)
    assert redact("TOKEN=aaaaaaaaaaaa") == "TOKEN=aaaaaaaaaaaa"


def test_many_secrets_in_one_long_text_in_one_pass() -> None:
    body = "\n".join(f"line {i}: {text}" for i, (text, _) in enumerate(ISSUE_FORMATS))
    text = ("filler words here. " * 2_000) + body + ("more filler. " * 2_000)
    out = redact(text)
    for _, secret in ISSUE_FORMATS:
        assert secret not in out
    assert out.count(REDACTED) >= len(ISSUE_FORMATS)


def test_registered_values_are_hidden() -> None:
    redaction.register("a-private-token-value-123")
    redaction.register("short")  # too short to register: would hide words
    assert redact("x a-private-token-value-123 y") == f"x {REDACTED} y"
    assert redact("short") == "short"


def test_a_text_known_clean_is_scanned_again_once_a_value_is_registered() -> None:
    text = "the daemon answered with c0ffee-d1sp4tch-v4lue-77 at last"
    assert redact(text) == text and redact(text) == text  # the second is looked up
    redaction.register("c0ffee-d1sp4tch-v4lue-77")
    assert redact(text) == f"the daemon answered with {REDACTED} at last"
    secret = "sk-ant-api03-" + "Zq9" * 10
    once = redact(f"key {secret} here")
    assert secret not in once and redact(once) == once  # its own output: a fixed point
    for i in range(redaction.CLEAN_TEXTS + 10):
        redact(f"text number {i}")
    assert len(redaction._CLEAN) <= redaction.CLEAN_TEXTS  # bounded memory


def test_a_secret_written_right_after_another_is_hidden_too() -> None:
    """One pass sees a secret glued to the end of another only once the first is hidden
    (`ghp_…` right after a whole `shpat_…`): `redact` passes again until nothing changes,
    so its output is a fixed point and the memory of clean texts never keeps a secret."""
    token = "ghp_aBcD1234EfGh5678IjKl9012MnOp3456QrSt"
    for first in ("shpat_0123456789abcdef0123456789abcdef", "password: hunter2!"):
        out = redact(first + token)
        assert "aBcD1234" not in out and redact(out) == out
    firsts = [fmt.examples[0] for fmt in redaction.CATALOGUE]
    for a in firsts:
        for b in firsts:
            once = redact(a + b)
            redaction._CLEAN.clear()  # scanned again, not looked up
            assert redact(once) == once, a + b


def test_redact_value_hides_secret_fields_deeply() -> None:
    value = {
        "api_key": "anything",
        "token_count": 12,
        "nested": [{"password": "x"}, "sk-ant-api03-AbCdEf12_34-xyz"],
        "empty_secret": "",
    }
    out = redact_value(value)
    assert out["api_key"] == REDACTED
    assert out["token_count"] == 12
    assert out["nested"] == [{"password": REDACTED}, REDACTED]
    assert out["empty_secret"] == ""


def test_printable_strips_terminal_control_sequences() -> None:
    hostile = "ok\x1b[2J\x1b[31mred\x1b[0m \x1b]0;pwned\x07\x1b]52;c;Zm9v\x07 a\rb\x00c\u202ed\x9b"
    out = printable(hostile)
    assert "\x1b" not in out and "\x07" not in out and "\r" not in out and "\x00" not in out
    assert "\u202e" not in out and "\x9b" not in out
    assert out == "okred  a\nbcd"
    assert printable("plain\ttext\nkept") == "plain\ttext\nkept"


def test_huge_hostile_input_stays_linear() -> None:
    # Runs of near-misses for every format: a catastrophic pattern would not finish.
    near = "sk-ant- ghp_ AKIA password: token= eyJ.eyJ. ://a:b -----BEGIN PRIVATE KEY----- "
    out = redact(near * 3_000 + "x" * 100_000)
    # an unterminated private key hides what follows it, up to 20,000 characters
    assert out.endswith("x" * 50_000) and "PRIVATE KEY" not in out


def test_log_records_are_redacted_by_the_filter() -> None:
    import io
    import logging

    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(redaction.LogFilter())
    logger = logging.getLogger("coachloop.test.redaction")
    logger.addHandler(handler)
    try:
        logger.warning("store %s failed", "redis://:s3cretPass@db:6379/0")
        try:
            raise RuntimeError("key sk-ant-api03-AbCdEf12_34-xyzXYZ refused")
        except RuntimeError:
            logger.exception("judge failed")
    finally:
        logger.removeHandler(handler)
    out = stream.getvalue()
    assert "s3cretPass" not in out and "AbCdEf12_34" not in out
    assert out.count(REDACTED) >= 2 and "judge failed" in out and "RuntimeError" in out


@pytest.mark.parametrize(("name", "example"), EXAMPLES)
@pytest.mark.parametrize("around", [0, 3])
def test_the_needles_searched_find_every_format_a_search_of_all_finds(
    name: str, example: str, around: int
) -> None:
    """A needle is searched only when the text holds its rarest character: the same
    formats are found as by searching every needle, so the same text comes out."""
    prose = "The migration ran; 14 of 40 files are done and the parser needs a second pass. "
    text = f"{prose * around}{example} {prose * around}"
    found = redaction._active(text)
    plain = tuple(sorted({i for n, i, _ in redaction._NEEDLES if n in text.lower()}))
    own = next(i for i, f in enumerate(redaction.CATALOGUE) if f.name == name)
    assert found == plain and own in found and REDACTED in redact(text)
