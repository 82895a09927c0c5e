"""The turn record: read from real Claude Code transcripts (tests/data/turns/, written by
the real binary, see benchmarks/make_turns.py), from stream events, and safely from bad
paths and files; the facts it derives (test runs, failing tests, commits, shell edits)."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import pytest

from coachloop.core.judge_input import JudgeInput
from coachloop.core.record import ToolCall, TurnRecord
from coachloop.record import STALE, attach, claude_stream, claude_transcript, for_hook, matches
from coachloop.record.calls import written_paths
from coachloop.record.facts import failing_tests, is_test_command

TURNS = Path(__file__).parent / "data" / "turns"
LABELS = {
    row["name"]: row for row in map(json.loads, (TURNS / "labels.jsonl").read_text().splitlines())
}


def turn(name: str) -> TurnRecord:
    return claude_transcript(str(TURNS / f"{name}.jsonl"))


def test_a_failing_run_is_read_with_its_failing_tests() -> None:
    rec = turn("pycalc-wrong-fix")
    assert rec.usable and rec.complete and rec.source == "Claude Code transcript"
    assert rec.prompt == LABELS["pycalc-wrong-fix"]["prompt"]
    assert rec.final_text == LABELS["pycalc-wrong-fix"]["text"]
    assert [(c.tool, c.kind, c.target) for c in rec.calls] == [
        ("Read", "read", "calc.py"),
        ("Edit", "edit", "calc.py"),
        ("Bash", "command", "python -m pytest -q"),
    ]
    [run] = rec.tests
    assert run.call == 2 and run.exit_code == 1 and not run.ok
    assert (run.passed, run.failed) == (1, 2)
    assert run.failing == ("test_calc.py::test_add", "test_calc.py::test_add_negative")
    assert run.outcome() == "2 failed, 1 passed"


def test_unittest_output_and_edits_after_the_run() -> None:
    rec = turn("pyunit-edit-after")
    last = rec.last_test
    assert last is not None and last.ok and last.command == "python -m unittest -v"
    assert last.outcome() == "3 tests OK"
    assert rec.edits_after(last.call) == ("shapes.py",)


def test_a_shell_edit_counts_as_an_edit() -> None:
    rec = turn("pycalc-sed-after")
    last = rec.last_test
    assert last is not None and last.ok
    assert rec.edits_after(last.call) == ("calc.py",)


def test_commits_are_read_from_git_output() -> None:
    rec = turn("pycalc-commit")
    assert rec.committed and len(rec.commits) == 1
    assert rec.commits[0] in LABELS["pycalc-commit"]["text"]
    failed = turn("commit-failed")
    assert not failed.committed and failed.commits == ()
    assert failed.calls[-1].exit_code == 1 and failed.calls[-1].error


def test_other_runners_node_and_cargo() -> None:
    node = turn("nodejs-red-claimed").last_test
    assert node is not None and not node.ok and node.failing == ("whisper",)
    cargo = turn("rust-pasted").last_test
    assert cargo is not None and cargo.ok and cargo.passed == 2


def test_only_the_last_turn_is_read() -> None:
    rec = turn("stale-no-run")
    assert rec.prompt == "Now make mul() accept strings of digits too."
    assert rec.tests == () and [c.kind for c in rec.calls] == ["read", "edit"]


def test_permission_denials_are_marked() -> None:
    rec = turn("denied-webfetch")
    [call] = rec.calls
    assert call.tool == "WebFetch" and call.denied and call.error
    push = turn("denied-push")
    assert [c.target for c in push.denials] == ["git push origin HEAD"]


def test_the_stream_gives_the_same_record_as_the_transcript() -> None:
    lines = (TURNS / "pycalc-edit-after.jsonl").read_text().splitlines()
    events = [json.loads(line) for line in lines]
    events = [e for e in events if e.get("type") in ("user", "assistant", "system")]
    from_stream = claude_stream(events[1:], prompt="the prompt")
    from_file = turn("pycalc-edit-after")
    assert from_stream.prompt == "the prompt" and from_stream.source == "Claude Code stream"
    assert from_stream.calls == from_file.calls and from_stream.tests == from_file.tests


def test_the_read_is_bounded_by_the_tail(tmp_path: Path) -> None:
    body = (TURNS / "pycalc-pasted.jsonl").read_bytes()
    big = tmp_path / "big.jsonl"
    filler = b'{"type":"user","message":{"role":"user","content":"old"}}\n' * 200_000
    big.write_bytes(filler + body)
    assert big.stat().st_size > 10_000_000
    whole = claude_transcript(str(big))
    assert whole.complete and whole.calls == turn("pycalc-pasted").calls
    tail = claude_transcript(str(big), limit=len(body) // 3)
    assert tail.usable and not tail.complete  # the turn's start lay beyond the bound
    assert tail.final_text == whole.final_text and len(tail.calls) < len(whole.calls)


@pytest.mark.parametrize(
    ("make", "note"),
    [
        (lambda d: d / "missing.jsonl", "no such file"),
        (lambda d: d, "not a regular file"),
        (lambda d: Path("/dev/zero"), "not a regular file"),
        (lambda d: d / "x" / "\0", "cannot open it"),
        (lambda d: Path("/etc/hostname/x"), "cannot open it"),
    ],
    ids=["missing", "directory", "device", "nul", "not-a-directory"],
)
def test_bad_paths_give_an_unusable_record(tmp_path: Path, make: object, note: str) -> None:
    rec = claude_transcript(str(make(tmp_path)))  # type: ignore[operator]
    assert not rec.usable and note in str(rec.note)


def test_a_fifo_is_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "t.jsonl"
    os.mkfifo(fifo)
    result: list[TurnRecord] = []
    worker = threading.Thread(target=lambda: result.append(claude_transcript(str(fifo))))
    worker.start()
    worker.join(timeout=5)
    assert not worker.is_alive() and result and "not a regular file" in str(result[0].note)


@pytest.mark.parametrize(
    "content",
    [os.urandom(200_000), b"not json at all\n" * 100, b"", b'{"type":"user","message":'],
    ids=["binary", "text", "empty", "truncated"],
)
def test_files_that_are_no_transcript_give_an_unusable_record(
    tmp_path: Path, content: bytes
) -> None:
    path = tmp_path / "t.jsonl"
    path.write_bytes(content)
    rec = claude_transcript(str(path))
    assert not rec.usable and "no assistant message" in str(rec.note)


def test_a_transcript_cut_before_the_final_message_is_stale(tmp_path: Path) -> None:
    lines = (TURNS / "pycalc-unpasted.jsonl").read_bytes().splitlines(keepends=True)
    last = max(i for i, line in enumerate(lines) if b'"type":"assistant"' in line)
    path = tmp_path / "t.jsonl"
    path.write_bytes(b"".join(lines[:last]) + lines[last][:50])
    item = for_hook(JudgeInput(text=LABELS["pycalc-unpasted"]["text"]), "claude-code", str(path))
    assert item.record is not None and item.record.note == STALE


def test_for_hook_attaches_a_fresh_record_and_skips_what_it_cannot_read() -> None:
    path = str(TURNS / "pycalc-unpasted.jsonl")
    item = JudgeInput(text=LABELS["pycalc-unpasted"]["text"])
    fresh = for_hook(item, "claude-code", path)
    assert fresh.record is not None and fresh.record.usable
    assert for_hook(item, "claude-code", None) is item
    assert for_hook(item, "cursor", path).record is None  # no reader for that agent
    failure = JudgeInput(text="", event="StopFailure")
    assert for_hook(failure, "claude-code", path) is failure


def test_matches_tolerates_whitespace_and_a_cut_middle() -> None:
    assert matches("All  tests\npass.", "All tests pass.")
    assert not matches("All tests pass.", "Some tests pass.") and not matches(None, "x")
    long = "a" * 1000 + "b" * 1000
    cut = "a" * 600 + "\n\n[... 800 characters cut by coachloop ...]\n\n" + "b" * 600
    assert matches(long, cut)


def test_attach_marks_a_stale_record() -> None:
    rec = turn("pycalc-unpasted")
    item = attach(JudgeInput(text="Something else entirely."), rec)
    assert item.record is not None and item.record.note == STALE


@pytest.mark.parametrize(
    ("command", "paths"),
    [
        ("sed -i 's/a/b/' calc.py", ["calc.py"]),
        ("cat > src/app.py <<'EOF'\nx = 1\nEOF", ["src/app.py"]),
        ("python -m pytest -q > out.txt 2>&1", []),
        ("echo hi | tee -a notes/log.py", ["notes/log.py"]),
        ("mv new.py old.py", ["old.py"]),
        ("python -m pytest -q 2>/dev/null", []),
        ("grep -n x calc.py", []),
    ],
)
def test_files_written_by_shell_commands(command: str, paths: list[str]) -> None:
    assert written_paths(command) == paths


@pytest.mark.parametrize(
    ("output", "names"),
    [
        (
            "FAILED tests/t.py::test_a - assert 1 == 2\nERROR tests/t.py::test_b",
            ["tests/t.py::test_a", "tests/t.py::test_b"],
        ),
        (
            "FAIL: test_square (test_shapes.TestShapes.test_square)",
            ["test_shapes.TestShapes.test_square"],
        ),
        ("--- FAIL: TestParse (0.00s)", ["TestParse"]),
        ("test tests::zero ... FAILED", ["tests::zero"]),
        ("  ✕ renders the header (5 ms)", ["renders the header"]),
        ("not ok 2 - whisper", ["whisper"]),
        ("3 passed in 0.1s", []),
    ],
)
def test_failing_test_names_per_runner(output: str, names: list[str]) -> None:
    assert list(failing_tests(output)) == names


@pytest.mark.parametrize(
    ("command", "runs_tests"),
    [
        ("python -m pytest -q", True),
        ("cd web && CI=1 npx jest --ci", True),
        ("uv run pytest tests/", True),
        ("./gradlew test", True),
        ("timeout 60 cargo test", True),
        ("python manage.py test", True),
        ("pip install pytest", False),
        ("npm install jest", False),
        ("grep -n pytest setup.cfg", False),
        ("make build", False),
    ],
)
def test_test_commands_are_recognised_by_what_runs(command: str, runs_tests: bool) -> None:
    assert is_test_command(command) is runs_tests


def _bash(
    command: str, output: str = "", exit_code: int | None = 0, error: bool = False
) -> ToolCall:
    return ToolCall("Bash", "command", command, output=output, exit_code=exit_code, error=error)


def test_what_counts_as_a_commit_and_a_run() -> None:
    from coachloop.record.facts import build

    rec = build(
        "t",
        [
            _bash("git commit --dry-run -m x", "On branch main"),
            _bash("python -m pytest -q", "started in the background", exit_code=None),
            ToolCall("BashOutput", "command", "bash_1", output="3 passed in 0.1s", exit_code=0),
            _bash("pytest -x", "Command timed out after 2m", exit_code=None, error=True),
        ],
    )
    assert not rec.committed
    assert [(t.command, t.outcome(), t.ok) for t in rec.tests] == [
        ("bash_1", "3 tests OK", True),
        ("pytest -x", "the command failed", False),
    ]
    assert rec.complete
    handed = build("t", [ToolCall("Task", "other", "Task"), _bash("pytest", "1 passed in 0.1s")])
    assert not handed.complete  # a subagent's calls are in its own transcript


def _line(kind: str, content: object, **extra: object) -> str:
    return json.dumps({"type": kind, "message": {"role": kind, "content": content}, **extra})


def test_a_turn_runs_on_through_hook_feedback_and_starts_at_an_image_prompt(
    tmp_path: Path,
) -> None:
    use = {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "pytest -q"}}
    done = {"type": "tool_result", "tool_use_id": "t1", "content": "2 passed in 0.1s"}
    lines = [
        _line("user", "an earlier prompt"),
        _line("assistant", [{**use, "id": "t0"}]),
        _line("user", [{**done, "tool_use_id": "t0"}]),
        _line("user", [{"type": "image", "source": {}}]),  # this turn's prompt: an image
        _line("assistant", [use], isSidechain=False),
        _line("user", [done]),
        _line("assistant", [{"type": "text", "text": "Done."}]),
        _line("user", "Stop hook feedback:\nShow the output.", isMeta=True),
        _line("assistant", [{"type": "text", "text": "sub"}], isSidechain=True),
        _line("assistant", [{"type": "text", "text": "2 passed."}]),
    ]
    path = tmp_path / "t.jsonl"
    path.write_text("\n".join(lines) + "\n")
    rec = claude_transcript(str(path))
    assert rec.complete and rec.prompt == "(an image)" and rec.final_text == "2 passed."
    assert [c.target for c in rec.calls] == ["pytest -q"] and rec.tests[0].ok


def test_a_subagents_own_transcript_is_its_turn(tmp_path: Path) -> None:
    lines = [
        _line("user", "Find the failing test.", isSidechain=True),
        _line("assistant", [{"type": "text", "text": "test_add fails."}], isSidechain=True),
    ]
    path = tmp_path / "agent-1.jsonl"
    path.write_text("\n".join(lines) + "\n")
    rec = claude_transcript(str(path))
    assert rec.usable and rec.prompt == "Find the failing test."
    assert rec.final_text == "test_add fails."


def test_codex_rollouts_and_gemini_chats_give_records(tmp_path: Path) -> None:
    from coachloop.record import codex_rollout, gemini_chat, read
    from transcript_support import Chat, Rollout

    red = "Chunk ID: 1\nWall time: 0.2 seconds\nProcess exited with code 1\nOutput:\n"
    red += "FAILED test_calc.py::test_add - assert -1 == 5\n1 failed, 1 passed in 0.05s\n"
    rollout = Rollout(tmp_path / "rollout.jsonl").turn("t1", "Fix add().")
    rollout.shell("python -m pytest -q", red).say("All tests pass now.")
    codex = codex_rollout(str(rollout.path))
    assert (
        codex.usable and codex.prompt == "Fix add()." and codex.final_text == "All tests pass now."
    )
    [run] = codex.tests
    assert run.exit_code == 1 and run.failing == ("test_calc.py::test_add",) and not run.ok

    green = "<untrusted_context>\nOutput: ..\n2 passed in 0.01s\nProcess Group PGID: 7\n</untrusted_context>"
    chat = Chat(tmp_path / "chat.jsonl").user("Fix add().")
    chat.shell("python -m pytest -q", green).gemini("Fixed; the tests pass.")
    gemini = gemini_chat(str(chat.path), "Fix add().")
    assert gemini.complete and gemini.final_text == "Fixed; the tests pass."
    assert gemini.last_test is not None and gemini.last_test.ok
    assert not gemini_chat(str(chat.path), None).complete  # a continuation could open it
    missing = read("codex", str(tmp_path / "none.jsonl"))
    assert missing is not None and not missing.usable and "not read" in str(missing.note)
