"""Session ids in their short form (as tables print them) and "did you mean"."""

from __future__ import annotations

from typing import Any

import pytest
from click.testing import CliRunner

from coachloop.cli import cli
from coachloop.cli.ids import AmbiguousId, UnknownId, resolve, short
from coachloop.core.events import HumanMessage, StopEvent
from coachloop.core.verdict import Verdict
from coachloop.supervisor import Supervisor

IDS = ["58e67d78-1111-4aaa-8bbb-000000000001", "58e6ffff-2222-4aaa-8bbb-000000000002"]


def invoke(*args: str) -> Any:
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def test_resolve_full_short_ambiguous_and_close() -> None:
    assert resolve(IDS[0], IDS) == IDS[0]
    assert resolve(short(IDS[0]), IDS) == IDS[0]
    with pytest.raises(AmbiguousId, match="give more characters"):
        resolve("58e6", IDS)
    with pytest.raises(UnknownId, match="did you mean '58e67d78'"):
        resolve("58e67d7a", IDS)
    with pytest.raises(UnknownId) as caught:
        resolve("zzzz", IDS)
    assert "did you mean" not in str(caught.value)


def test_show_accepts_the_short_id_and_suggests_close_ones() -> None:
    sup = Supervisor.open()
    for sid in IDS:
        sup.on_stop(
            StopEvent(sid, text="Done: 3 passed"), Verdict("completion", 0.9, "ok", "rules")
        )
    sup.close()
    res = invoke("show", short(IDS[0]))
    assert res.exit_code == 0, res.output
    assert IDS[0] in res.output
    res = invoke("show", "58e67d7a")
    assert res.exit_code == 2
    assert "did you mean '58e67d78'" in res.output
    assert "Traceback" not in res.output


def test_say_accepts_the_short_id() -> None:
    sup = Supervisor.open()
    sup.on_human(HumanMessage(IDS[0], "start"))
    sup.close()
    res = invoke("say", short(IDS[0]), "--queue", "use the v2 API")
    assert res.exit_code == 0, res.output
    assert f"queued for {IDS[0]}" in res.output
    res = invoke("say", "58e67d7a", "hello")
    assert res.exit_code == 2 and "did you mean '58e67d78'" in res.output
