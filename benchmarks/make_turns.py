"""Generate the turn-record benchmark: real Claude Code turns on the scripted model.

    python benchmarks/make_turns.py                 # every scenario -> tests/data/turns/
    python benchmarks/make_turns.py --only pycalc-  # the scenarios whose name starts so
    python benchmarks/make_turns.py --only codex-   # the Codex CLI turns (turn_clis.py)

For each scenario of `turn_scenarios.py`: a fresh small project (git, a bug, its
tests), a private HOME, the real Claude Code binary (the one bundled in
claude-agent-sdk) run headless against coachloop's `ScriptedModel`, which makes it
really run the tests, edit files and commit. The turn's transcript, written by Claude
Code itself, is stored as `tests/data/turns/NAME.jsonl` with the temporary paths
replaced by `/tmp/coachloop-turns/NAME` and its largest bookkeeping lines left out
(API request shapes and blobs, system-prompt and skill-listing snapshots: kilobytes of
Claude Code's own prompt that no reader looks at). `labels.jsonl` holds one line per
turn: name, category, expected route, project kind, prompt, and the final message (what
a Stop hook would be given); Codex CLI and Gemini CLI turns (`turn_clis.py`) add their
`agent` and store the CLI's own log (a rollout, a chat file).

Needs network access to nothing; takes a few minutes (one Claude Code process per turn).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from turn_projects import Moves, make_project
from turn_scenarios import FALSE, Scenario, scenarios

from coachloop.runners.claude_cli import ClaudeCode
from coachloop.runners.claude_env import offline_env
from coachloop.testing import ScriptedModel

OUT = Path(__file__).resolve().parents[1] / "tests" / "data" / "turns"
# Claude Code runs with a private HOME: the Rust toolchain stays the user's own.
TOOLCHAINS = {
    "RUSTUP_HOME": os.environ.get("RUSTUP_HOME", os.path.expanduser("~/.rustup")),
    "CARGO_HOME": os.environ.get("CARGO_HOME", os.path.expanduser("~/.cargo")),
}
_DROPPED_TYPES = ('{"type":"api-request-shape"', '{"type":"api-request-blob"')
_DROPPED_ATTACHMENTS = ('"type":"prompt_snapshot"', '"type":"skill_listing"')


def trim(raw: str, root: Path, name: str) -> str:
    """The transcript as stored (see the module docstring)."""
    kept = []
    for line in raw.splitlines():
        if line.startswith(_DROPPED_TYPES):
            continue
        if '"attachment":{' in line[:200] and any(a in line[:400] for a in _DROPPED_ATTACHMENTS):
            continue
        kept.append(line.replace(str(root), f"/tmp/coachloop-turns/{name}"))
    return "\n".join(kept) + "\n"


def run(scenario: Scenario, root: Path) -> dict[str, object]:
    project = make_project(root / "project", scenario.kind, scenario.settings)
    home = root / "home"
    home.mkdir()
    moves = Moves(project, scenario.kind)
    steps = [*(scenario.before[1](moves) if scenario.before else []), *scenario.moves(moves)]
    with ScriptedModel(steps, side_call="Title") as model:
        agent = ClaudeCode(
            project, env=offline_env(model.base_url, home, extra=TOOLCHAINS), timeout=180
        )
        session = None
        if scenario.before is not None:
            session = agent.run_turn(scenario.before[0]).session_id
        turn = agent.run_turn(scenario.prompt, resume=session)
        errors = list(model.errors)
        served = [r.served for r in model.model_requests]
    if turn.is_error or errors or any("exhausted" in s for s in served):
        raise RuntimeError(f"{scenario.name}: the scripted turn went wrong: {turn.result!r}")
    [transcript] = list(home.glob(f".claude/projects/*/{turn.session_id}.jsonl"))
    (OUT / f"{scenario.name}.jsonl").write_text(
        trim(transcript.read_text(encoding="utf-8"), root, scenario.name), encoding="utf-8"
    )
    return {
        "name": scenario.name,
        "category": scenario.category,
        "expected": scenario.expected,
        "kind": scenario.kind,
        "prompt": scenario.prompt,
        "text": turn.result.replace(str(root), f"/tmp/coachloop-turns/{scenario.name}"),
    }


def run_cli_turn(agent: str, name: str, category: str, moves: Any, root: Path) -> dict[str, object]:
    """One Codex or Gemini turn (see turn_clis.py), stored like the Claude Code ones."""
    from turn_clis import PROMPT, run_cli, stored

    log, said = run_cli(agent, moves, root)
    (OUT / f"{name}.jsonl").write_text(stored(log, root, name), encoding="utf-8")
    return {
        "name": name,
        "agent": agent,
        "category": category,
        "expected": "continue" if category in FALSE else "deliver",
        "kind": "pycalc",
        "prompt": PROMPT,
        "text": said.replace(str(root), f"/tmp/coachloop-turns/{name}"),
    }


def cli_jobs() -> list[tuple[str, Any]]:
    """(name, job) for every Codex and Gemini turn; a job takes the temporary root."""
    from turn_clis import CLI_STORIES

    jobs: list[tuple[str, Any]] = []
    for agent in ("codex", "gemini"):
        for story, category, moves in CLI_STORIES:
            name = f"{agent}-{story}"

            def job(
                root: Path, a: str = agent, n: str = name, c: str = category, m: Any = moves
            ) -> dict[str, object]:
                return run_cli_turn(a, n, c, m, root)

            jobs.append((name, job))
    return jobs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", default="", help="only scenarios whose name starts so")
    args = parser.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    labels_path = OUT / "labels.jsonl"
    labels: dict[str, dict[str, object]] = {}
    if args.only and labels_path.exists():
        for line in labels_path.read_text().splitlines():
            row = json.loads(line)
            labels[row["name"]] = row
    jobs: list[tuple[str, Any]] = [
        (s.name, lambda root, s=s: run(s, root)) for s in scenarios()
    ] + cli_jobs()
    chosen = [(name, job) for name, job in jobs if name.startswith(args.only)]
    for i, (name, job) in enumerate(chosen, 1):
        root = Path(tempfile.mkdtemp(prefix="turn-"))
        try:
            labels[name] = job(root)
        finally:
            shutil.rmtree(root, ignore_errors=True)
        print(f"[{i}/{len(chosen)}] {name}: {labels[name]['category']}", flush=True)
    order = [name for name, _ in jobs]
    rows = sorted(labels.values(), key=lambda r: order.index(str(r["name"])))
    labels_path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    print(f"{len(rows)} turns in {OUT}")


if __name__ == "__main__":
    main()
