"""End-to-end support for the real Codex CLI and Gemini CLI (installed from npm by
`agent_clis`), driven headless (`codex exec`, `gemini -p`) against the package's scripted
model, with coachloop's hooks installed by the real `coachloop install` command.

A sandbox is a throw-away git project (a tiny Python package and its tests), a private
HOME (and CODEX_HOME), and one SQLite store the hooks write (`COACHLOOP_STORE`; the
in-process hook path: `COACHLOOP_HOOK_DAEMON=0`). `run()` runs the CLI once and returns
what it printed, its exit code and how long it took.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from coachloop.store import EventRecord, Store, open_store
from coachloop.testing import ScriptedModel
from e2e_support import calc_project
from install_support import SCRIPT

RUN_TIMEOUT = 90.0
PYTEST = f"{sys.executable} -m pytest -q"  # the tests the agent runs in the project
NODE_PATH = os.pathsep.join(["/usr/local/bin", "/usr/bin", "/bin"])


@dataclass
class CliRun:
    """One run of a CLI: exit code, output, wall time."""

    returncode: int
    stdout: str
    stderr: str
    seconds: float


@dataclass
class Sandbox:
    """The parts both CLIs' sandboxes share (see the module docstring)."""

    root: Path
    binary: Path

    def __post_init__(self) -> None:
        self.project = calc_project(self.root / "project")
        self.home = self.root / "home"
        self.home.mkdir()
        self.store_path = self.root / "store" / "coachloop.db"
        self.extra_env: dict[str, str] = {}  # laid over everything else

    def env(self, **extra: str) -> dict[str, str]:
        """The environment of the CLI, its hooks and `coachloop` commands."""
        return {
            "PATH": NODE_PATH,
            "HOME": str(self.home),
            "LANG": "C.UTF-8",
            "NO_COLOR": "1",
            "COACHLOOP_HOME": os.environ["COACHLOOP_HOME"],
            "COACHLOOP_HOOK_DAEMON": "0",
            "COACHLOOP_STORE": str(self.store_path),
            **extra,
            **self.extra_env,
        }

    def coachloop(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        """The real `coachloop ARGS` (this installation's script, by its absolute path)."""
        done = subprocess.run(
            [str(SCRIPT), *args],
            env=self.env(),
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert not check or done.returncode == 0, done.stdout + done.stderr
        return done

    def install(self, agent: str, *args: str) -> str:
        return self.coachloop("install", "--agent", agent, *args, "--dir", str(self.project)).stdout

    def doctor(self, agent: str) -> dict[str, Any]:
        done = self.coachloop(
            "doctor", "--agent", agent, "--json", "--dir", str(self.project), check=False
        )
        report: dict[str, Any] = json.loads(done.stdout)
        return report

    def _run(self, argv: list[str], env: dict[str, str]) -> CliRun:
        started = time.monotonic()
        done = subprocess.run(
            argv,
            cwd=self.project,
            env=env,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=RUN_TIMEOUT,
            check=False,
        )
        return CliRun(done.returncode, done.stdout, done.stderr, time.monotonic() - started)

    # -- the store the hooks wrote ------------------------------------------------------
    def store(self) -> Store:
        return open_store(str(self.store_path))

    def timeline(self, session_id: str) -> list[EventRecord]:
        if not self.store_path.exists():
            return []
        with self.store() as store:
            return store.timeline(session_id)

    def stops(self, session_id: str) -> list[EventRecord]:
        return [r for r in self.timeline(session_id) if r.kind == "stop"]

    def outbox(self, session_id: str) -> list[str]:
        if not self.store_path.exists():
            return []
        with self.store() as store:
            return [e.text for e in store.outbox_pending(1000) if e.session_id == session_id]

    def sessions(self) -> list[str]:
        if not self.store_path.exists():
            return []
        with self.store() as store:
            return [s.session_id for s in store.list_sessions()]


class CodexSandbox(Sandbox):
    """Codex CLI on the scripted model: `$CODEX_HOME/config.toml` names a model provider
    at `model.openai_base_url` speaking the Responses API, with no retries."""

    def __post_init__(self) -> None:
        super().__post_init__()
        self.codex_home = self.home / ".codex"
        self.codex_home.mkdir()

    def env(self, **extra: str) -> dict[str, str]:
        return super().env(CODEX_HOME=str(self.codex_home), SCRIPTED_API_KEY="scripted", **extra)

    def configure(self, model: ScriptedModel, *, trust_project: bool = False) -> None:
        """Point Codex at `model` (and mark the project trusted, for project hooks)."""
        lines = [
            'model = "gpt-scripted"',
            'model_provider = "scripted"',
            "",
            "[model_providers.scripted]",
            'name = "scripted"',
            f'base_url = "{model.openai_base_url}"',
            'wire_api = "responses"',
            'env_key = "SCRIPTED_API_KEY"',
            "request_max_retries = 0",
            "stream_max_retries = 0",
        ]
        if trust_project:
            lines += ["", f'[projects."{self.project}"]', 'trust_level = "trusted"']
        (self.codex_home / "config.toml").write_text("\n".join(lines) + "\n")

    def run(self, prompt: str, *, resume: str | None = None, bypass: bool = True) -> CliRun:
        """`codex exec --json [resume ID] PROMPT` in the project; `bypass` adds
        `--dangerously-bypass-hook-trust` (the headless way to run untrusted hooks)."""
        argv = [str(self.binary), "exec", "--json", "-s", "danger-full-access"]
        argv += ["--dangerously-bypass-hook-trust"] if bypass else []
        argv += ["resume", resume, prompt] if resume else [prompt]
        return self._run(argv, self.env())

    @staticmethod
    def thread(run: CliRun) -> str:
        """The session (thread) id `codex exec --json` printed."""
        for line in run.stdout.splitlines():
            event = json.loads(line) if line.startswith("{") else {}
            if event.get("type") == "thread.started":
                return str(event["thread_id"])
        raise AssertionError(f"no thread.started in: {run.stdout}\n{run.stderr}")

    @staticmethod
    def messages(run: CliRun) -> list[str]:
        """The agent messages `codex exec --json` printed, in order."""
        found = []
        for line in run.stdout.splitlines():
            event = json.loads(line) if line.startswith("{") else {}
            item = event.get("item") or {}
            if event.get("type") == "item.completed" and item.get("type") == "agent_message":
                found.append(str(item["text"]))
        return found


class GeminiSandbox(Sandbox):
    """Gemini CLI on the scripted model: `GOOGLE_GEMINI_BASE_URL` and an API key, the
    model named with `-m` (no routing side calls), updates and telemetry off, and the
    project a trusted folder unless `trust` says otherwise."""

    def __post_init__(self) -> None:
        super().__post_init__()
        self.gemini_dir = self.home / ".gemini"
        self.gemini_dir.mkdir()
        settings = {
            "security": {"auth": {"selectedType": "gemini-api-key"}},
            "general": {"enableAutoUpdate": False, "enableAutoUpdateNotification": False},
            "privacy": {"usageStatisticsEnabled": False},
            "telemetry": {"enabled": False},
        }
        (self.gemini_dir / "settings.json").write_text(json.dumps(settings, indent=2))
        self.trust("TRUST_FOLDER")

    def trust(self, level: str | None) -> None:
        """Gemini's trust rule for the project (None: no rule)."""
        rules = {str(self.project): level} if level else {}
        (self.gemini_dir / "trustedFolders.json").write_text(json.dumps(rules))

    def run(
        self, model: ScriptedModel, prompt: str, *args: str, resume: str | None = None
    ) -> CliRun:
        """`gemini -m gemini-scripted --approval-mode yolo -o json [-r ID] ARGS -p PROMPT`."""
        argv = [str(self.binary), "-m", "gemini-scripted", "--approval-mode", "yolo", "-o", "json"]
        argv += ["--resume", resume] if resume else []
        argv += [*args, "-p", prompt]
        env = self.env(
            GEMINI_API_KEY="scripted",
            GOOGLE_GEMINI_BASE_URL=model.base_url,
            GEMINI_CLI_NO_RELAUNCH="true",  # no second node process: about 1.5 s less
        )
        return self._run(argv, env)

    @staticmethod
    def result(run: CliRun) -> dict[str, Any]:
        """The JSON `gemini -o json` printed (session_id, response, stats)."""
        start = run.stdout.find("{")
        assert start >= 0, run.stdout + run.stderr
        data: dict[str, Any] = json.loads(run.stdout[start:])
        return data
