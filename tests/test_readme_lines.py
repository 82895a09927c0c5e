"""Every shell line of the README's code blocks works as printed.

Each line of each ```sh block (continuations joined, `&&` chains split into parts) is
run in order, in one fresh temporary git project with its own HOME, with the installed
package's scripts first on PATH (what activating `.venv` does). A part is skipped only
when `SKIPPED` lists it with the reason (an outside service, the whole test suite, or a
step another test runs already); `pip install` parts are checked, not run: the extra
they name must exist in pyproject.toml. A new README line is run by default, so it must
work or be listed here. The `SESSION` placeholder is the short id of a stop the test
makes through the hook `install` wrote. The TOML example must load as configuration.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest

from coachloop.config import load_settings

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
BIN = Path(sys.executable).parent
SESSION_ID = "5f0c1d2e-aaaa-4bbb-8ccc-123456789abc"

# part of a line (regular expression, searched) -> why it is not run here
SKIPPED: dict[str, str] = {
    r"^python3 -m venv \.venv$": "makes the venv; the test runs in the installed package's "
    "venv (its scripts first on PATH)",
    r"^coachloop demo$": "a real Claude Code session (~25 s): run once by "
    "tests/test_e2e_claude_code.py::test_demo_runs_a_real_session_that_is_coached_and_then_delivered",
    r"^pytest$": "the whole test suite (what CI runs)",
    r"^coachloop dashboard$": "starts a server and opens a browser; "
    "tests/test_dashboard_http.py and tests/test_dashboard_browser.py cover it",
    r"--transcript ~/\.claude/": "names the user's own Claude Code transcript (… is a placeholder); "
    "tests/test_cli_judge.py judges real transcripts",
    r"^COACHLOOP_JUDGE=anthropic ": "needs a real Anthropic API key (real model calls are blocked "
    "in tests); tests/test_llm_judge.py covers it against the local Messages API",
    r"^COACHLOOP_JUDGE=openai ": "needs a local Ollama / vLLM / llama.cpp server; "
    "tests/test_llm_judge.py covers it against the local OpenAI-compatible API",
}
# part -> the exit statuses that mean "worked as documented" (default: 0)
EXIT: dict[str, tuple[int, ...]] = {
    # a Codex hook installed but not trusted yet is reported, with the step, as exit 1
    r"^coachloop doctor$": (0, 1),
}
# part -> the working directory: "repo" for lines naming the clone's own files
CWD: dict[str, str] = {r"^coachloop bench tests/data/": "repo"}
# files the examples read, created in the project first
FILES = {
    "answer.txt": "CI is red because the lint job fails on an unused import in app.py.\n",
    "stops.jsonl": json.dumps({"id": "s1", "text": "Fixed it. It should work now."}) + "\n",
}


@dataclass
class Part:
    line: str  # the README line (continuations joined)
    command: str  # this `&&` part of it, `.venv/bin/` dropped


def blocks(lang: str) -> list[str]:
    """The bodies of the README's ```lang code blocks."""
    text = README.read_text(encoding="utf-8")
    return re.findall(rf"^```{lang}\n(.*?)^```", text, flags=re.S | re.M)


def parts() -> list[Part]:
    out = []
    for body in blocks("sh"):
        for raw in body.replace("\\\n", " ").splitlines():
            line = re.sub(r"\s+#\s.*$", "", raw).strip()  # a trailing comment
            if not line:
                continue
            for part in line.split("&&"):
                out.append(Part(line, re.sub(r"(^|\s)\.venv/bin/", r"\1", part.strip())))
    return out


def match(table: dict[str, object], command: str) -> object | None:
    return next((value for key, value in table.items() if re.search(key, command)), None)


def test_the_readme_has_the_lines_this_test_knows() -> None:
    commands = [p.command for p in parts()]
    assert len(commands) > 15
    for pattern in SKIPPED:  # a stale entry would hide nothing and mislead
        assert any(re.search(pattern, c) for c in commands), pattern


def test_the_toml_example_is_a_valid_configuration(tmp_path: Path) -> None:
    (example,) = blocks("toml")
    (tmp_path / ".coachloop").mkdir()
    (tmp_path / ".coachloop" / "config.toml").write_text(example)
    settings = load_settings(tmp_path, env={})
    assert settings.max_auto_continues == 3
    assert [s.name for s in settings.skills] == ["/do-release"]


def _pip_extras(command: str) -> list[str]:
    found = re.findall(r"\[([a-z,-]+)\]", command)
    return [extra for group in found for extra in group.split(",")]


def _stop(project: Path, env: dict[str, str]) -> None:
    """One Stop through the hook `coachloop install --project` wrote."""
    settings = json.loads((project / ".claude" / "settings.json").read_text())
    command = settings["hooks"]["Stop"][0]["hooks"][0]["command"]
    payload = {
        "session_id": SESSION_ID,
        "transcript_path": "/nonexistent/t.jsonl",
        "cwd": str(project),
        "hook_event_name": "Stop",
        "stop_hook_active": False,
        "last_assistant_message": "Fixed the bug. It should work now.",
    }
    done = subprocess.run(
        command,
        shell=True,
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        cwd=project,
        env=env,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0 and '"decision": "block"' in done.stdout, done


def test_every_readme_line_runs_in_a_fresh_project(tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    for name, text in FILES.items():
        (project / name).write_text(text)
    home = tmp_path / "home"
    home.mkdir()
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]
    env = {
        **os.environ,
        "HOME": str(home),
        "COACHLOOP_HOME": str(home / ".coachloop"),
        "COACHLOOP_HOOK_DAEMON": "0",
        "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}",
    }
    failures: list[str] = []
    shown: list[bool] = []
    ran = 0
    for part in parts():
        command = part.command
        if match(SKIPPED, command) is not None:
            continue
        if re.match(r"(\S*/)?pip3? install", command):
            unknown = [e for e in _pip_extras(command) if e not in extras]
            if unknown or "-e" not in command.split():
                failures.append(f"{command}: unknown extra {unknown} or not from the clone (-e)")
            continue
        if "SESSION" in command:
            command = command.replace("SESSION", SESSION_ID[:8])
        cwd = ROOT if match(CWD, command) == "repo" else project
        done = subprocess.run(
            command,
            shell=True,
            capture_output=True,
            text=True,
            cwd=cwd,
            env=env,
            timeout=120,
            check=False,
        )
        ran += 1
        allowed = match(EXIT, command) or (0,)
        output = done.stdout + done.stderr
        assert isinstance(allowed, tuple)
        if done.returncode not in allowed or "Traceback" in output:
            failures.append(f"{command!r} exited {done.returncode}:\n{output[-1500:]}")
        if command == "coachloop install --project" and done.returncode == 0:
            _stop(project, env)
        if command == "coachloop sessions":  # the stop made through the installed hook
            shown.append(SESSION_ID[:8] in done.stdout)
    assert not failures, "\n\n".join(failures)
    assert ran >= 10
    assert shown == [True]
    # uninstall put the project's settings back as they were: nothing of ours is left
    assert not (project / ".claude" / "settings.json").exists()


@pytest.mark.parametrize("pattern", sorted(SKIPPED))
def test_each_skip_has_a_reason(pattern: str) -> None:
    assert len(SKIPPED[pattern]) > 20
