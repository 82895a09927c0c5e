"""The Codex rollout and Gemini chat readers (`coachloop.transcript_agents`), on files in
the real formats (`transcript_support`), and on the files the real CLIs wrote in their
end-to-end tests' formats; bounded reads; bad and special files."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

from coachloop.transcript_agents import (
    TAIL_STEPS,
    TranscriptCall,
    codex_turn,
    gemini_turn,
    tail_lines,
)
from transcript_support import Chat, Rollout

REASON = "[System Coach] Run the tests and show their output."


# --- Codex ------------------------------------------------------------------------------


def test_codex_turn_has_the_prompt_the_tool_calls_and_the_text_since_the_last_stop(
    tmp_path: Path,
) -> None:
    rollout = Rollout(tmp_path / "r.jsonl")
    rollout.turn("t1", "an older turn").say("old answer")
    rollout.turn("t2", "fix add()").say("Done. It should work now.").hook_prompt(REASON)
    rollout.say("Running them.").shell("pytest -q", "2 passed", "c1").say("2 passed.")
    turn = codex_turn(rollout.path, "t2")
    assert turn is not None
    assert turn.prompt == "fix add()"  # not the <environment_context> block
    assert turn.continuations == (REASON,)
    assert turn.texts == ("Running them.", "2 passed.") and turn.last_text == "2 passed."
    assert turn.tool_calls == (TranscriptCall("exec_command", {"cmd": "pytest -q"}, "2 passed"),)
    last = codex_turn(rollout.path)  # no turn id: the last turn
    assert last is not None and last.prompt == "fix add()"
    older = codex_turn(rollout.path, "t1")
    assert older is not None and older.texts == ("old answer",) and older.tool_calls == ()
    assert codex_turn(rollout.path, "t9") is None


def test_codex_turn_with_nothing_said_since_the_coaching(tmp_path: Path) -> None:
    rollout = Rollout(tmp_path / "r.jsonl").turn("t1", "go").say("It should work.")
    rollout.hook_prompt(REASON).shell("pytest", None)  # a call still without output
    turn = codex_turn(rollout.path, "t1")
    assert turn is not None and turn.last_text is None and turn.texts == ()
    assert turn.tool_calls == (TranscriptCall("exec_command", {"cmd": "pytest"}, None),)


# --- Gemini -----------------------------------------------------------------------------


def test_gemini_turn_opens_at_the_prompt_and_splits_at_each_retry(tmp_path: Path) -> None:
    chat = Chat(tmp_path / "c.jsonl")
    chat.user("fix add()").gemini("an earlier answer").user("fix add()")  # asked twice
    chat.gemini("Done. It should work now.").user(REASON)
    chat.gemini("Running them.").shell("pytest -q", "Output: 2 passed")
    chat.gemini("2 passed.").user("Please continue.").gemini("That is all.")
    turn = gemini_turn(chat.path, "  fix add()\n")
    assert turn is not None and turn.prompt == "fix add()"
    assert turn.continuations == (REASON,)  # Gemini's own nudge is no retry
    assert turn.texts == ("Running them.", "2 passed.", "That is all.")
    assert turn.tool_calls == (
        TranscriptCall("run_shell_command", {"command": "pytest -q"}, "Output: 2 passed"),
    )
    assert gemini_turn(chat.path, "another prompt") is None
    no_prompt = gemini_turn(chat.path)  # the last user text opens it
    assert no_prompt is not None and no_prompt.prompt == REASON


def test_gemini_a_set_of_messages_replaces_the_list(tmp_path: Path) -> None:
    chat = Chat(tmp_path / "c.jsonl").user("old prompt").gemini("old")
    with chat.path.open("a") as fh:  # what a rewind or a compression writes
        messages = [{"id": "n1", "type": "user", "content": [{"text": "new prompt"}]}]
        fh.write(json.dumps({"$set": {"messages": messages}}) + "\n")
    chat.gemini("new answer")
    assert gemini_turn(chat.path, "old prompt") is None
    turn = gemini_turn(chat.path, "new prompt")
    assert turn is not None and turn.texts == ("new answer",)


# --- bounded, and safe on anything -------------------------------------------------------


def test_only_a_bounded_tail_is_read(tmp_path: Path) -> None:
    rollout = Rollout(tmp_path / "r.jsonl").turn("t1", "a turn that began long ago")
    filler = "x" * 10_000
    for _ in range(TAIL_STEPS[-1] // 10_000 + 10):  # more than the largest window
        rollout.say(filler)
    rollout.say("the end")
    assert codex_turn(rollout.path, "t1") is None  # its start is beyond the window
    rollout.turn("t2", "a recent turn").say("the end")
    turn = codex_turn(rollout.path, "t2")
    assert turn is not None and turn.texts == ("the end",)
    rollout.say(filler * 30)  # 300 kB more: beyond the first window
    assert codex_turn(rollout.path, "t2", most=TAIL_STEPS[0]) is None
    assert codex_turn(rollout.path, "t2") is not None
    lines, whole = tail_lines(rollout.path, 1000) or ([], True)
    assert not whole and sum(len(line) + 1 for line in lines) <= 1000


def test_bad_and_special_files_read_as_nothing_and_never_block(tmp_path: Path) -> None:
    binary = tmp_path / "binary.jsonl"
    binary.write_bytes(os.urandom(50_000) + b"\n\xff\xfe{not json\n[1, 2]\n")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    unreadable = tmp_path / "secret.jsonl"
    unreadable.write_text("{}\n")
    unreadable.chmod(0)
    cases = [None, "", tmp_path / "missing.jsonl", tmp_path, binary, fifo, unreadable]
    results: list[object] = []

    def read_all() -> None:
        for path in cases:
            results.append(codex_turn(path))
            results.append(gemini_turn(path, "x"))

    reader = threading.Thread(target=read_all, daemon=True)
    reader.start()
    reader.join(timeout=10)
    assert not reader.is_alive(), "a read blocked"
    assert results == [None] * (2 * len(cases))
