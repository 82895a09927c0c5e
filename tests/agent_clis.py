"""The real Codex CLI and Gemini CLI for the end-to-end tests, installed from npm.

The pinned packages go into `<repo>/.cache/npm-agents` (git-ignored) with the machine's
npm. `.ci/run` runs `python3 tests/agent_clis.py` before the test command, and the
session fixture `agent_clis` (tests/conftest.py) calls `ensure()` when they are missing,
so the README's test command works on a fresh checkout too. When npm is missing or the
install fails the tests FAIL with npm's own message; `COACHLOOP_SKIP_AGENT_CLIS=1`
skips them explicitly instead. Concurrent installs (two test runs at once) are
serialised by a lock file. Standard library only (`.ci/run` runs it before the venv).
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

PACKAGES = {"@openai/codex": "0.169.0", "@google/gemini-cli": "0.61.0"}
BINARIES = {"codex": "@openai/codex", "gemini": "@google/gemini-cli"}
ROOT = Path(__file__).resolve().parents[1]
CACHE = ROOT / ".cache" / "npm-agents"
INSTALL_TIMEOUT_S = 900


class AgentCliError(RuntimeError):
    """The CLIs are not installed and could not be installed."""


def _version(package: str) -> str | None:
    try:
        data = json.loads((CACHE / "node_modules" / package / "package.json").read_text())
    except (OSError, ValueError):
        return None
    version = data.get("version") if isinstance(data, dict) else None
    return version if isinstance(version, str) else None


def _binaries() -> dict[str, Path]:
    return {name: CACHE / "node_modules" / ".bin" / name for name in BINARIES}


def installed() -> bool:
    """True when every pinned package is installed at its version, binaries included."""
    pinned = all(_version(p) == v for p, v in PACKAGES.items())
    return pinned and all(path.exists() for path in _binaries().values())


def ensure() -> dict[str, Path]:
    """The path of each CLI's executable (`codex`, `gemini`), installing them first when
    needed; `AgentCliError` (with npm's output) when that fails."""
    if installed():
        return _binaries()
    npm = shutil.which("npm")
    if npm is None:
        raise AgentCliError(
            "npm is not on PATH: install Node.js 20 or newer with npm, "
            "or set COACHLOOP_SKIP_AGENT_CLIS=1 to skip the Codex and Gemini CLI tests"
        )
    CACHE.mkdir(parents=True, exist_ok=True)
    with (CACHE / ".install.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not installed():
            specs = [f"{package}@{version}" for package, version in PACKAGES.items()]
            argv = [
                npm,
                "install",
                "--prefix",
                str(CACHE),
                "--no-audit",
                "--no-fund",
                "--save-exact",
                *specs,
            ]
            try:
                done = subprocess.run(
                    argv, capture_output=True, text=True, timeout=INSTALL_TIMEOUT_S, check=False
                )
            except (OSError, subprocess.TimeoutExpired) as exc:
                raise AgentCliError(f"{' '.join(argv)} could not run: {exc}") from exc
            if done.returncode != 0 or not installed():
                tail = (done.stderr or done.stdout).strip()[-3000:]
                raise AgentCliError(f"{' '.join(argv)} failed (exit {done.returncode}):\n{tail}")
    return _binaries()


def main() -> int:
    try:
        paths = ensure()
    except AgentCliError as exc:
        print(f"agent CLIs: {exc}", file=sys.stderr)
        return 1
    for name, path in paths.items():
        print(f"{name} {PACKAGES[BINARIES[name]]}: {os.path.relpath(path, ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
