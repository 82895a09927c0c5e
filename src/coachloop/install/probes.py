"""Running one installed hook the way its agent would, to see whether it answers.

`run_probe(probe, hook, project)` runs a command hook through `/bin/sh -c` with
`payload(project)` on stdin (environment `COACHLOOP_HOOK_DAEMON=0`), Codex's notify
program with `notify_payload(project)` as its last argument, and POSTs the payload to
an http hook with its headers (`$VAR` filled in from this environment, as Claude Code
does). It answers when it exits 0 (HTTP: 2xx) within the timeout and prints nothing or
valid JSON. The payloads carry an event name (type) every adapter ignores, so a probe
records nothing. Header values and URL passwords never reach `Probe.detail`.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import time
import urllib.error
import urllib.request
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from coachloop.install import FoundHook
from coachloop.redaction import redact

MAX_PROBE_S = 30.0
_ENV_REF = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)")


PROBE_EVENT = "CoachloopDoctor"
PROBE_NOTIFY_TYPE = "coachloop-doctor"


def payload(project: Path) -> dict[str, Any]:
    """A SessionStart-shaped hook input under an event name every adapter ignores."""
    return {
        "session_id": f"coachloop-doctor-{uuid.uuid4().hex[:12]}",
        "hook_event_name": PROBE_EVENT,
        "source": "startup",
        "cwd": str(project),
        "transcript_path": "",
        "permission_mode": "default",
    }


def notify_payload(project: Path) -> dict[str, Any]:
    """A Codex notify argument of a type the notify adapter ignores."""
    return {
        "type": PROBE_NOTIFY_TYPE,
        "thread-id": f"coachloop-doctor-{uuid.uuid4().hex[:12]}",
        "cwd": str(project),
    }


@dataclass
class Probe:
    kind: str  # command | http | notify
    target: str
    agents: list[str] = field(default_factory=list)
    resolves: bool = False
    resolved: str | None = None
    answers: bool = False
    detail: str = ""
    seconds: float | None = None


def _valid_output(out: bytes) -> str | None:
    """None when `out` is empty or JSON, else what is wrong with it."""
    text = out.strip()
    if not text:
        return None
    try:
        json.loads(text)
    except (ValueError, UnicodeDecodeError):
        return f"printed something that is not JSON: {text[:80]!r}"
    return None


def _resolve(argv0: str) -> str | None:
    if os.sep in argv0:
        path = Path(argv0).expanduser()
        return str(path) if path.is_file() and os.access(path, os.X_OK) else None
    return shutil.which(argv0)


def _describe_exit(code: int, out: bytes, err: bytes) -> str | None:
    if code != 0:
        tail = err.decode("utf-8", "replace").strip().splitlines()[-1:] or [""]
        return f"exit {code}: {tail[0][:120]}"
    return _valid_output(out)


def probe_process(probe: Probe, argv: list[str], stdin: bytes, cwd: Path, timeout: float) -> Probe:
    """Run `argv` (the command's first word must resolve) and judge its answer."""
    try:
        first = argv[0] if probe.kind == "notify" else shlex.split(probe.target)[0]
    except (ValueError, IndexError):
        probe.detail = "the command cannot be parsed"
        return probe
    probe.resolved = _resolve(first)
    probe.resolves = probe.resolved is not None
    if not probe.resolves:
        probe.detail = f"{first!r} not found"
        return probe
    # Builds the probe's subprocess environment from ours (not a settings read).
    env = {**os.environ, "COACHLOOP_HOOK_DAEMON": "0"}
    started = time.monotonic()
    try:
        done = subprocess.run(
            argv, input=stdin, capture_output=True, cwd=cwd, env=env, timeout=timeout, check=False
        )
    except subprocess.TimeoutExpired:
        probe.detail = f"no answer within {timeout:g} s"
        return probe
    except OSError as exc:
        probe.detail = f"cannot start: {exc.strerror or exc}"
        return probe
    probe.seconds = round(time.monotonic() - started, 3)
    problem = _describe_exit(done.returncode, done.stdout, done.stderr)
    probe.answers = problem is None
    probe.detail = problem or f"exit 0, {_output_word(done.stdout)}, {probe.seconds:.2f} s"
    return probe


def _output_word(out: bytes) -> str:
    return "valid JSON" if out.strip() else "no output"


def fill_headers(hook: FoundHook) -> tuple[dict[str, str], list[str]]:
    """The hook's headers with `$VAR` / `${VAR}` filled in from this environment, as
    Claude Code does (only variables the hook allows), and the allowed ones unset here."""
    missing: list[str] = []

    def value(match: re.Match[str]) -> str:
        name = match.group(1) or match.group(2)
        if name not in hook.allowed_env:
            return ""
        # The variables a hook's headers name (Claude Code's allowedEnvVars), as Claude
        # Code would expand them: not coachloop's settings.
        if name not in os.environ:
            missing.append(name)
        return os.environ.get(name, "")

    headers = {key: _ENV_REF.sub(value, template) for key, template in hook.headers}
    return headers, sorted(set(missing))


def probe_http(probe: Probe, body: bytes, timeout: float, hook: FoundHook) -> Probe:
    """POST `body` to the hook URL with the hook's headers; 2xx with an empty or JSON
    body answers. Header values (tokens) never reach the report."""
    probe.resolves = probe.target.startswith(("http://", "https://"))
    if not probe.resolves:
        probe.detail = "not an http(s) URL"
        return probe
    headers, missing = fill_headers(hook)
    if missing:
        probe.detail = f"${', $'.join(missing)} not set here; "
    request = urllib.request.Request(
        probe.target,
        data=body,
        method="POST",
        headers={**headers, "Content-Type": "application/json"},
    )
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    started = time.monotonic()
    try:
        with opener.open(request, timeout=timeout) as response:
            status, out = response.status, response.read()
    except urllib.error.HTTPError as exc:
        probe.detail += f"HTTP {exc.code}" + (" (the token?)" if exc.code == 401 else "")
        return probe
    except (urllib.error.URLError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        probe.detail += f"no answer: {redact(str(reason))}"
        return probe
    probe.seconds = round(time.monotonic() - started, 3)
    problem = None if 200 <= status < 300 else f"HTTP {status}"
    problem = problem or _valid_output(out)
    probe.answers = problem is None
    probe.detail += problem or f"HTTP {status}, {_output_word(out)}, {probe.seconds:.2f} s"
    return probe


def run_probe(probe: Probe, hook: FoundHook, project: Path) -> Probe:
    timeout = min(hook.timeout_s or MAX_PROBE_S, MAX_PROBE_S)
    body = json.dumps(payload(project)).encode()
    if hook.kind == "http":
        return probe_http(probe, body, timeout, hook)
    if hook.kind == "notify":
        argument = json.dumps(notify_payload(project))
        return probe_process(probe, [*hook.argv, argument], b"", project, timeout)
    return probe_process(probe, ["/bin/sh", "-c", hook.target], body, project, timeout)
