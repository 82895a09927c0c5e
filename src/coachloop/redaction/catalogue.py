"""The catalogue of secret formats `coachloop.redaction` hides: one `Format` per kind of
secret, with the texts the tests redact (`examples`). Patterns are built so that the
union of all of them stays fast: every alternative starts with a literal character, a
token boundary is checked by a lookbehind after that character, every repetition is
bounded (linear, never catastrophic). Standard library only."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

REDACTED = "[REDACTED]"


@dataclass(frozen=True, slots=True)
class Format:
    """One secret format: `patterns` are alternatives, each starting with a literal
    character (so the union keeps `re`'s fast skip to candidate positions); a format
    takes part only when the text holds one of its `needles` (lowercased). Where a
    pattern has a group `val`, only that group is replaced (a name, a scheme and user
    before it are kept), else the whole match. `check` "entropy" or "password" makes a
    generic format hide `val` only when `looks_secret` says so; a vendor format ("") is
    redacted on sight. `examples` are texts holding one such secret (the tests redact
    each)."""

    name: str
    needles: tuple[str, ...]  # a match's lowercased text contains one of these
    patterns: tuple[str, ...]
    examples: tuple[str, ...]
    check: Literal["", "entropy", "password"] = ""


_W = r"[A-Za-z0-9_\-]"  # a character that may continue a token
_ASSIGN = r"[\"']?[ \t]{0,8}(?::|=|:=|=>)[ \t]{0,8}[\"']?"


def _start(literal: str) -> str:
    """`literal` as the start of a token: no token character may precede it. The check
    follows the first character (a lookbehind over two), so every alternative of the
    union starts with a literal character and `re` skips to candidate positions."""
    first, rest = literal[0], literal[1:]
    return f"{re.escape(first)}(?<!{_W}{re.escape(first)}){rest}"


def _ci(word: str, after: str = "") -> tuple[str, ...]:
    """`word` in any case, as alternatives that each start with a literal character."""
    head, tail = word[0], word[1:]
    return tuple(
        f"{c}(?<![A-Za-z0-9]{c})(?i:{tail}){after}"
        for c in dict.fromkeys((head.lower(), head.upper()))
    )


_GENERIC_NAMES = (
    "api_key",
    "apikey",
    "api-key",
    "secret",
    "token",
    "access_key",
    "accesskey",
    "private_key",
    "privatekey",
    "credential",
    "session_key",
    "signing_key",
    "client_key",
)
_NAME_TAIL = r"[A-Za-z0-9_.\-]{0,64}" + _ASSIGN
_AWS = r"(?P<val>[A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])"
_VALUE = r"(?P<val>[^\s\"',;]{1,512})"

CATALOGUE: tuple[Format, ...] = (
    Format(
        "pem_private_key",
        ("private key",),
        (
            r"-----BEGIN[A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----(?:[^-]|-(?!----END)){0,20000}+"
            r"(?:-----END[A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----)?",
        ),
        (
            "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA7\n-----END RSA PRIVATE KEY-----",
            "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n"
            "-----END OPENSSH PRIVATE KEY-----",
            "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC",
            "-----BEGIN PGP PRIVATE KEY BLOCK-----\nlQOYBF\n-----END PGP PRIVATE KEY BLOCK-----",
        ),
    ),
    Format(
        "anthropic",
        ("sk-ant-",),
        (_start("sk-ant-") + r"[A-Za-z0-9_\-]{8,512}",),
        ("sk-ant-api03-AbCdEf12_34-xyz",),
    ),
    Format(
        "openai",
        ("sk-",),
        (_start("sk-") + r"(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_\-]{16,512}",),
        ("sk-proj-Abc123Def456Ghi789Jkl0", "sk-1234567890abcdefABCDEF12"),
    ),
    Format(
        "github_pat",
        ("github_pat_",),
        (_start("github_pat_") + r"[A-Za-z0-9_]{22,255}",),
        ("github_pat_11ABCDEFG0abcdefghij_Zz9",),
    ),
    Format(
        "github",
        ("ghp_", "gho_", "ghu_", "ghs_", "ghr_"),
        (_start("gh") + r"[pousr]_[A-Za-z0-9]{20,255}(?![A-Za-z0-9_\-])",),
        ("ghp_aBcD1234EfGh5678IjKl9012MnOp3456QrSt", "gho_16C7e42F292c6912E7710c838347Ae178B4a"),
    ),
    Format(
        "gitlab",
        ("glpat-", "glptt-", "gldt-", "glrt-", "glcbt-", "glsoat-", "glffct-"),
        (_start("gl") + r"(?:pat|ptt|dt|rt|cbt|soat|ffct)-[A-Za-z0-9_\-]{20,255}",),
        ("glpat-xY7zAbCdEf12GhIjKl34",),
    ),
    Format(
        "aws_access_key_id",
        ("akia", "asia", "abia", "acca", "agpa", "aida", "aroa", "anpa", "anva", "apka", "aipa"),
        (
            _start("A")
            + r"(?:KIA|SIA|BIA|CCA|GPA|IDA|ROA|NPA|NVA|PKA|IPA)[0-9A-Z]{16}(?![A-Za-z0-9_\-])",
        ),
        ("AKIAIOSFODNN7EXAMPLE", "ASIAY34FZKBOKMUTVV7A"),
    ),
    Format(
        "aws_secret_access_key",
        ("aws",),
        _ci("aws", r"[_\-]?(?i:secret)[_\-]?(?i:access)?[_\-]?(?i:key)" + _ASSIGN + _AWS),
        (
            "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
            "AWS_SECRET_ACCESS_KEY: wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        ),
    ),
    Format(
        "slack",
        ("xox",),
        (_start("xox") + r"[abposre]-[A-Za-z0-9\-]{10,255}",),
        ("xoxb-123456789012-1234567890123-AbCdEfGhIjKl",),
    ),
    Format(
        "slack_webhook",
        ("hooks.slack.com",),
        (r"hooks\.slack\.com/(?:services|workflows)/[A-Za-z0-9/_\-]{20,255}",),
        ("https://hooks.slack.com/services/T000/B000/XXXXXXXXXXXXXXXXXXXXXXXX",),
    ),
    Format(
        "stripe",
        ("_live_", "_test_"),
        tuple(_start(p) + r"_(?:live|test)_[A-Za-z0-9]{16,255}" for p in ("sk", "rk", "pk")),
        ("sk_live_4eC39HqLyjWDarjtT1zdp7dc", "rk_test_51Habcdefghijklmnop"),
    ),
    Format(
        "stripe_webhook",
        ("whsec_",),
        (_start("whsec_") + r"[A-Za-z0-9]{24,255}",),
        ("whsec_abcdefghijklmnopqrstuvwxyz012345",),
    ),
    Format(
        "google_api_key",
        ("aiza",),
        (_start("AIza") + r"[0-9A-Za-z_\-]{35}(?![A-Za-z0-9_\-])",),
        ("AIzaSyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStUvW",),
    ),
    Format(
        "google_oauth",
        ("ya29.",),
        (_start("ya29.") + r"[0-9A-Za-z_\-]{20,2048}",),
        ("ya29.a0AfH6SMBx1234567890abcdefghij",),
    ),
    Format(
        "google_client_secret",
        ("gocspx-",),
        (_start("GOCSPX-") + r"[A-Za-z0-9_\-]{20,64}",),
        ("GOCSPX-1a2B3c4D5e6F7g8H9i0JkLmNoPq",),
    ),
    Format(
        "jwt",
        ("eyj",),
        (
            _start("eyJ")
            + r"[A-Za-z0-9_\-]{8,4096}\.eyJ[A-Za-z0-9_\-]{8,4096}\.[A-Za-z0-9_\-]{0,4096}",
        ),
        (
            "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
        ),
    ),
    Format(
        "npm",
        ("npm_",),
        (_start("npm_") + r"[A-Za-z0-9]{36}(?![A-Za-z0-9_\-])",),
        ("npm_abcdefghijklmnopqrstuvwxyz0123456789",),
    ),
    Format(
        "pypi",
        ("pypi-age",),
        (_start("pypi-AgE") + r"[A-Za-z0-9_\-]{30,512}",),
        ("pypi-AgEIcHlwaS5vcmcCJGE0ZjY5ZGQ5LTBhMjMtNDk1",),
    ),
    Format(
        "huggingface",
        ("hf_",),
        (_start("hf_") + r"[A-Za-z0-9]{30,64}(?![A-Za-z0-9_\-])",),
        ("hf_abcdefghijklmnopqrstuvwxyzABCDEFGH",),
    ),
    Format(
        "sendgrid",
        ("sg.",),
        (_start("SG.") + r"[A-Za-z0-9_\-]{16,32}\.[A-Za-z0-9_\-]{30,64}",),
        ("SG.abcdefghijklmnopqrstuv.abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG",),
    ),
    Format(
        "groq",
        ("gsk_",),
        (_start("gsk_") + r"[A-Za-z0-9]{40,64}",),
        ("gsk_abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMN",),
    ),
    Format(
        "xai", ("xai-",), (_start("xai-") + r"[A-Za-z0-9]{40,128}",), ("xai-" + "aB3dE5gH7jK9" * 6,)
    ),
    Format(
        "digitalocean",
        ("_v1_",),
        (_start("do") + r"[por]_v1_[a-f0-9]{64}",),
        ("dop_v1_" + "0123456789abcdef" * 4,),
    ),
    Format(
        "shopify",
        ("shp",),
        (_start("shp") + r"(?:at|ss|ca|pa)_[a-fA-F0-9]{32}",),
        ("shpat_0123456789abcdef0123456789abcdef",),
    ),
    Format(
        "databricks",
        ("dapi",),
        (_start("dapi") + r"[a-f0-9]{32}(?:-\d)?(?![A-Za-z0-9_\-])",),
        ("dapi0123456789abcdef0123456789abcdef",),
    ),
    Format(
        "linear",
        ("lin_",),
        (_start("lin_") + r"(?:api|oauth)_[A-Za-z0-9]{32,64}",),
        ("lin_api_abcdefghijklmnopqrstuvwxyz0123456789ABCD",),
    ),
    Format(
        "notion",
        ("secret_", "ntn_"),
        (_start("secret_") + r"[A-Za-z0-9]{40,64}", _start("ntn_") + r"[A-Za-z0-9]{40,64}"),
        ("secret_abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG",),
    ),
    Format(
        "age",
        ("age-secret-key-1",),
        (r"AGE-SECRET-KEY-1[0-9A-Z]{58}",),
        ("AGE-SECRET-KEY-1" + ("QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L" * 2)[:58],),
    ),
    Format(
        "telegram_bot",
        (":aa",),
        (r":(?<=\d:)(?P<val>AA[A-Za-z0-9_\-]{30,40})(?![A-Za-z0-9_\-])",),
        ("123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw",),
    ),
    Format(
        "azure_connection",
        ("accountkey=", "sharedaccesskey=", "sig="),
        tuple(
            w + r"(?P<val>[A-Za-z0-9+/%]{20,512}={0,2})"
            for w in ("AccountKey=", "SharedAccessKey=", "sig=")
        ),
        ("DefaultEndpointsProtocol=https;AccountName=x;AccountKey=" + "abc123XYZ/+" * 8 + "==",),
    ),
    Format(
        "url_credentials",
        ("://",),
        (r"://[^\s:/@\"'<>]{0,256}:(?P<val>[^\s/@\"'<>]{1,512})(?=@)",),
        (
            "postgres://admin:s3cretPass@db.example.com:5432/app",
            "redis://:hunter22@localhost:6379/0",
            "https://user:tok3n@github.com/x/y.git",
        ),
    ),
    Format(
        "authorization",
        ("authorization",),
        tuple(
            p + r"[\"']?[ \t]{0,8}[:=][ \t]{0,8}[\"']?"
            r"(?:(?i:bearer|basic|token|digest|bot)[ \t]{1,8})?(?P<val>[^\s\"',]{1,2048})"
            for p in _ci("authorization") + _ci("proxy-authorization")
        ),
        ("Authorization: Bearer abc.def-ghi", "authorization=Basic dXNlcjpwYXNz"),
    ),
    Format(
        "bearer",
        ("bearer",),
        _ci("bearer", r"[ \t]{1,8}(?P<val>[A-Za-z0-9._~+/\-]{8,2048}=*)"),
        ("curl -H 'x: Bearer abcdefgh12345678'",),
    ),
    Format(
        "curl_user",
        ("-u",),
        (r"-(?<!\S-)(?:u|-user)[ \t=]{1,8}[\"']?[^\s:\"']{1,256}:(?P<val>[^\s\"']{1,512})",),
        ("curl -u admin:hunter2 https://x",),
    ),
    Format(
        "password",
        ("passw", "passphrase", "pwd"),
        tuple(
            p
            for w in ("password", "passwd", "passphrase", "pwd")
            for p in _ci(w, r"[A-Za-z0-9_\-]{0,40}" + _ASSIGN + _VALUE)
        ),
        ("password: hunter2", "DB_PASSWORD=Tr0ub4dor&3", '{"passwd": "c0rrect-horse"}'),
        check="password",
    ),
    Format(
        "named_secret",
        _GENERIC_NAMES,
        tuple(p for w in _GENERIC_NAMES for p in _ci(w, _NAME_TAIL + _VALUE)),
        (
            "API_KEY=q8Zt4Lm2Xv9Rb7Kd",
            'client_secret: "e7Fq2Wm9Zk4Tn8Lp"',
            "export GITHUB_TOKEN=Ab12Cd34Ef56Gh78",
            '"private_key": "MIIEvQIBADANBgkq"',
        ),
        check="entropy",
    ),
)
