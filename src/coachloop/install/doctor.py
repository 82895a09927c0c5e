"""`coachloop doctor`: what is installed, and whether it answers.

`diagnose(project, agents)` returns a JSON-ready report:

- `installations`: per agent and scope, the settings file and our hooks in it
  (event, command or http, target, the file), unreadable files, and whether those hooks
  will run when the agent works in the project (`problems`: Codex hook and project
  trust, Gemini folder trust and `hooksConfig`, a Codex `notify` where Codex ignores
  it; each with its fix);
- `probes`: each distinct hook target run once the way the agent runs it
  (`coachloop.install.probes`), with a payload every adapter ignores, so a probe
  records nothing (no stray session for the watchdog to flag). A hook fails open, so
  its exit 0 cannot vouch for the store: that is checked on its own;
- `store`: whether the store the hooks use for the project opens (the project is
  resolved as the hooks resolve it; URL passwords are masked);
- `judge`: the configured judge and whether its API key is set in this environment
  (never the key itself);
- `ok`: something is installed, nothing installed is kept from running, every probe
  answers and the store opens. A missing judge key is a warning only: the LLM judge
  then falls back to the offline rules.
"""

from __future__ import annotations

import os
from dataclasses import asdict
from pathlib import Path
from typing import Any

from coachloop.install import AGENTS, Installed, inspect, scopes
from coachloop.install.probes import Probe, run_probe
from coachloop.redaction import redact


def hook_project(project: Path) -> Path | None:
    """The project the hooks resolve from a `cwd` of `project` (None: the user's store)."""
    from coachloop.config.project import project_root

    return project_root(str(project))


def check_store(project: Path) -> dict[str, Any]:
    """Open (and close) the store the hooks would use for `project`."""
    from coachloop.store import legacy_path, open_store, resolve

    root = hook_project(project)
    old = legacy_path(root) if root is not None else None
    waiting = ""
    if old is not None and old.exists():
        waiting = f"; {old}, from an older coachloop, is merged in at the next stop"
    try:
        where = resolve(project=root)
        if where.path is not None and not where.path.exists():
            # doctor creates nothing: the first stop will
            detail = "not created yet (the first stop creates it)" + waiting
            return {"ok": True, "location": redact(str(where.path)), "detail": detail}
        store = open_store(where.text, prefix=where.prefix)  # as is: no merge, no registry
    except Exception as exc:  # StoreError, or a config file that cannot be read
        return {"ok": False, "location": None, "detail": redact(str(exc))}
    try:
        return {"ok": True, "location": redact(store.location), "detail": "opens" + waiting}
    finally:
        store.close()


def check_judge(project: Path) -> dict[str, Any]:
    """The configured judge and whether its key is set here (the key is never shown)."""
    from coachloop.config import ConfigError, load_settings
    from coachloop.judge.providers import DEFAULT_KEY_ENV, parse_judge_spec

    try:
        settings = load_settings(hook_project(project))
    except ConfigError as exc:
        detail = f"bad configuration: {redact(str(exc))}"
        return {"ok": False, "judge": None, "detail": detail, "config_error": True}
    provider, _ = parse_judge_spec(settings.judge)
    if provider not in DEFAULT_KEY_ENV:
        return {"ok": True, "judge": settings.judge, "detail": "offline, no key needed"}
    env = settings.llm_api_key_env or DEFAULT_KEY_ENV[provider]
    # A provider API key named by the config (`llm_api_key_env`): presence only.
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
                probes[key] = run_probe(Probe(hook.kind, hook.target), hook, project)
            if found.agent not in probes[key].agents:
                probes[key].agents.append(found.agent)
    store = check_store(project)
    judge = check_judge(project)
    problems = [f"{p.kind} hook {p.target}: {p.detail}" for p in probes.values() if not p.answers]
    problems += [f"{i.agent} ({i.scope}): {text}" for i in installations for text in i.problems]
    if not any(found.hooks for found in installations):
        problems.append("no coachloop hooks installed (run: coachloop install)")
    if not store["ok"]:
        problems.append(f"store: {store['detail']}")
    if judge.get("config_error"):  # every hook fails open until it is fixed
        problems.append(
            f"{judge['detail']} (until it is fixed, every hook lets the agent stop unsupervised)"
        )
    warnings = [f"{i.path}: {i.error}" for i in installations if i.error]
    warnings.extend(duplicates(installations))
    if not judge["ok"] and not judge.get("config_error"):
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
