"""`coachloop doctor`: what is installed, and whether it answers.

`diagnose(project, agents)` returns a JSON-ready report:

- `installations`: per agent and scope, the settings file and our hooks in it
  (event, command or http, target), unreadable files and settings that switch hooks off;
- `probes`: each distinct hook target run once the way the agent runs it: a command
  through `/bin/sh -c` with a harmless payload on stdin (environment
  `COACHLOOP_HOOK_DAEMON=0`), Codex's notify program with it as its last argument, an
  HTTP hook POSTed it. The payload has a SessionStart's fields but the event name
  `CoachloopDoctor` (notify: type `coachloop-doctor`), which every adapter ignores, so a
  probe records nothing (no stray session for the watchdog to flag). A hook fails open,
  so exit 0 cannot vouch for the store: that is checked on its own. A probe answers when
  it exits 0 (HTTP: 2xx) within the timeout and prints nothing or valid JSON;
- `store`: whether the store the hooks use for the project opens (the project is
  resolved as the hooks resolve it; URL passwords are masked);
- `judge`: the configured judge and whether its API key is set in this environment
  (never the key itself);
- `ok`: something is installed, every probe answers and the store opens. A missing
  judge key is a warning only: the LLM judge then falls back to the offline rules.
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
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from coachloop.agents.install import AGENTS, FoundHook, Installed, inspect, scopes

MAX_PROBE_S = 30.0
_ENV_REF = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)")
_USERINFO = re.compile(r"(\b[a-z][a-z0-9+.-]*://)[^/@\s]*@", re.IGNORECASE)


def redact(text: str) -> str:
    """`text` with the user:password part of any URL masked."""
    return _USERINFO.sub(r"\1***@", text)


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


def _run_probe(probe: Probe, hook: FoundHook, project: Path) -> Probe:
    timeout = min(hook.timeout_s or MAX_PROBE_S, MAX_PROBE_S)
    body = json.dumps(payload(project)).encode()
    if hook.kind == "http":
        return probe_http(probe, body, timeout, hook)
    if hook.kind == "notify":
        argument = json.dumps(notify_payload(project))
        return probe_process(probe, [*hook.argv, argument], b"", project, timeout)
    return probe_process(probe, ["/bin/sh", "-c", hook.target], body, project, timeout)


def hook_project(project: Path) -> Path | None:
    """The project the hooks resolve from a `cwd` of `project` (None: the user's store)."""
    from coachloop.agents.dispatch import project_root

    return project_root(str(project))


def check_store(project: Path) -> dict[str, Any]:
    """Open (and close) the store the hooks would use for `project`."""
    from coachloop.store import open_store

    try:
        store = open_store(project=hook_project(project))
    except Exception as exc:  # StoreError, or a config file that cannot be read
        return {"ok": False, "location": None, "detail": redact(str(exc))}
    try:
        return {"ok": True, "location": redact(store.location), "detail": "opens"}
    finally:
        store.close()


def check_judge(project: Path) -> dict[str, Any]:
    """The configured judge and whether its key is set here (the key is never shown)."""
    from coachloop.config import ConfigError, load_settings
    from coachloop.judge.providers import DEFAULT_KEY_ENV, parse_judge_spec

    try:
        settings = load_settings(hook_project(project))
    except ConfigError as exc:
        return {"ok": False, "judge": None, "detail": f"bad configuration: {exc}"}
    provider, _ = parse_judge_spec(settings.judge)
    if provider not in DEFAULT_KEY_ENV:
        return {"ok": True, "judge": settings.judge, "detail": "offline, no key needed"}
    env = settings.llm_api_key_env or DEFAULT_KEY_ENV[provider]
    present = bool(os.environ.get(env))
    local = provider == "openai" and bool(settings.llm_base_url)
    info: dict[str, Any] = {"ok": present or local, "judge": settings.judge, "key_env": env}
    info["key_present"] = present
    if present:
        info["detail"] = f"${env} is set"
    elif local:
        info["detail"] = f"local server {redact(str(settings.llm_base_url))}, no key needed"
    else:
        info["detail"] = f"${env} is not set here: the judge falls back to the offline rules"
    return info


def diagnose(project: Path, agents: tuple[str, ...] = AGENTS) -> dict[str, Any]:
    """The full report; see the module docstring."""
    installations: list[Installed] = [
        inspect(agent, scope, project) for agent in agents for scope in scopes(agent)
    ]
    probes: dict[tuple[str, str], Probe] = {}
    for found in installations:
        for hook in found.hooks:
            key = (hook.kind, hook.target)
            if key not in probes:
                probes[key] = _run_probe(Probe(hook.kind, hook.target), hook, project)
            if found.agent not in probes[key].agents:
                probes[key].agents.append(found.agent)
    store = check_store(project)
    judge = check_judge(project)
    problems = [f"{p.kind} hook {p.target}: {p.detail}" for p in probes.values() if not p.answers]
    if not any(found.hooks for found in installations):
        problems.append("no coachloop hooks installed (run: coachloop install)")
    if not store["ok"]:
        problems.append(f"store: {store['detail']}")
    warnings = [f"{i.path}: {i.error}" for i in installations if i.error]
    warnings.extend(duplicates(installations))
    if not judge["ok"]:
        warnings.append(f"judge: {judge['detail']}")
    return {
        "ok": not problems,
        "project": str(project),
        "installations": [_installation(i) for i in installations],
        "probes": [asdict(p) for p in probes.values()],
        "store": store,
        "judge": judge,
        "problems": problems,
        "warnings": warnings,
    }


def duplicates(installations: list[Installed]) -> list[str]:
    """Events that would run our hook more than once per stop. Claude Code and Gemini CLI
    run identical handlers from several settings files once (checked with Claude Code
    2.1.330 for project, local and user files); different ones (an http and a command
    hook, two paths to coachloop) all run. Codex runs every file's hooks."""
    runs: dict[tuple[str, str], list[tuple[str, str]]] = {}
    for found in installations:
        for hook in found.hooks:
            event = "Stop" if hook.kind == "notify" else hook.event
            runs.setdefault((found.agent, event), []).append((hook.kind, hook.target))
    warnings = []
    for (agent, event), targets in runs.items():
        count = len(targets) if agent == "codex" else len(set(targets))
        if count > 1:
            warnings.append(
                f"{agent} {event}: coachloop is installed {count} ways "
                "(several scopes or kinds); each stop would be judged more than once"
            )
    return warnings


def _installation(found: Installed) -> dict[str, Any]:
    data = asdict(found)
    data["path"] = str(found.path)
    data["installed"] = bool(found.hooks)
    for hook in data["hooks"]:
        hook.pop("argv", None)
    return data
