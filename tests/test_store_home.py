"""One home for every project's sessions: the registry of stores of their own.

Real SQLite files, the real hook entry (`handle`) and the CLI through click's runner.
"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from coachloop.agents.hook import handle
from coachloop.chat.config import BridgeConfig
from coachloop.chat.routing import open_sources
from coachloop.cli import cli
from coachloop.config import home
from coachloop.store import open_store
from coachloop.store.registry import open_stores, registered, registry_dir
from hook_support import trust_project

QUESTION = "Which database should the cart use? I need your call before I go on."


def hook_stop(session: str, cwd: Path) -> None:
    payload = {
        "hook_event_name": "Stop",
        "session_id": session,
        "cwd": str(cwd),
        "last_assistant_message": QUESTION,
        "stop_hook_active": False,
    }
    handle("claude-code", json.dumps(payload).encode())


def own_store(project: Path, url: str = ".coachloop/own.db") -> Path:
    (project / ".git").mkdir(parents=True)
    (project / ".coachloop").mkdir()
    (project / ".coachloop" / "config.toml").write_text(f'[store]\nurl = "{url}"\n')
    trust_project(project)  # a repository's config chooses its store only when trusted
    return project / url


def test_a_project_with_a_store_of_its_own_is_found_from_anywhere(tmp_path: Path) -> None:
    shared, private = tmp_path / "shared", tmp_path / "private"
    (shared / ".git").mkdir(parents=True)
    path = own_store(private)
    hook_stop("s-shared", shared)
    hook_stop("s-private", private)
    assert registered() == [private]  # recorded by the hook's first open, once
    hook_stop("s-private-2", private)
    (entry,) = registry_dir().iterdir()
    assert entry.stat().st_mode & 0o777 == 0o600  # only its owner reads the home
    assert registry_dir().stat().st_mode & 0o777 == 0o700
    with open_store(path) as store:
        assert sorted(s.session_id for s in store.list_sessions()) == ["s-private", "s-private-2"]
    with open_store() as store:
        assert [s.session_id for s in store.list_sessions()] == ["s-shared"]

    opened = open_stores()
    try:
        assert sorted(s.location for s in opened.stores) == sorted(
            [str(home() / "coachloop.db"), str(path)]
        )
    finally:
        opened.close()
    runner = CliRunner()
    rows = json.loads(runner.invoke(cli, ["sessions", "--json"]).output)["sessions"]
    assert sorted(r["session"] for r in rows) == ["s-private", "s-private-2", "s-shared"]
    shown = runner.invoke(cli, ["show", "s-private"])
    assert shown.exit_code == 0 and QUESTION in shown.output
    assert runner.invoke(cli, ["show", "nope"]).exit_code == 2
    only = runner.invoke(cli, ["sessions", "--json", "--project", str(private)]).output
    assert sorted(r["session"] for r in json.loads(only)["sessions"]) == [
        "s-private",
        "s-private-2",
    ]

    sources = open_sources(BridgeConfig())  # the bridge sees both outboxes, no chat mapped
    try:
        pending = {e.session_id for s in sources for e in s.supervisor.reads.outbox_pending()}
        assert pending == {"s-shared", "s-private", "s-private-2"}
    finally:
        for source in sources:
            source.supervisor.close()


def test_a_broken_registered_store_is_reported_and_the_others_still_read(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    own_store(project)
    hook_stop("s1", project)
    hook_stop("s-home", tmp_path)
    (project / "broken.db").write_text("not a database")
    (project / ".coachloop" / "config.toml").write_text('[store]\nurl = "broken.db"\n')
    trust_project(project)
    res = CliRunner().invoke(cli, ["sessions", "--json"])
    assert res.exit_code == 0
    assert [r["session"] for r in json.loads(res.stdout)["sessions"]] == ["s-home"]
    assert "Warning: the store of" in res.stderr and "not a SQLite database" in res.stderr


def test_the_dashboard_shows_every_store_as_one(tmp_path: Path) -> None:
    from coachloop.dashboard import make_dashboard
    from coachloop.dashboard.views import Filters

    shared, private = tmp_path / "shared", tmp_path / "private"
    (shared / ".git").mkdir(parents=True)
    own_store(private)
    hook_stop("s-shared", shared)
    hook_stop("s-private", private)
    dash = make_dashboard(token=None, port=8787, host="127.0.0.1")
    try:
        data = dash.data
        page = data.sessions(Filters(), offset=0, limit=50)
        assert sorted(r.session_id for r in page.rows) == ["s-private", "s-shared"]
        assert page.total == 2 and page.projects == sorted([str(shared), str(private)])
        only = data.sessions(Filters(project=str(private)), offset=0, limit=50)
        assert [r.session_id for r in only.rows] == ["s-private"]
        second = data.sessions(Filters(), offset=1, limit=1)
        assert [r.session_id for r in second.rows] == [page.rows[1].session_id]
        timeline = data.timeline("s-private", before=None, limit=10)
        assert QUESTION in timeline.items[0].text.head
        assert data.changed(page.newest_id, 100)[1] == []  # nothing new since the page
        hook_stop("s-private-2", private)  # a new stop in the project's own store
        mark, ids = data.changed(page.newest_id, 100)
        assert ids == ["s-private-2"] and data.changed(mark, 100) == (mark, [])
        assert sum(t.delivered for t in data.counts(7).per_agent) == 3
    finally:
        dash.close()
