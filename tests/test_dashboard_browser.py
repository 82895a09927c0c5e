"""The dashboard in a real headless Chromium (Debian's package, driven by Playwright)
against a real `coachloop serve` and its real store: the list, a timeline, a live update
arriving, the filter, the token gate, an agent's `<script>` shown as text.

Screenshots go to `.artifacts/dashboard/` (git-ignored). `.ci/run` installs chromium.
"""

from __future__ import annotations

import os
import re
import shutil
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from coachloop.core.events import StopEvent
from coachloop.core.verdict import Verdict
from coachloop.store import open_store
from coachloop.supervisor.writes import record_stop
from dashboard_support import (
    PROJECT_A,
    PROJECT_B,
    QUESTION,
    TOKEN,
    populate,
    post_hook,
    prompt_payload,
    serve_factory_fixture,  # noqa: F401 - a fixture
    stop_payload,
)
from hookd_support import EVIDENCED, HEDGED, SERVE_TOKEN, Serve

pytestmark = pytest.mark.slow

CHROMIUM = os.environ.get("COACHLOOP_CHROMIUM", "/usr/bin/chromium")
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]
ARTIFACTS = Path(__file__).resolve().parents[1] / ".artifacts" / "dashboard"
HOSTILE = (
    '<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2"> Done? <b>bold</b>'
)
WAIT_MS = 20_000

Start = Callable[..., Serve]


@pytest.fixture
def browser(tmp_path: Path) -> Iterator[object]:
    """A fresh headless Chromium profile; a page of it is `browser.new_page()`."""
    if shutil.which(CHROMIUM) is None:
        pytest.fail(f"no Chromium at {CHROMIUM}: apt-get install -y chromium (as .ci/run does)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        context = pw.chromium.launch_persistent_context(
            str(tmp_path / "chromium-profile"),
            executable_path=CHROMIUM,
            headless=True,
            args=FLAGS,
            viewport={"width": 1360, "height": 860},
        )
        try:
            yield context
        finally:
            context.close()


def shot(page: object, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=False)  # type: ignore[attr-defined]


@pytest.fixture
def server(serve_factory: Start, tmp_path: Path, browser: object) -> Serve:
    """A server on the suite's token, the browser signed in to it (`/?token=` sets the
    cookie), whose store holds the three sessions of `populate`, one session fed through
    real hooks ("hooked", coached then delivered) and a hostile message."""
    srv = serve_factory()
    signin = browser.new_page()  # type: ignore[attr-defined]
    signin.goto(f"{srv.url}/?token={SERVE_TOKEN}")
    signin.close()
    store = open_store(str(tmp_path / "dash.db"))
    try:
        populate(store, time.time() - 60)
        record_stop(store, StopEvent("s-hostile", text=HOSTILE, project=PROJECT_A), QUESTION)
        crash = StopEvent(
            "s-crash", text="API Error: 529 overloaded", agent="gemini", project=PROJECT_B
        )
        record_stop(store, crash, Verdict("error", 0.95, "the model call failed", "signal"))
        done = StopEvent("s-done", text=EVIDENCED, agent="codex", project=PROJECT_B)
        record_stop(
            store, done, Verdict("completion", 0.92, "finished, with checkable evidence", "rules")
        )
    finally:
        store.close()
    project = str(tmp_path / "proj")
    post_hook(srv, prompt_payload("hooked", "Fix the login bug", project))
    post_hook(srv, stop_payload("hooked", HEDGED, project))
    post_hook(srv, stop_payload("hooked", EVIDENCED, project, active=True))
    return srv


def test_the_list_and_a_timeline(server: Serve, browser: object) -> None:
    page = browser.new_page()  # type: ignore[attr-defined]
    page.goto(f"{server.url}/")
    rows = page.locator("#rows tr")
    assert rows.count() == 7
    assert rows.first.locator("td.sid").inner_text() == "hooked"
    assert page.locator("#total").inner_text() == "7"
    crashed = page.locator("tr", has=page.locator("a", has_text="s-crash"))
    assert crashed.locator(".badge.status").inner_text() == "failed"
    assert "gemini" in crashed.inner_text()
    capped = page.locator("tr", has=page.locator("a", has_text="s-cap"))
    assert capped.locator(".badge.status").inner_text() == "capped"
    assert capped.locator("td.num").first.inner_text() == "3/3"
    page.wait_for_selector("body[data-live=on]", timeout=WAIT_MS)
    page.set_viewport_size({"width": 1360, "height": 430})
    shot(page, "sessions")
    page.set_viewport_size({"width": 1360, "height": 860})
    page.click("text=hooked")
    page.wait_for_url(re.compile(r"/session/hooked$"))
    items = page.locator("#items > li")
    assert items.count() == 3
    assert "delivered" in items.nth(0).locator(".badge.outcome").inner_text()
    assert "42 passed" in items.nth(0).locator("dl.evidence").inner_text()
    assert "coaching sent back" in items.nth(1).inner_text().lower()
    assert "sent back" in items.nth(1).locator(".badge.outcome").inner_text()
    assert items.nth(2).locator(".kind").inner_text() == "human"
    shot(page, "timeline")
    page.goto(f"{server.url}/stats")
    assert page.locator("svg.chart rect").count() >= 2
    shot(page, "stats")


def test_an_agents_script_is_shown_as_text(server: Serve, browser: object) -> None:
    page = browser.new_page()  # type: ignore[attr-defined]
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.goto(f"{server.url}/session/s-hostile")
    agent_text = page.locator("#items li .agent pre.text").first.inner_text()
    assert agent_text.startswith("<script>window.__pwned = 1</script><img src=x")
    assert page.evaluate("window.__pwned") is None and not dialogs
    assert page.locator("main script").count() == 0 and page.locator("main img").count() == 0
    assert page.locator("main b").count() == 0  # even harmless markup stays text
    shot(page, "hostile")


def test_a_live_update_arrives_without_a_reload(
    server: Serve, browser: object, tmp_path: Path
) -> None:
    page = browser.new_page()  # type: ignore[attr-defined]
    page.goto(f"{server.url}/")
    page.wait_for_selector("body[data-live=on]", timeout=WAIT_MS)
    page.evaluate("window.__same_page = true; document.getElementById('rows').dataset.max = '4'")
    project = str(tmp_path / "proj")
    post_hook(server, stop_payload("fresh-one", "Which port should the API use?", project))
    first = page.locator("#rows tr").first
    first.locator("text=fresh-one").wait_for(timeout=WAIT_MS)
    assert "waiting for you" in first.inner_text()
    assert page.locator("#rows tr").count() == 4  # the page keeps its bounded number of rows
    assert page.evaluate("window.__same_page") is True
    shot(page, "live-row")
    page.goto(f"{server.url}/session/hooked")
    page.wait_for_selector("body[data-live=on]", timeout=WAIT_MS)
    page.evaluate("window.__same_page = true")
    post_hook(server, prompt_payload("hooked", "Now the cookie flags", project, prompt_id="p-2"))
    post_hook(
        server, stop_payload("hooked", "Should the cookie be HttpOnly?", project, prompt_id="p-2")
    )
    page.locator("#items > li", has_text="Should the cookie be HttpOnly?").wait_for(timeout=WAIT_MS)
    assert page.locator("#items > li").count() == 5
    assert "HttpOnly" in page.locator("#items > li").first.inner_text()
    page.locator("#head .badge.status", has_text="waiting for you").wait_for(timeout=WAIT_MS)
    assert page.evaluate("window.__same_page") is True
    shot(page, "live-timeline")


def test_the_filter(server: Serve, browser: object) -> None:
    page = browser.new_page()  # type: ignore[attr-defined]
    page.goto(f"{server.url}/")
    page.select_option("select[name=status]", "waiting")
    page.click("button[type=submit]")
    page.wait_for_url(re.compile(r"status=waiting"))
    shown = page.locator("#rows td.sid").all_inner_texts()
    assert sorted(shown) == ["s-ask", "s-hostile"]
    page.select_option("select[name=agent]", "codex")
    page.select_option("select[name=status]", "")
    page.click("button[type=submit]")
    assert page.locator("#rows td.sid").all_inner_texts() == ["s-done", "s-work"]
    page.select_option("select[name=project]", PROJECT_A)
    page.click("button[type=submit]")
    assert page.locator("#rows td.sid").all_inner_texts() == ["s-work"]
    shot(page, "filtered")
    page.click("text=clear")
    assert page.locator("#rows tr").count() == 7


def test_the_token_gate_in_the_browser(serve_factory: Start, browser: object) -> None:
    server = serve_factory(TOKEN)
    page = browser.new_page()  # type: ignore[attr-defined]
    page.goto(f"{server.url}/stats")
    assert page.locator("input[name=token]").is_visible() and page.locator("table").count() == 0
    shot(page, "login")
    page.fill("input[name=token]", "not-it")
    page.click("button[type=submit]")
    assert page.locator(".error", has_text="not the token").is_visible()
    page.fill("input[name=token]", TOKEN)
    page.click("button[type=submit]")
    page.wait_for_url(re.compile(r"/stats$"))
    assert page.locator("svg.chart").count() == 1
    other = browser.new_page()  # type: ignore[attr-defined]
    other.context.clear_cookies()
    other.goto(f"{server.url}/?token={TOKEN}")
    assert other.url == f"{server.url}/"  # the token left the address bar
    other.wait_for_selector("body[data-live=on]", timeout=WAIT_MS)  # the stream let us in
    other.click("text=log out")
    assert other.locator("input[name=token]").is_visible()
