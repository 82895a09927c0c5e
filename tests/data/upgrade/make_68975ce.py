"""Writes `store_68975ce.json`: the stores coachloop 68975ce made, as rows.

Run with the code of 68975ce on the path (its hooks write the stores, as for a user):
    git archive 68975ce src | tar -x -C /tmp/old && \
    PYTHONPATH=/tmp/old/src python tests/data/upgrade/make_68975ce.py
Two projects (`shop`, `blog`), each with its own `.coachloop/coachloop.db`, and the
home's `coachloop.db` (a stop outside any project). One question was sent by the bridge
of that time (its outbox row marked sent), the others wait in the outboxes.
"""

from __future__ import annotations

import json
import os
import sqlite3
import sys
import tempfile
from pathlib import Path

root = Path(tempfile.mkdtemp())
os.environ["COACHLOOP_HOME"] = str(root / "home")
os.environ["COACHLOOP_HOOK_DAEMON"] = "0"

from coachloop.agents.hook import handle  # noqa: E402 - after the environment is set


def hook(agent: str, event: str, session: str, cwd: Path, **fields: object) -> None:
    payload = {"hook_event_name": event, "session_id": session, "cwd": str(cwd), **fields}
    handle(agent, json.dumps(payload).encode())


shop, blog = root / "shop", root / "blog"
for project in (shop, blog):
    (project / ".git").mkdir(parents=True)
hook("claude-code", "UserPromptSubmit", "s-shop-1", shop, prompt="Set up the cart storage")
hook(
    "claude-code",
    "Stop",
    "s-shop-1",
    shop,
    last_assistant_message="Switched the cart to SQLite. It should work now.",
)
hook(
    "claude-code",
    "Stop",
    "s-shop-1",
    shop,
    last_assistant_message="Should the cart use Postgres or SQLite? I need your call before I change the schema.",
    stop_hook_active=True,
)
hook(
    "claude-code",
    "Stop",
    "s-shop-2",
    shop,
    last_assistant_message="The deploy key is missing: I can't push to production without it. Please add it.",
)
hook(
    "codex",
    "Stop",
    "s-blog-1",
    blog,
    last_assistant_message="Which theme should the blog use, light or dark?",
    turn_id="t1",
)
hook(
    "claude-code",
    "Stop",
    "s-home-1",
    Path("/"),
    last_assistant_message="Do you want the report as CSV or as JSON?",
)

out: dict[str, dict[str, list[list[object]]]] = {}
files = {
    "shop": shop / ".coachloop" / "coachloop.db",
    "blog": blog / ".coachloop" / "coachloop.db",
    "home": root / "home" / "coachloop.db",
}
for name, path in files.items():
    db = sqlite3.connect(path)
    if name == "blog":  # the bridge of that time sent this one (mapped chat)
        db.execute("UPDATE outbox SET sent_at = created_at + 1")
        db.commit()
    out[name] = {
        table: [list(r) for r in db.execute(f"SELECT * FROM {table} ORDER BY 1")]
        for table in ("migrations", "sessions", "events", "outbox", "meta")
    }
    db.close()
# Paths as a placeholder: the test writes the layout under its own directory.
sys.stdout.write(json.dumps(out, indent=1).replace(str(root), "{ROOT}") + "\n")
