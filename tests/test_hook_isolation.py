"""Two sessions in one project never see each other's state: caps, prompts, jobs, failures.

Peers broke when one session's loop hijacked another's through state shared per
project. Here every pair of sessions shares the project, the store file and (in
`handle()`'s process) the cached supervisor, and still each keeps its own count,
context and job ledger, also when their hooks run at the same time.
"""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from hook_support import (
    HEDGE,
    QUESTION,
    call,
    claude,
    decision,
    project_fixture,  # noqa: F401 - a fixture
    prompt,
    run_hook,
    stop,
    store_of,
)

AGENT = "claude-code"


def blocks(session: str, cwd: Path, text: str, prompt_id: str, active: bool) -> bool:
    return (
        decision(call(AGENT, stop(session, cwd, text, prompt_id, stop_hook_active=active)))
        is not None
    )


def test_caps_are_counted_per_session(project: Path) -> None:
    seen: dict[str, list[bool]] = {"A": [], "B": []}
    for i in range(4):
        for sid in ("A", "B") if i % 2 == 0 else ("B", "A"):
            seen[sid].append(blocks(sid, project, f"{HEDGE} {sid}{i}", f"p-{sid}", i > 0))
    assert seen == {"A": [True, True, True, False], "B": [True, True, True, False]}
    with store_of(project) as store:
        assert [store.get_session(s).continues for s in ("A", "B")] == [3, 3]


def test_a_prompt_resets_only_its_own_session(project: Path) -> None:
    for sid in ("A", "B"):
        for i in range(4):
            blocks(sid, project, f"{HEDGE} {i}", f"p-{sid}", i > 0)
    call(AGENT, prompt("A", project, "look again", "p-A2"))
    assert blocks("A", project, HEDGE, "p-A2", False)
    assert not blocks("B", project, f"{HEDGE} more", "p-B", True)


def test_prompts_and_skills_stay_in_their_session(project: Path) -> None:
    call(AGENT, prompt("A", project, "/do-build the exporter", "p1"))
    call(AGENT, prompt("B", project, "/do-docs the exporter", "p1"))
    body_a = decision(call(AGENT, stop("A", project, "Implemented it. Done.", "p1")))
    body_b = decision(call(AGENT, stop("B", project, "Implemented it. Done.", "p1")))
    assert body_a is not None and body_b is not None
    assert "/do-build" in body_a["reason"] and "/do-docs" not in body_a["reason"]
    assert "/do-docs" in body_b["reason"] and "/do-build" not in body_b["reason"]
    with store_of(project) as store:
        a, b = store.get_session("A"), store.get_session("B")
        assert (a.context.prompt, a.context.skill) == ("/do-build the exporter", "/do-build")
        assert (b.context.prompt, b.context.skill) == ("/do-docs the exporter", "/do-docs")


def test_the_same_job_id_in_two_sessions_does_not_collide(project: Path) -> None:
    assert blocks("A", project, HEDGE, "same-id", False)  # A's job "same-id" is continued
    # B's first stop of its own "same-id" job is no duplicate of A's continuation
    assert call(AGENT, stop("B", project, QUESTION, "same-id")).stdout == b""
    with store_of(project) as store:
        assert [r.decision for r in store.timeline("B")] == ["deliver"]
        assert [e.session_id for e in store.outbox_pending()] == ["B"]


def test_a_failure_in_one_session_leaves_the_other_running(project: Path) -> None:
    failure = claude("StopFailure", "A", project, prompt_id="p", error="overloaded")
    call(AGENT, failure)
    assert not blocks("A", project, HEDGE, "p2", False)
    assert blocks("B", project, HEDGE, "p", False)
    with store_of(project) as store:
        assert [store.get_session(s).status for s in ("A", "B")] == ["failed", "running"]


def test_sessions_without_a_usable_id_never_share_a_key(project: Path) -> None:
    assert blocks("A", project, HEDGE, "p", False)
    for bad in ("", "  ", None, 7):
        data = stop("A", project, HEDGE, "p")
        data["session_id"] = bad
        assert call(AGENT, data).stdout == b""
    missing = stop("A", project, HEDGE, "p")
    del missing["session_id"]
    assert call(AGENT, missing).stdout == b""
    with store_of(project) as store:
        assert [s.session_id for s in store.list_sessions()] == ["A"]
        assert store.get_session("A").continues == 1


def test_concurrent_sessions_keep_their_own_counts(project: Path) -> None:
    def run(sid: str) -> list[bool]:
        call(AGENT, prompt(sid, project, f"task of {sid}", f"p-{sid}"))
        return [blocks(sid, project, f"{HEDGE} {sid} {i}", f"p-{sid}", i > 0) for i in range(5)]

    sessions = [f"S{i}" for i in range(8)]
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = dict(zip(sessions, pool.map(run, sessions), strict=True))
    assert all(r == [True, True, True, False, False] for r in results.values()), results
    with store_of(project) as store:
        for sid in sessions:
            state = store.get_session(sid)
            assert (state.continues, state.context.prompt) == (3, f"task of {sid}")
            assert len(store.timeline(sid)) == 6


def test_two_real_hook_processes_at_once(project: Path) -> None:
    payloads = [json.dumps(stop(sid, project, HEDGE, "p")).encode() for sid in ("A", "B")]
    with ThreadPoolExecutor(max_workers=2) as pool:
        outs = list(pool.map(lambda raw: run_hook(AGENT, raw), payloads))
    assert [json.loads(o.stdout)["decision"] for o in outs] == ["block", "block"]
    with store_of(project) as store:
        assert [store.get_session(s).continues for s in ("A", "B")] == [1, 1]
