"""The Stop hook checks the agent's claims against the transcript Claude Code names in
`transcript_path` (real transcripts from tests/data/turns/), in-process and over HTTP
(`coachloop serve`); a stale or bad transcript leaves the message judged alone, noted."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from coachloop.agents.hook import handle
from coachloop.store import open_store
from hook_support import (
    project_fixture,  # noqa: F401 - a fixture
    stop,
)
from hookd_support import AuthConnection, hook_env, start_serve

TURNS = Path(__file__).parent / "data" / "turns"
LABELS = {
    row["name"]: row for row in map(json.loads, (TURNS / "labels.jsonl").read_text().splitlines())
}
AGENT = "claude-code"


def payload(name: str, project: Path, text: str | None = None, **kw: Any) -> bytes:
    data = stop(
        name,
        project,
        LABELS[name]["text"] if text is None else text,
        transcript_path=str(TURNS / f"{name}.jsonl"),
        **kw,
    )
    return json.dumps(data).encode()


def reason(raw: bytes) -> str | None:
    return json.loads(raw)["reason"] if raw else None


def stored_verdict(project: Path, session: str) -> dict[str, Any]:
    with open_store(project=project) as store:
        (rec,) = store.timeline(session)
        assert rec.verdict is not None
        return rec.verdict


def test_a_failing_run_claimed_as_passing_is_blocked_naming_the_tests(project: Path) -> None:
    said = reason(handle(AGENT, payload("pycalc-wrong-fix", project)).stdout)
    assert said is not None and said.startswith("[System Coach]")
    assert "test_calc.py::test_add, test_calc.py::test_add_negative" in said
    assert "`python -m pytest -q` → 2 failed, 1 passed" in said


def test_a_passing_run_not_pasted_is_delivered_with_the_run_cited(project: Path) -> None:
    assert handle(AGENT, payload("pycalc-unpasted", project)).stdout == b""
    verdict = stored_verdict(project, "pycalc-unpasted")
    assert verdict["type"] == "completion"
    assert verdict["evidence"]["recorded"] == [
        "from the transcript: `python -m pytest -q` → 3 tests OK, after the last edit"
    ]


def test_an_edit_after_the_pasted_run_is_blocked_naming_the_file(project: Path) -> None:
    said = reason(handle(AGENT, payload("pyunit-edit-after", project)).stdout)
    assert said is not None and "changed after the last test run" in said
    assert said.count("shapes.py") >= 1 and "Re-run the tests" in said


def test_a_stale_transcript_leaves_the_message_judged_alone(project: Path) -> None:
    text = "I fixed square(). It should work now."
    said = reason(handle(AGENT, payload("pyunit-unpasted", project, text)).stdout)
    assert said is not None and "should work now" in said  # the hedge, from the message
    verdict = stored_verdict(project, "pyunit-unpasted")
    assert "turn record not used" in verdict["reason"] and "stale" in verdict["reason"]


def test_a_missing_transcript_is_noted_and_never_blocks_the_stop(project: Path) -> None:
    data = stop("s1", project, LABELS["pycalc-unpasted"]["text"], transcript_path="/nope.jsonl")
    reply = handle(AGENT, json.dumps(data).encode())
    assert reply.exit_code == 0 and reply.stdout != b""  # judged alone: unverified
    assert "the transcript was not read: no such file" in stored_verdict(project, "s1")["reason"]


def test_the_http_hook_grounds_like_the_command_hook(tmp_path: Path, project: Path) -> None:
    env = hook_env(COACHLOOP_HOME=str(tmp_path / "home"), COACHLOOP_STORE=str(tmp_path / "s.db"))
    daemon = start_serve("--port", "0", "--no-socket", env=env)
    try:
        assert daemon.port is not None
        conn = AuthConnection("127.0.0.1", daemon.port, timeout=30)
        replies = []
        for name in ("pycalc-wrong-fix", "pycalc-unpasted"):
            conn.request("POST", f"/hooks/{AGENT}", body=payload(name, project))
            resp = conn.getresponse()
            assert resp.status == 200
            replies.append(resp.read())
        conn.close()
    finally:
        assert daemon.stop() == 0
    said = reason(replies[0])
    assert said is not None and "test_calc.py::test_add" in said
    assert replies[1] in (b"", b"{}")


def test_judge_transcript_judges_the_last_stop_with_its_record() -> None:
    import subprocess
    import sys

    def judge(name: str) -> dict[str, Any]:
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "coachloop",
                "judge",
                "--json",
                "--transcript",
                str(TURNS / f"{name}.jsonl"),
            ],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        return dict(json.loads(done.stdout))

    red = judge("nodejs-wrong-fix")
    assert red["route"] == "continue" and red["problems"][0]["kind"] == "run_failed"
    assert "whisper" in red["coaching_message"]
    green = judge("nodejs-unpasted")
    assert green["route"] == "deliver"
    assert green["evidence"]["recorded"] == [
        "from the transcript: `node --test` → 2 tests OK, after the last edit"
    ]
    answer = judge("answer-why-red")  # the record's prompt is a question: an answer, delivered
    assert answer["type"] == "completion" and "question" in answer["reason"]
