"""Terminal output: 80 columns, hanging indentation, short ids, plain when piped."""

from __future__ import annotations

import io
import uuid
from typing import Any

import pytest
from click.testing import CliRunner
from rich.console import Console

from coachloop.cli import cli
from coachloop.cli.render import sessions_table, wrap
from coachloop.cli.sessions_cmd import _age
from coachloop.core.events import HumanMessage, StopEvent
from coachloop.core.verdict import Verdict
from coachloop.supervisor import Supervisor

COACHING = (
    "[System Coach] Not done yet.\nYou wrote “It should work now”: that is a guess, not a "
    "result. Check it and show what you ran and what it printed."
)


def test_a_long_labelled_value_wraps_under_its_own_column() -> None:
    line = "    coaching: " + COACHING
    out = wrap(line, 60)
    assert out[0] == "    coaching: [System Coach] Not done yet."
    assert all(len(piece) <= 60 for piece in out)
    assert all(piece.startswith(" " * 14) for piece in out[1:])
    assert " ".join(p.strip() for p in out[1:]).startswith("You wrote “It should work now”")
    narrated = wrap("  agent    " + "word " * 30, 40)
    assert all(piece.startswith(" " * 11) for piece in narrated[1:])


def test_piped_lines_are_whole_but_keep_the_indentation_of_continuations() -> None:
    out = wrap("    coaching: " + COACHING, None)
    assert out == [
        "    coaching: [System Coach] Not done yet.",
        " " * 14 + COACHING.split("\n")[1],
    ]


def rows() -> list[dict[str, Any]]:
    long = "/root/code/very/long/path/to/a/monorepo/packages/frontend-app"
    out = []
    for status, verdict, project in (
        ("running", "status", "/srv/api"),
        ("waiting", "question", long),
        ("done", "completion", "/srv/payments-service"),
    ):
        out.append(
            {
                "session": str(uuid.uuid4()),
                "agent": "claude-code",
                "project": project,
                "status": status,
                "continues": 2,
                "cap": 3,
                "last_verdict": verdict,
                "age_seconds": 7200.0,
                "idle_seconds": 59.0,
                "flags": [],
            }
        )
    return out


def test_the_sessions_table_fits_80_columns_with_short_ids() -> None:
    data = rows()
    buffer = io.StringIO()
    Console(file=buffer, width=80, color_system=None).print(sessions_table(data, _age))
    text = buffer.getvalue()
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= 80
    for row in data:
        assert row["session"][:8] in text and row["session"] not in text
    assert "…/frontend-app" in text and "completion" in text and "…" not in lines[1]
    assert all(h in lines[1] for h in ("session", "agent", "project", "verdict", "idle"))


def test_show_through_a_pipe_is_plain_and_keeps_the_coaching_indented() -> None:
    sid = str(uuid.uuid4())
    sup = Supervisor.open()
    sup.on_human(HumanMessage(sid, "fix it", project="/srv/app", agent="claude-code"))
    hedge = Verdict(
        "status", 0.9, "no evidence", "rules", route="continue", coaching_message=COACHING
    )
    sup.on_stop(StopEvent(sid, text="It should work now.", project="/srv/app"), hedge)
    sup.close()
    res = CliRunner().invoke(cli, ["show", sid[:8]], catch_exceptions=False)
    assert res.exit_code == 0, res.output
    assert "\x1b[" not in res.output  # no colour codes in a pipe
    lines = res.output.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("    coaching: "))
    assert lines[at + 1] == " " * 14 + COACHING.split("\n")[1]
    table = CliRunner().invoke(cli, ["sessions"], catch_exceptions=False).output
    assert sid[:8] in table and sid not in table and "\x1b[" not in table


def test_on_a_terminal_lines_are_wrapped_to_its_width_and_routes_coloured(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from coachloop.cli import render

    monkeypatch.setattr(render, "_terminal", lambda err=False: True)
    monkeypatch.setenv("COLUMNS", "50")
    render.emit(["reason:     " + "a completion claim that does not hold up " * 3])
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) > 2 and all(len(line) <= 49 for line in lines)
    assert all(line.startswith(" " * 12) for line in lines[1:])
    coloured = render._colour("#3 stop    status (0.9, rules) -> continue: why")
    assert "\x1b[" in coloured and "continue" in coloured
    assert render._colour("route:      deliver") != "route:      deliver"


def test_every_session_status_and_verdict_type_has_a_colour() -> None:
    from typing import get_args

    from coachloop.cli.render import STATUS_STYLE, VERDICT_STYLE
    from coachloop.core.session import SessionStatus
    from coachloop.core.verdict import MessageType

    assert set(STATUS_STYLE) == set(get_args(SessionStatus))
    assert set(VERDICT_STYLE) == set(get_args(MessageType))
