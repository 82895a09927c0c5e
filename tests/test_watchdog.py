"""The watchdog, on both backends: flag once, alert once, clean up stale state."""

from __future__ import annotations

import pytest

from coachloop.core.events import HumanMessage, StopEvent
from coachloop.core.verdict import Verdict
from coachloop.store import Store
from coachloop.supervisor import Supervisor, watchdog
from coachloop.supervisor.watchdog import Limits, tool_signature
from coachloop.supervisor.writes import record_human, record_stop

STATUS = Verdict("status", 0.9, "mid-work", "rules", route="continue", coaching_message="go")
QUESTION = Verdict("question", 0.9, "asks", "rules")
ERROR = Verdict("error", 0.9, "crash", "signal")
T0 = 1_000_000.0
MIN, HOUR, DAY = 60.0, 3600.0, 86_400.0


def check(store: Store, now: float, limits: Limits | None = None) -> list[watchdog.Alert]:
    return watchdog.check(Supervisor(store, snapshots_on=False), now, limits)


def cleanup_stale(store: Store, now: float, limits: Limits | None = None) -> watchdog.Report:
    return watchdog.cleanup_stale(Supervisor(store, snapshots_on=False), now, limits)


def alerts(store: Store) -> list[str]:
    return [e.text for e in store.outbox_pending(1000) if e.kind == "alert"]


def test_a_silent_running_session_is_alerted_once(store: Store) -> None:
    record_stop(
        store, StopEvent("s1", text="working", agent="codex", project="/p", timestamp=T0), STATUS
    )
    assert check(store, T0 + 10 * MIN) == []
    [alert] = check(store, T0 + 31 * MIN)
    assert alert == watchdog.Alert("s1", ("silent",))
    assert check(store, T0 + 40 * MIN) == []  # flagged: not repeated
    texts = alerts(store)
    assert len(texts) == 1 and "s1 (codex, /p) has been silent for 31 min" in texts[0]
    record_stop(store, StopEvent("s1", text="more", timestamp=T0 + 41 * MIN), STATUS)  # clears it
    assert [a.conditions for a in check(store, T0 + 80 * MIN)] == [("silent",)]


def test_waiting_sessions_are_not_silent(store: Store) -> None:
    record_stop(store, StopEvent("s1", text="Which DB?", timestamp=T0), QUESTION)
    assert check(store, T0 + 5 * HOUR) == []


def test_long_runs_and_repeated_tool_calls_come_as_one_alert(store: Store) -> None:
    record_human(store, HumanMessage("s1", "build it", timestamp=T0))
    record_stop(store, StopEvent("s1", text="step", timestamp=T0 + 4 * HOUR + 50 * MIN), STATUS)
    sig = tool_signature("Bash", {"command": "pytest -x"})
    record_stop(
        store,
        StopEvent("s1", text="again", timestamp=T0 + 4 * HOUR + 55 * MIN),
        STATUS,
        tool_run=(sig, 5),
    )
    [alert] = check(store, T0 + 5 * HOUR)
    assert alert.conditions == ("running", "repeat")
    [text] = alerts(store)
    assert "running for 5.0 h" in text and "same tool call 5 times" in text
    assert check(store, T0 + 5 * HOUR + MIN) == []
    record_human(store, HumanMessage("s1", "stop that", timestamp=T0 + 6 * HOUR))  # clears all
    assert store.get_session("s1").flags == ()


def test_a_failed_session_with_held_back_errors_is_summarised(store: Store) -> None:
    for i in range(3):
        record_stop(store, StopEvent("s1", text=f"crash {i}", timestamp=T0 + i), ERROR)
    [alert] = check(store, T0 + HOUR)
    assert alert.conditions == ("errors",)
    assert "3 errors since" in alerts(store)[0]
    res = record_stop(store, StopEvent("s1", text="ok?", timestamp=T0 + 2 * HOUR), QUESTION)
    assert res.decision.notices == ()  # the watchdog already told; not repeated


def test_stale_sessions_are_abandoned_then_forgotten(store: Store) -> None:
    record_stop(store, StopEvent("live", text="w", timestamp=T0), STATUS)
    record_stop(store, StopEvent("asked", text="q?", timestamp=T0), QUESTION)
    report = cleanup_stale(store, T0 + 25 * HOUR)
    assert report.abandoned == ["live"] and report.forgotten == []
    assert store.get_session("live").status == "abandoned"
    assert store.get_session("asked").status == "waiting"
    assert check(store, T0 + 26 * HOUR) == []  # abandoned sessions stop waking the watchdog
    report = cleanup_stale(store, T0 + 31 * DAY)
    assert sorted(report.forgotten) == ["asked", "live"]
    assert store.list_sessions() == []


def test_run_does_both(store: Store) -> None:
    record_stop(store, StopEvent("s1", text="w", timestamp=T0), STATUS)
    report = watchdog.run(
        Supervisor(store, snapshots_on=False), T0 + 2 * DAY, Limits(silent_after=MIN)
    )
    assert [a.conditions for a in report.alerts] == [("silent", "running")]
    assert report.abandoned == ["s1"]


def test_signatures_and_limits() -> None:
    a = tool_signature("Bash", {"command": "ls", "cwd": "/"})
    assert a == tool_signature("Bash", {"cwd": "/", "command": "ls"}) and a.startswith("Bash:")
    assert a != tool_signature("Bash", {"command": "ls -a", "cwd": "/"})
    with pytest.raises(ValueError):
        Limits(repeat_threshold=1)
    with pytest.raises(ValueError):
        Limits(silent_after=0)


def test_a_turn_spinning_on_one_tool_call_is_alerted_at_its_stop(store: Store) -> None:
    """Wired from the turn's record: 5 identical calls in a row raise "repeat" at once."""
    from coachloop.core.record import ToolCall, TurnRecord

    pytest_x = ToolCall("Bash", "command", "pytest -x", exit_code=1)
    calls = (ToolCall("Read", "read", "src/a.py"), *[pytest_x] * 5, ToolCall("Read", "read", "b"))
    record = TurnRecord("claude-transcript", calls)
    assert watchdog.tool_run(record) == (tool_signature("Bash", "pytest -x"), 5)
    assert watchdog.tool_run(TurnRecord.unusable("x", "stale")) is None
    sup = Supervisor(store, snapshots_on=False, clock=lambda: T0)
    sup.on_stop(StopEvent("s1", text="still failing", timestamp=T0), STATUS, record)
    [text] = alerts(store)
    assert "repeated the same tool call 5 times in a row" in text
    assert store.get_session("s1").flags == ("repeat",)
    short = TurnRecord("claude-transcript", (pytest_x,) * 4)
    sup.on_stop(StopEvent("s2", text="still failing", timestamp=T0), STATUS, short)
    assert len(alerts(store)) == 1  # 4 in a row: under the threshold
