"""Bad input never breaks an agent: 10,000 generated payloads, every run exits 0 with
valid JSON or nothing, in bounded time.

The payloads come from a seeded generator (the same 10,000 every run): binary noise,
truncated and non-object JSON, known events with fields deleted or of the wrong type,
deep nesting, invalid UTF-8, lone surrogates and NULs, plausible events that reach the
store, and a handful of 10 MB strings. All 10,000 go through `coachloop.agents.client.
main` in-process (stdin and stdout redirected, no daemon); about 50 of them also through
the real `coachloop hook AGENT` process.
"""

from __future__ import annotations

import io
import json
import os
import random
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from coachloop.agents import client
from hook_support import EVIDENCE, HEDGE, QUESTION, make_project, run_hook

SEED = 20240601
COUNT = 10_000
HUGE = 10 * 1024 * 1024
AGENTS = ("claude-code", "codex", "codex-notify", "gemini")
EVENTS = {
    "claude-code": [
        "Stop",
        "SubagentStop",
        "StopFailure",
        "UserPromptSubmit",
        "Notification",
        "SessionStart",
        "SessionEnd",
        "PreToolUse",
    ],
    "codex": ["Stop", "StopFailure", "UserPromptSubmit", "SessionStart"],
    "gemini": [
        "AfterAgent",
        "BeforeAgent",
        "Notification",
        "SessionStart",
        "SessionEnd",
        "BeforeTool",
    ],
}
TEXTS = [
    HEDGE,
    QUESTION,
    EVIDENCE,
    "Working on it.",
    "",
    "[no response text]",
    "/do-build now",
    "[System Coach] Not done yet.",
]
PER_CALL_LIMIT = 15.0  # seconds; a 10 MB payload takes well under one


class Gen:
    """Deterministic payload generator; `safe_dirs` are the only real directories used."""

    def __init__(self, seed: int, safe_dirs: list[str], transcripts: list[str]) -> None:
        self.r = random.Random(seed)
        self.dirs = safe_dirs
        self.transcripts = transcripts
        self.sessions = [f"sess-{i}" for i in range(24)]

    def text(self, n: int | None = None) -> str:
        r = self.r
        n = r.randint(0, 200) if n is None else n
        alphabet = 'abc xyz/.-_\n\t"\\é𝄞\u0000\u200b{}[]'
        return "".join(r.choice(alphabet) for _ in range(n))

    def value(self, depth: int = 0) -> Any:
        r = self.r
        kinds = (
            ["none", "bool", "int", "float", "str", "list", "dict"]
            if depth < 3
            else ["none", "bool", "int", "str"]
        )
        kind = r.choice(kinds)
        if kind == "none":
            return None
        if kind == "bool":
            return r.random() < 0.5
        if kind == "int":
            return r.choice([0, -1, 1, 2**63, 10**30, r.randint(-1000, 1000)])
        if kind == "float":
            return r.choice([0.5, -1e308, float("nan"), float("inf")])
        if kind == "str":
            return self.text()
        if kind == "list":
            return [self.value(depth + 1) for _ in range(r.randint(0, 4))]
        return {self.text(8): self.value(depth + 1) for _ in range(r.randint(0, 4))}

    def cwd(self) -> Any:
        r = self.r
        choice = r.random()
        if choice < 0.7:
            return r.choice(self.dirs)
        if choice < 0.85:
            return r.choice(["", "relative/dir", "nope", self.dirs[0] + "/missing/dir"])
        return self.value()

    def plausible(self, agent: str) -> dict[str, Any]:
        r = self.r
        sid = r.choice(self.sessions)
        if agent == "codex-notify":
            return {
                "type": r.choice(["agent-turn-complete"] * 5 + ["approval-requested"]),
                "thread-id": sid,
                "turn-id": f"turn-{r.randint(0, 5)}",
                "cwd": self.cwd(),
                "input-messages": [r.choice(TEXTS) for _ in range(r.randint(0, 2))],
                "last-assistant-message": r.choice([*TEXTS, None]),
            }
        event = r.choice(EVENTS[agent])
        data: dict[str, Any] = {
            "session_id": sid,
            "cwd": self.cwd(),
            "hook_event_name": event,
            "transcript_path": r.choice(self.transcripts),
            "stop_hook_active": r.random() < 0.4,
        }
        if agent == "claude-code":
            data["prompt_id"] = f"p-{r.randint(0, 5)}"
        if agent == "codex":
            data["turn_id"] = f"turn-{r.randint(0, 5)}"
        text = r.choice(TEXTS)
        for key in ("last_assistant_message", "prompt", "prompt_response", "message"):
            if r.random() < 0.7:
                data[key] = text
        if r.random() < 0.3:
            data.update(
                error="rate_limit",
                error_details="429",
                notification_type=r.choice(["permission_prompt", "idle_prompt", "ToolPermission"]),
            )
        if r.random() < 0.2:
            data.update(
                source=r.choice(["user", "system", "startup"]), reason="exit", agent_id="a1"
            )
        return data

    def mutated(self, agent: str) -> dict[str, Any]:
        data = self.plausible(agent)
        for _ in range(self.r.randint(1, 4)):
            key = self.r.choice(list(data))
            if self.r.random() < 0.4:
                del data[key]
            else:
                data[key] = self.value()
        return data

    def payload(self, agent: str) -> bytes:
        r = self.r
        kind = r.choices(
            [
                "binary",
                "truncated",
                "non_object",
                "mutated",
                "plausible",
                "nested",
                "bad_utf8",
                "escapes",
            ],
            weights=[10, 10, 5, 30, 30, 3, 6, 6],
        )[0]
        if kind == "binary":
            return r.randbytes(r.randint(0, 512))
        if kind == "truncated":
            raw = json.dumps(self.plausible(agent)).encode()
            return raw[: r.randint(0, max(0, len(raw) - 1))]
        if kind == "non_object":
            return json.dumps(
                r.choice([[1, 2], "Stop", 42, None, True, [{"session_id": "x"}]])
            ).encode()
        if kind == "mutated":
            return json.dumps(self.mutated(agent)).encode()
        if kind == "plausible":
            return json.dumps(self.plausible(agent), ensure_ascii=r.random() < 0.5).encode()
        if kind == "nested":
            depth = r.choice([50, 5_000, 200_000])
            return (b'{"session_id": "s", "x": ' + b"[" * depth + b"]" * depth + b"}")[
                : r.choice([10**9, depth])
            ]
        if kind == "bad_utf8":
            buf = bytearray(json.dumps(self.plausible(agent)).encode())
            for _ in range(r.randint(1, 5)):
                buf.insert(r.randint(0, len(buf)), r.choice([0x80, 0xC3, 0xFF, 0xED]))
            return bytes(buf)
        data = self.plausible(agent)
        field = r.choice(
            [
                "session_id",
                "cwd",
                "last_assistant_message",
                "prompt",
                "thread-id",
                "transcript_path",
            ]
        )
        data[field] = r.choice(["\ud800", "a\u0000b", "\udfff tail", "\u2028", "s\x00id"])
        return json.dumps(data).encode()


def huge_payloads(project: str) -> Iterator[tuple[str, bytes]]:
    """A handful of 10 MB cases (each agent, each big field)."""
    big = ("All done, tests pass. " * (HUGE // 22 + 1))[:HUGE]
    yield (
        "claude-code",
        json.dumps(
            {
                "session_id": "huge",
                "cwd": project,
                "hook_event_name": "Stop",
                "prompt_id": "p",
                "last_assistant_message": big,
            }
        ).encode(),
    )
    yield (
        "gemini",
        json.dumps(
            {
                "session_id": "huge-g",
                "cwd": project,
                "hook_event_name": "AfterAgent",
                "prompt": big,
                "prompt_response": big,
            }
        ).encode(),
    )
    yield (
        "codex",
        json.dumps(
            {
                "session_id": "x" * HUGE,
                "cwd": project,
                "hook_event_name": "Stop",
                "turn_id": "t",
                "last_assistant_message": HEDGE,
            }
        ).encode(),
    )
    yield (
        "claude-code",
        json.dumps(
            {
                "session_id": "huge-cwd",
                "cwd": "/" + "a/" * (HUGE // 2),
                "hook_event_name": "UserPromptSubmit",
                "prompt": big,
            }
        ).encode(),
    )
    yield (
        "codex-notify",
        json.dumps(
            {
                "type": "agent-turn-complete",
                "thread-id": "huge-n",
                "cwd": project,
                "input-messages": [big],
                "last-assistant-message": big,
            }
        ).encode(),
    )
    yield "claude-code", random.Random(SEED).randbytes(HUGE)


def check_reply(code: int, out: bytes) -> None:
    assert code == 0
    if not out:
        return
    body = json.loads(out)
    assert isinstance(body, dict) and set(body) == {"decision", "reason"}, body
    assert body["decision"] in ("block", "deny")
    assert isinstance(body["reason"], str) and body["reason"]
    text = out.decode("utf-8")
    assert len(text) + sum(1 for ch in text if ord(ch) > 0xFFFF) <= 10_000


def run_in_process(agent: str, raw: bytes) -> tuple[int, bytes]:
    """`client.main([agent])` with stdin holding `raw`; returns (exit code, stdout bytes)."""
    stdin = io.TextIOWrapper(io.BytesIO(raw))
    stdout = io.TextIOWrapper(io.BytesIO())
    saved = sys.stdin, sys.stdout
    sys.stdin, sys.stdout = stdin, stdout
    try:
        code = client.main([agent])
    finally:
        sys.stdin, sys.stdout = saved
    stdout.flush()
    out = stdout.buffer
    assert isinstance(out, io.BytesIO)
    return code, out.getvalue()


@pytest.fixture
def cases(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, bytes]]:
    monkeypatch.setenv("COACHLOOP_HOOK_DAEMON", "0")
    project = make_project(tmp_path)
    (project / "sub").mkdir()
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    transcript = tmp_path / "t.jsonl"
    line = {
        "type": "assistant",
        "message": {"id": "m", "content": [{"type": "text", "text": QUESTION}]},
    }
    transcript.write_text(json.dumps(line) + "\n{broken\n", encoding="utf-8")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    gen = Gen(
        SEED,
        [str(project), str(project / "sub"), str(scratch)],
        [str(transcript), str(fifo), "/dev/zero", "/nonexistent", ""],
    )
    generated = [
        (AGENTS[i % len(AGENTS)], gen.payload(AGENTS[i % len(AGENTS)])) for i in range(COUNT - 6)
    ]
    return generated + list(huge_payloads(str(project)))


def test_ten_thousand_bad_payloads_exit_0_with_valid_json_or_nothing(
    cases: list[tuple[str, bytes]], tmp_path: Path
) -> None:
    outside = [Path("/.coachloop"), Path("/tmp/.coachloop"), Path.cwd() / ".coachloop"]
    before = [p.exists() for p in outside]
    start = time.monotonic()
    slowest = 0.0
    blocked = 0
    for agent, raw in cases:
        t0 = time.monotonic()
        code, out = run_in_process(agent, raw)
        slowest = max(slowest, time.monotonic() - t0)
        check_reply(code, out)
        blocked += bool(out)
    elapsed = time.monotonic() - start
    assert len(cases) == COUNT
    assert slowest < PER_CALL_LIMIT, slowest
    assert elapsed < 60, elapsed
    assert blocked > 50  # plausible hedges really reached the supervisor and were coached
    assert [p.exists() for p in outside] == before  # no store was created outside the tests


def test_fifty_of_them_through_the_real_hook_process(cases: list[tuple[str, bytes]]) -> None:
    picked = cases[:: len(cases) // 48][:48] + cases[-6:-4]  # spread out, plus two 10 MB ones
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(_proc, picked))
    assert len(results) == 50
    for code, out in results:
        check_reply(code, out)


def _proc(case: tuple[str, bytes]) -> tuple[int, bytes]:
    agent, raw = case
    done = run_hook(agent, raw, timeout=60)
    return done.returncode, done.stdout
