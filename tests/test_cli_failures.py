"""Every command's typical failures end in one clear line, never a traceback.

Each case runs the installed command line in a fresh process (a missing extra is made
missing for real: `sys.modules[name] = None` makes its import fail exactly as an
uninstalled package does) and checks the exit status, that the error is a single line
naming what to do, and that no traceback (nor a secret) reaches the terminal.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

TOKEN = "123456:AAbbCCddEEffGGhhIIjjKKllMMnnOOppQQr"
CLOSED = "http://127.0.0.1:9"

_RUN = (
    "import sys\n"
    "for name in sys.argv[1].split(','):\n"
    "    if name: sys.modules[name] = None\n"
    "from coachloop.entry import main\n"
    "main(sys.argv[2:])\n"
)


def coachloop(
    *args: str, cwd: Path, env: dict[str, str] | None = None, missing: str = ""
) -> subprocess.CompletedProcess[str]:
    full = {**os.environ, **(env or {})}
    return subprocess.run(
        [sys.executable, "-c", _RUN, missing, *args],
        cwd=cwd,
        env=full,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def one_line_error(proc: subprocess.CompletedProcess[str]) -> str:
    """The single error line of a failed command (asserting there is exactly one)."""
    everything = proc.stdout + proc.stderr
    assert "Traceback" not in everything, everything
    assert TOKEN not in everything
    lines = [line for line in proc.stderr.splitlines() if line.lower().startswith("error:")]
    assert len(lines) == 1, proc.stderr
    return lines[0]


@pytest.fixture
def project(tmp_path: Path) -> Path:
    folder = tmp_path / "project"
    folder.mkdir()
    (folder / "req.md").write_text("Add a function.\n")
    (folder / "bad.jsonl").write_text("{bad\n")
    (folder / ".claude").mkdir()
    (folder / ".claude" / "settings.json").write_text("{not json")
    return folder


CASES: list[tuple[str, list[str], dict[str, str], str, int, str]] = [
    # (name, args, env, missing modules, exit status, text the line must hold)
    ("misspelt command", ["sesions"], {}, "", 2, "did you mean 'sessions'?"),
    ("unknown session", ["show", "nope"], {}, "", 2, "unknown session"),
    ("missing batch file", ["judge", "--batch", "absent.jsonl"], {}, "", 2, "absent.jsonl"),
    ("missing transcript", ["judge", "--transcript", "absent.jsonl"], {}, "", 2, "absent"),
    (
        "unreachable redis",
        ["sessions", "--store", "redis://127.0.0.1:9/0"],
        {},
        "",
        2,
        "cannot reach redis",
    ),
    ("redis extra missing", ["sessions", "--store", "redis://x:1/0"], {}, "redis", 2, "[redis]"),
    (
        "telegram extra missing",
        ["bridge"],
        {"COACHLOOP_TELEGRAM_TOKEN": TOKEN},
        "telegram",
        1,
        "[telegram]",
    ),
    (
        "bot api unreachable",
        ["bridge"],
        {"COACHLOOP_TELEGRAM_TOKEN": TOKEN, "COACHLOOP_TELEGRAM_API_URL": CLOSED},
        "",
        1,
        "cannot reach the telegram bot api",
    ),
    (
        "llm extra missing",
        ["duel", "req.md", "--coach", "anthropic"],
        {"ANTHROPIC_API_KEY": "sk-test"},
        "anthropic",
        4,
        "[anthropic]",
    ),
    ("dashboard extra missing", ["dashboard", "--no-browser"], {}, "jinja2", 1, "[dashboard]"),
    ("claude extra missing", ["run", "--sdk", "hi"], {}, "claude_agent_sdk", 2, "[claude]"),
    ("no claude binary", ["run", "hi"], {"COACHLOOP_CLAUDE": "/nonexistent"}, "", 2, "claude"),
    ("bad resume id", ["run", "--resume", "bad", "hi"], {}, "", 2, "no session 'bad'"),
    ("missing requirements", ["duel", "absent.md"], {}, "", 4, "absent.md"),
    ("bench: missing file", ["bench", "absent.jsonl"], {}, "", 2, "does not exist"),
    ("bench: bad file", ["bench", "bad.jsonl"], {}, "", 2, "bad.jsonl:1: not valid json"),
    ("demo: no claude", ["demo"], {"COACHLOOP_CLAUDE": "/nonexistent"}, "", 2, "coachloop_claude"),
    ("install: missing dir", ["install", "--dir", "absent"], {}, "", 2, "does not exist"),
    (
        "uninstall: bad settings",
        ["uninstall", "--agent", "claude-code"],
        {},
        "",
        2,
        "not valid json",
    ),
    ("maintain: no redis", ["maintain", "--store", "redis://127.0.0.1:9/0"], {}, "", 2, "redis"),
    ("say: unknown session", ["say", "nope", "hi"], {}, "", 2, "unknown session"),
    ("port out of range", ["serve", "--port", "99999"], {}, "", 2, "99999"),
]


@pytest.mark.parametrize("case", CASES, ids=[case[0] for case in CASES])
def test_each_failure_is_one_clear_line(
    project: Path, case: tuple[str, list[str], dict[str, str], str, int, str]
) -> None:
    _, args, env, missing, status, needle = case
    proc = coachloop(*args, cwd=project, env=env, missing=missing)
    assert proc.returncode == status, proc.stdout + proc.stderr
    assert needle in one_line_error(proc).lower()


def test_a_missing_extra_names_the_pip_command(project: Path) -> None:
    proc = coachloop(
        "bridge", cwd=project, env={"COACHLOOP_TELEGRAM_TOKEN": TOKEN}, missing="telegram"
    )
    line = one_line_error(proc)
    assert "pip install" in line
    assert "[telegram]" in line


def test_debug_shows_the_traceback_of_an_unexpected_error(project: Path) -> None:
    env = {"COACHLOOP_TELEGRAM_TOKEN": TOKEN}
    plain = coachloop("bridge", cwd=project, env=env, missing="telegram")
    debug = coachloop("--debug", "bridge", cwd=project, env=env, missing="telegram")
    assert "Traceback" not in plain.stderr
    assert "Traceback" in debug.stderr
    assert "ModuleNotFoundError" in debug.stderr


def test_batch_lines_echo_their_id(project: Path) -> None:
    stops = project / "stops.jsonl"
    stops.write_text(json.dumps({"id": "a-1", "text": "Fixed it. Should work now."}) + "\n")
    proc = coachloop("judge", "--batch", str(stops), cwd=project)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout.splitlines()[0])["id"] == "a-1"
