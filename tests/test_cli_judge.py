"""`coachloop judge`: inputs (argument, stdin, file, transcript), output, and batch mode."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from coachloop.cli import cli
from coachloop.core.judge_input import JudgeInput
from coachloop.core.verdict import (
    MESSAGE_TYPES,
    Evidence,
    MessageType,
    Problem,
    Verdict,
    route_for,
)
from coachloop.core.verdict import TestSummary as RunSummary
from coachloop.transcript import parse_last_assistant_text

COACHLOOP = Path(sys.executable).parent / "coachloop"
VERDICT_KEYS = {f.name for f in dataclasses.fields(Verdict)}


class FakeJudge:
    """Predicts the type named by the text's first word (else "status"); records inputs."""

    def __init__(self, fail_on: str | None = None) -> None:
        self.seen: list[JudgeInput] = []
        self.fail_on = fail_on

    def judge(self, item: JudgeInput) -> Verdict:
        self.seen.append(item)
        if self.fail_on is not None and self.fail_on in item.text:
            raise RuntimeError("boom")
        words = item.text.split(maxsplit=1)
        word = words[0].rstrip(":") if words else ""
        kind: MessageType = next((t for t in MESSAGE_TYPES if t == word), "status")
        return Verdict(
            type=kind,
            route=route_for(kind),
            confidence=0.9,
            reason=f"fake {kind}",
            source="rules",
            coaching_message="keep going" if kind == "status" else None,
        )


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> FakeJudge:
    judge = FakeJudge()
    monkeypatch.setattr("coachloop.cli.judge_cmd.build_judge", lambda name=None: judge)
    return judge


def invoke(args: list[str], stdin: str | bytes | None = None) -> Any:
    return CliRunner().invoke(cli, args, input=stdin, catch_exceptions=False)


# --- single message -----------------------------------------------------------------


def test_argument_with_context_options_reaches_the_judge(fake: FakeJudge, tmp_path: Path) -> None:
    plan = tmp_path / "plan.md"
    plan.write_text("# Plan\n", encoding="utf-8")
    args = ["judge", "question: which db?", "--prompt", "pick a db", "--skill", "/do-plan"]
    args += ["--phase", "plan", "--plan", str(plan), "--event", "SubagentStop"]
    result = invoke(args)
    assert result.exit_code == 0, result.output
    assert fake.seen == [
        JudgeInput(
            text="question: which db?",
            prompt="pick a db",
            skill="/do-plan",
            phase="plan",
            plan_file=str(plan),
            event="SubagentStop",
        )
    ]
    assert "type:       question" in result.stdout
    assert "route:      deliver" in result.stdout
    assert "fake question" in result.stdout


@pytest.mark.parametrize("args", [["judge", "-"], ["judge"]])
def test_message_from_stdin(fake: FakeJudge, args: list[str]) -> None:
    result = invoke(args, stdin="status: still working\n")
    assert result.exit_code == 0, result.output
    assert fake.seen[0].text == "status: still working\n"
    assert "coaching:\n  keep going" in result.stdout


def test_message_from_file_with_invalid_utf8(fake: FakeJudge, tmp_path: Path) -> None:
    path = tmp_path / "msg.txt"
    path.write_bytes(b"completion: done \xff\xfe ok")
    result = invoke(["judge", "--file", str(path)])
    assert result.exit_code == 0, result.output
    assert fake.seen[0].text == "completion: done \ufffd\ufffd ok"


@pytest.mark.parametrize("option", ["--file", "--transcript", "--batch"])
def test_unreadable_input_file_exits_2(fake: FakeJudge, tmp_path: Path, option: str) -> None:
    result = invoke(["judge", option, str(tmp_path / "missing.txt")])
    assert result.exit_code == 2
    assert "missing.txt" in result.stderr
    assert "No such file" in result.stderr
    assert fake.seen == []


def test_two_sources_is_a_usage_error(fake: FakeJudge, tmp_path: Path) -> None:
    path = tmp_path / "m.txt"
    path.write_text("x", encoding="utf-8")
    result = invoke(["judge", "hello", "--file", str(path)])
    assert result.exit_code == 2
    assert "one way" in result.stderr
    assert invoke(["judge", "--batch", "-", "--skill", "/do-build"]).exit_code == 2


def _transcript(tmp_path: Path, entries: list[Any]) -> Path:
    path = tmp_path / "t.jsonl"
    lines = [e if isinstance(e, str) else json.dumps(e) for e in entries]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _assistant(msg_id: str | None, *blocks: Any, sidechain: bool = False) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": list(blocks)}
    if msg_id is not None:
        message["id"] = msg_id
    return {"type": "assistant", "isSidechain": sidechain, "message": message}


def test_transcript_joins_the_text_blocks_of_the_last_message_id(
    fake: FakeJudge, tmp_path: Path
) -> None:
    path = _transcript(
        tmp_path,
        [
            {"type": "user", "message": {"role": "user", "content": "do it"}},
            _assistant("msg_1", {"type": "text", "text": "earlier message"}),
            {"type": "user", "message": {"role": "user", "content": [{"type": "tool_result"}]}},
            _assistant("msg_2", {"type": "text", "text": "completion: part one"}),
            "{not json",
            _assistant("msg_2", {"type": "tool_use", "name": "Bash", "input": {}}),
            "[1, 2]",
            _assistant("msg_2", {"type": "text", "text": "part two"}),
            _assistant("side_1", {"type": "text", "text": "a subagent's words"}, sidechain=True),
            {"type": "system", "content": "Stop hook ran"},
        ],
    )
    result = invoke(["judge", "--transcript", str(path), "--json"])
    assert result.exit_code == 0, result.output
    assert fake.seen[0].text == "completion: part one\npart two"
    assert json.loads(result.stdout)["type"] == "completion"


def test_transcript_string_content_and_sidechain_only_files() -> None:
    lines = [json.dumps({"type": "assistant", "message": {"id": "m", "content": "plain"}})]
    assert parse_last_assistant_text(lines) == "plain"
    side = [json.dumps(_assistant("s", {"type": "text", "text": "sub"}, sidechain=True))]
    assert parse_last_assistant_text(side) == "sub"
    no_id = [
        json.dumps(_assistant(None, {"type": "text", "text": "one"})),
        json.dumps(_assistant(None, {"type": "text", "text": "two"})),
    ]
    assert parse_last_assistant_text(no_id) == "two"
    assert parse_last_assistant_text([b"\xff\xfe", b"", b"{}"]) is None


def test_transcript_without_assistant_message_exits_2(fake: FakeJudge, tmp_path: Path) -> None:
    path = _transcript(tmp_path, [{"type": "user", "message": {"content": "hi"}}, "garbage"])
    result = invoke(["judge", "--transcript", str(path)])
    assert result.exit_code == 2
    assert "no assistant message" in result.stderr


def test_json_output_shape_with_the_real_judge() -> None:
    result = invoke(["judge", "--json", "Fixed it, all 12 tests pass."])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert set(data) == VERDICT_KEYS
    assert data["type"] in MESSAGE_TYPES
    assert data["route"] == route_for(data["type"])
    assert 0.0 <= data["confidence"] <= 1.0
    assert isinstance(data["evidence"], dict)
    assert isinstance(data["problems"], list)


def test_stop_failure_event_reaches_the_real_pipeline() -> None:
    result = invoke(["judge", "--event", "StopFailure", "--json", "whatever"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["type"] == "error"


def test_human_output_lists_evidence_problems_and_coaching() -> None:
    from coachloop.cli.judge_cmd import format_verdict

    verdict = Verdict(
        type="status",
        route="continue",
        confidence=0.85,
        reason="hedged completion",
        source="rules",
        coaching_message="[System Coach] Run the tests.\nShow the output.",
        rejected_completion=True,
        evidence=Evidence(
            tests=(RunSummary(runner="pytest", passed=3, failed=1),),
            commits=tuple(f"c{i}" for i in range(7)),
        ),
        problems=(Problem(kind="hedge", detail="guessing", quote="should work"),),
    )
    text = format_verdict(verdict)
    assert "type:       status (rejected completion)" in text
    assert "confidence: 0.85 (source: rules)" in text
    assert "tests: pytest 3 passed, 1 failed" in text
    assert "commits: c0, c1, c2, c3, c4 (+2 more)" in text
    assert "problem:    hedge: guessing (“should work”)" in text
    assert text.endswith("coaching:\n  [System Coach] Run the tests.\n  Show the output.")
    delivered = Verdict(type="question", confidence=1.0, reason="asks", source="signal")
    assert "evidence:   none found" in format_verdict(delivered)
    assert "coaching" not in format_verdict(delivered)


# --- batch -----------------------------------------------------------------------------


def _results(stdout: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in stdout.splitlines()]


def test_batch_from_stdin_keeps_order_and_reports_bad_lines(fake: FakeJudge) -> None:
    lines: list[str | bytes] = [
        json.dumps({"text": "question: a?", "id": "x1", "label": "ignored"}),
        "",
        "this is not json",
        json.dumps(["text", "in an array"]),
        b'{"text": "completion: caf\xe9 \xff done"}',
        json.dumps({"text": 42}),
        json.dumps({"prompt": "no text"}),
        json.dumps({"text": "status: x", "event": "Crash"}),
        json.dumps({"text": "completion: ok", "prompt": "p", "skill": "/do-test", "plan": "P.md"}),
        "   ",
        json.dumps({"text": "", "event": "StopFailure", "error": "overloaded"}),
    ]
    data = b"\n".join(x if isinstance(x, bytes) else x.encode() for x in lines) + b"\n"
    result = invoke(["judge", "--batch", "-"], stdin=data)
    assert result.exit_code == 0, result.output
    out = _results(result.stdout)
    assert [r["line"] for r in out] == [1, 3, 4, 5, 6, 7, 8, 9, 11]
    errors = {r["line"]: r["error"] for r in out if "error" in r}
    assert set(errors) == {3, 4, 6, 7, 8}
    assert "not valid JSON" in errors[3]
    assert "JSON array, not a JSON object" in errors[4]
    assert "text" in errors[6] and "string" in errors[6]
    assert "text" in errors[7] and "required" in errors[7].lower()
    assert "event" in errors[8]
    assert out[0]["type"] == "question" and out[0]["coaching_message"] is None
    assert out[3]["type"] == "completion" and out[3]["route"] == "deliver"
    assert set(out[0]) == VERDICT_KEYS | {"line", "id"}  # the input's id is echoed
    assert out[0]["id"] == "x1" and "id" not in out[1]
    texts = [item.text for item in fake.seen]
    assert texts[1] == "completion: caf\ufffd \ufffd done"
    assert fake.seen[2] == JudgeInput(
        text="completion: ok", prompt="p", skill="/do-test", plan_file="P.md"
    )
    assert fake.seen[3].event == "StopFailure" and fake.seen[3].error == "overloaded"


def test_batch_goes_on_when_the_judge_raises(fake: FakeJudge) -> None:
    fake.fail_on = "explode"
    lines = [{"text": "question: 1"}, {"text": "explode"}, {"text": "blocker: 3"}]
    stdin = "\n".join(json.dumps(x) for x in lines)
    result = invoke(["judge", "--batch", "-"], stdin=stdin)
    assert result.exit_code == 0
    out = _results(result.stdout)
    assert [r.get("type") for r in out] == ["question", None, "blocker"]
    assert out[1] == {"line": 2, "error": "judge failed: RuntimeError: boom"}


def test_batch_console_script_survives_bad_and_huge_lines(tmp_path: Path) -> None:
    """A real subprocess of the installed console script, with the real judge."""
    assert COACHLOOP.exists(), COACHLOOP
    huge = "All done. " + "x" * (10 * 1024 * 1024)
    lines = [
        json.dumps({"text": "Should I proceed with the refactor?"}).encode(),
        b"{oops",
        b'["a", "b"]',
        b'{"text": "Termin\xe9 \xff\xfe les tests"}',
        json.dumps({"text": huge}).encode(),
        json.dumps({"text": "Working on the parser next.", "event": "Stop"}).encode(),
    ]
    batch = tmp_path / "batch.jsonl"
    batch.write_bytes(b"\n".join(lines) + b"\n")
    env = dict(os.environ)
    start = time.monotonic()
    proc = subprocess.run(
        [str(COACHLOOP), "judge", "--batch", str(batch)],
        capture_output=True,
        cwd=tmp_path,
        env=env,
        timeout=120,
        check=False,
    )
    elapsed = time.monotonic() - start
    assert proc.returncode == 0, proc.stderr.decode(errors="replace")
    out = [json.loads(line) for line in proc.stdout.decode().splitlines()]
    assert [r["line"] for r in out] == [1, 2, 3, 4, 5, 6]
    assert "error" in out[1] and "error" in out[2]
    for result in (out[0], out[3], out[4], out[5]):
        assert "error" not in result
        assert result["type"] in MESSAGE_TYPES
        assert result["route"] == route_for(result["type"])
        assert 0.0 <= result["confidence"] <= 1.0
        assert "coaching_message" in result
    assert elapsed < 60


def test_help_does_not_import_rich_or_pydantic() -> None:
    code = (
        "import sys\n"
        "from coachloop.cli import cli\n"
        "cli.main(['--help'], standalone_mode=False)\n"
        "heavy = [m for m in ('rich', 'pydantic') if m in sys.modules]\n"
        "assert not heavy, heavy\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert proc.returncode == 0, proc.stderr
    for name in ("judge", "bench", "demo"):
        assert name in proc.stdout


def test_demo_judges_every_example() -> None:
    from coachloop.cli.demo_cmd import EXAMPLES

    result = invoke(["demo", "--offline"])
    assert result.exit_code == 0, result.output
    assert result.stdout.count("type:       ") == len(EXAMPLES) == 6
    assert f"[6/{len(EXAMPLES)}]" in result.stdout
    assert "StopFailure" in result.stdout
