"""The dashboard's queries and pages over real stores (SQLite, and the real Redis through
the `Store` protocol): the sessions list with its statuses, filters and pages, a
timeline with its cursor, deliveries, live changes, counts, folding, redaction, escaping."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from coachloop.core.events import StopEvent
from coachloop.dashboard.app import Dashboard
from coachloop.dashboard.data import open_data
from coachloop.dashboard.seam import DashboardData
from coachloop.dashboard.views import Filters
from coachloop.dashboard.web import Request
from coachloop.store import Store, UnknownSession
from coachloop.supervisor.writes import record_stop
from dashboard_support import (
    PROJECT_A,
    PROJECT_B,
    QUESTION,
    TOKEN,
    get,
    html,
    in_process,
    populate,
)


@pytest.fixture
def data(store: Store) -> DashboardData:
    populate(store, time.time())
    return open_data(store, [TOKEN])


def ids(page: object) -> list[str]:
    return [r.session_id for r in page.rows]  # type: ignore[attr-defined]


def test_sessions_newest_first_with_status_cap_and_last_verdict(data: DashboardData) -> None:
    page = data.sessions(Filters(), offset=0, limit=50)
    assert ids(page) == ["s-ask", "s-work", "s-cap"] and page.total == 3
    rows = {r.session_id: r for r in page.rows}
    assert (rows["s-work"].status, rows["s-work"].agent, rows["s-work"].continues) == (
        "working",
        "codex",
        1,
    )
    assert (
        rows["s-cap"].status == "capped" and rows["s-cap"].continues == 3 and rows["s-cap"].cap == 3
    )
    assert rows["s-cap"].outcome == "capped" and rows["s-cap"].verdict_type == "status"
    assert rows["s-ask"].status == "waiting" and rows["s-ask"].outcome == "delivered"
    assert rows["s-ask"].reason == "asks which database" and rows["s-ask"].project == PROJECT_B
    assert rows["s-cap"].stops == 4 and page.projects == [PROJECT_A, PROJECT_B]
    assert page.agents == ["claude-code", "codex"] and page.newest_id > 0


@pytest.mark.parametrize(
    ("filters", "expected"),
    [
        (Filters(project=PROJECT_A), ["s-work", "s-cap"]),
        (Filters(agent="codex"), ["s-work"]),
        (Filters(status="working"), ["s-work"]),
        (Filters(status="waiting"), ["s-ask"]),
        (Filters(status="capped"), ["s-cap"]),
        (Filters(status="done"), []),
        (Filters(project=PROJECT_A, agent="claude-code", status="capped"), ["s-cap"]),
        (Filters(project="/nowhere"), []),
    ],
)
def test_filters(data: DashboardData, filters: Filters, expected: list[str]) -> None:
    page = data.sessions(filters, offset=0, limit=50)
    assert ids(page) == expected and page.total == len(expected)


def test_pages_and_query_strings(data: DashboardData) -> None:
    assert ids(data.sessions(Filters(), offset=1, limit=1)) == ["s-work"]
    assert ids(data.sessions(Filters(), offset=3, limit=1)) == []
    parsed = Filters.from_query({"status": ["bogus"], "agent": [" codex "], "project": [""]})
    assert parsed == Filters(agent="codex") and parsed.query(page=2) == "agent=codex&page=2"


def test_timeline_newest_first_with_cursor_and_deliveries(
    store: Store, data: DashboardData
) -> None:
    page = data.timeline("s-cap", before=None, limit=3)
    kinds = [(i.kind, i.outcome) for i in page.items]
    assert kinds == [("stop", "capped"), ("stop", "sent back"), ("stop", "sent back")]
    assert page.header.prompt == "Fix the login bug" and page.header.row.status == "capped"
    assert page.items[0].deliveries and page.items[0].deliveries[0].sent_at is None
    assert page.items[1].message.head.startswith("[System Coach] Run the tests")
    rest = data.timeline("s-cap", before=page.older, limit=3)
    assert [(i.kind, i.outcome) for i in rest.items] == [("stop", "sent back"), ("human", None)]
    assert rest.older is None and rest.items[-1].text.head == "Fix the login bug"
    newest = page.items[0].id
    for entry in store.outbox_pending():
        store.mark_sent(entry.id, sent_at=1234.0)
    again = data.timeline("s-cap", before=None, limit=1).items[0]
    assert again.deliveries[0].sent_at is not None
    assert data.items_after("s-cap", page.items[2].id, 10)[-1].id == newest
    with pytest.raises(UnknownSession):
        data.timeline("nope", before=None, limit=10)


def test_changed_sessions_since_a_mark(store: Store, data: DashboardData) -> None:
    mark = data.sessions(Filters(), offset=0, limit=1).newest_id
    assert data.changed(mark, 100) == (mark, [])
    record_stop(
        store, StopEvent("s-work", text="Parser done?", agent="codex", project=PROJECT_A), QUESTION
    )
    new_mark, changed = data.changed(mark, 100)
    assert changed == ["s-work"] and new_mark > mark
    [row] = data.rows(changed)
    assert row.status == "waiting" and row.verdict_type == "question"


def test_counts_per_day_and_agent(data: DashboardData) -> None:
    counts = data.counts(7)
    assert len(counts.per_day) == 7 and counts.per_day[-1].total == 6
    today = counts.per_day[-1]
    assert (today.delivered, today.sent_back, today.capped, today.dropped) == (1, 4, 1, 0)
    agents = {t.label: (t.delivered, t.sent_back, t.capped) for t in counts.per_agent}
    assert agents == {"claude-code": (1, 3, 1), "codex": (0, 1, 0)}


def test_pages_render_escaped_folded_and_redacted(store: Store) -> None:
    secret = "sk-ant-" + "a1b2c3d4" * 5
    long_text = "<script>alert(1)</script> head " + "x" * 5000 + f" {TOKEN} {secret} the tail end"
    record_stop(store, StopEvent("s-x", text=long_text, project=PROJECT_A), QUESTION)
    dash = in_process(store, TOKEN)
    auth = {"Authorization": f"Bearer {TOKEN}"}
    page = html(get(dash, "/session/s-x", **auth))
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page and "<script>alert" not in page
    assert "characters folded" in page and "the tail end" in page and "x" * 3000 not in page
    full = html(get(dash, f"/session/s-x/event/{store.timeline('s-x')[0].id}", **auth))
    assert "x" * 5000 in full and "[REDACTED]" in full
    for body in (page, full, html(get(dash, "/", **auth))):
        assert TOKEN not in body and secret not in body


def test_the_list_page_and_its_links(store: Store) -> None:
    populate(store, time.time())
    record_stop(store, StopEvent("odd id/with?chars", text="Done?", project=PROJECT_A), QUESTION)
    dash: Dashboard = in_process(store)
    page = html(get(dash, "/?status=capped"))
    assert 'href="/session/s-cap"' in page and "s-work" not in page
    assert re.search(r'data-stream="/events\?status=capped&amp;since=\d+"', page)
    odd = html(get(dash, "/"))
    assert 'href="/session/odd%20id%2Fwith%3Fchars"' in odd
    assert "Done?" in html(get(dash, "/session/odd%20id%2Fwith%3Fchars"))
    assert get(dash, "/session/none").status == 404
    assert "stops per day" in html(get(dash, "/stats?days=7")).lower()


def test_snapshots_are_linked_and_shown_redacted(store: Store) -> None:
    from coachloop.core.verdict import Verdict
    from coachloop.snapshot_pack import name
    from coachloop.supervisor import Supervisor

    populate(store, time.time())
    ask = Verdict("question", 0.9, "asks", "rules")
    Supervisor(store).on_stop(StopEvent("s-ask", text=f"Which database? KEY={TOKEN}"), ask)
    [life] = store.lifecycle("s-ask")  # kept in the store: no file per stop
    dash = in_process(store, TOKEN)
    auth = {"Authorization": f"Bearer {TOKEN}"}
    timeline = html(get(dash, "/session/s-ask", **auth))
    assert f'href="/session/s-ask/snapshot/{name(life)}"' in timeline
    shown = html(get(dash, f"/session/s-ask/snapshot/{name(life)}", **auth))
    assert "Which database?" in shown and TOKEN not in shown and "[REDACTED]" in shown
    assert (
        get(dash, f"/session/s-ask/snapshot/x_{life.event_id}_deliver.json", **auth).status == 404
    )
    assert get(dash, "/session/s-ask/snapshot/..%2F..%2Fconfig.toml", **auth).status == 404


def test_a_store_that_cannot_be_read_is_a_page_not_a_crash(tmp_path: Path) -> None:
    from coachloop.dashboard import make_dashboard

    bogus = tmp_path / "notes.db"
    bogus.write_text("my notes, not a database\n")
    dash = make_dashboard(token=None, port=8787, host="127.0.0.1", store=str(bogus))
    response = get(dash, "/")
    assert response.status == 503 and b"not a SQLite database" in response.body
    assert bogus.read_text() == "my notes, not a database\n"

    def broken() -> DashboardData:
        raise RuntimeError("a bug")

    assert (
        Dashboard(broken, dash.gate).handle(Request.parse("GET", "/", {"Host": "127.0.0.1"})).status
        == 500
    )


def test_a_timeline_shown_again_shows_a_delivery_accepted_since(store: Store) -> None:
    from coachloop.dashboard import app

    populate(store, time.time())
    dash = in_process(store)
    first = html(get(dash, "/session/s-ask"))
    assert "waiting for the chat" in first and "accepted by the chat" not in first
    (entry,) = [e for e in store.outbox_pending() if e.session_id == "s-ask"]
    store.mark_sent(entry.id)
    again = html(get(dash, "/session/s-ask"))  # built and rendered items are reused...
    assert "accepted by the chat" in again and "waiting for the chat" not in again
    small = app.ItemHtml(dash.env, size=2)  # ...within a bound
    for item in dash.data.timeline("s-cap", before=None, limit=10).items:
        small(item, "s-cap")
    assert len(small._done) == 2
