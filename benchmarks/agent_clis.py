"""The same supervised stories with the three real agent CLIs: wall time, model requests,
hook processes and stops, side by side.

    python benchmarks/agent_clis.py               # 3 rounds of each story per CLI
    python benchmarks/agent_clis.py --rounds 5 --only codex gemini

Stories (the end-to-end tests' first scenarios, `tests/test_e2e_*.py`):
- coached: the agent hedges, is coached, runs the project's tests with its shell tool,
  and its evidenced answer is delivered (three model requests when all goes well);
- question: the agent asks a question, delivered at once (one model request).
Each CLI runs headless (`claude -p` through the headless runner, `codex exec`, `gemini -p`)
against the scripted model, with coachloop's hooks in-process (COACHLOOP_HOOK_DAEMON=0,
as in the tests) in a fresh throw-away project per round, Codex and Gemini hooks
installed by `coachloop install --user`. A hook process is counted when a `coachloop hook`
process starts (a `sitecustomize` on PYTHONPATH that the agents pass on to their hooks
appends one line per process); "stops" are the stop records the hooks wrote (drops
included). The CLIs (`tests/agent_clis.py`) are installed first when missing. Figures
are medians over the rounds; the machine's load moves them, not their ratios.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from parts import part

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

SITECUSTOMIZE = """\
import os, sys
if sys.argv[1:2] == ["hook"] and os.environ.get("BENCH_HOOK_LOG"):
    with open(os.environ["BENCH_HOOK_LOG"], "a") as fh:
        fh.write(" ".join(sys.argv[1:3]) + "\\n")
"""
HEDGE = "Done! I fixed the rounding in `add()` in `calc.py`. It should work now."
QUESTION = "Should `add()` also accept strings, or only numbers?"
PROMPT = "The tests in test_calc.py fail sometimes; fix add() in calc.py."


def _evidence(outputs: list[str]) -> str:
    out = outputs[-1] if outputs else ""
    return f"Fixed `add()` in `calc.py`. I ran the tests:\n\n```\n{out.strip()}\n```"


def claude_code(root: Path, story: str, hook_env: dict[str, str]) -> tuple[float, int, str]:
    from cli_e2e_support import PYTEST
    from coachloop.testing import ScriptedModel, text, tool_use
    from e2e_support import Sandbox, tool_results

    box = Sandbox(root)
    script: list[Any] = [text(QUESTION)]
    if story == "coached":
        script = [text(HEDGE), tool_use("Bash", {"command": PYTEST})]
        script.append(lambda body: text(_evidence(list(tool_results(body)))))
    with ScriptedModel(script, side_call="Title") as model:
        runner = box.runner(model, **hook_env)
        started = time.monotonic()
        judged = runner.run(PROMPT)
        seconds = time.monotonic() - started
        requests = len(model.model_requests)
    return seconds, requests, _stops(box, judged.turn.session_id)


def codex(root: Path, story: str, hook_env: dict[str, str]) -> tuple[float, int, str]:
    from agent_clis import ensure
    from cli_e2e_support import PYTEST, CodexSandbox
    from coachloop.testing import ScriptedModel, text, tool_use
    from coachloop.testing.responses_wire import function_outputs

    box = CodexSandbox(root, ensure()["codex"])
    script: list[Any] = [text(QUESTION)]
    if story == "coached":
        script = [text(HEDGE), tool_use("exec_command", {"cmd": PYTEST})]
        script.append(lambda body: text(_evidence(function_outputs(body))))
    with ScriptedModel(script, default=text("unexpected")) as model:
        box.configure(model)
        box.install("codex", "--user")
        box.extra_env = hook_env
        run = box.run(PROMPT)
        requests = len(model.model_requests)
    return run.seconds, requests, _stops(box, box.thread(run))


def gemini(root: Path, story: str, hook_env: dict[str, str]) -> tuple[float, int, str]:
    from agent_clis import ensure
    from cli_e2e_support import PYTEST, GeminiSandbox
    from coachloop.testing import ScriptedModel, text, tool_use
    from coachloop.testing.gemini_wire import function_responses

    box = GeminiSandbox(root, ensure()["gemini"])
    script: list[Any] = [text(QUESTION)]
    if story == "coached":
        script = [text(HEDGE), tool_use("run_shell_command", {"command": PYTEST})]
        script.append(lambda body: text(_evidence([str(r) for r in function_responses(body)])))
    with ScriptedModel(script, default=text("unexpected")) as model:
        box.install("gemini", "--user")
        box.extra_env = hook_env
        run = box.run(model, PROMPT)
        requests = len(model.model_requests)
    return run.seconds, requests, _stops(box, box.result(run)["session_id"])


def _stops(box: Any, session: str) -> str:
    return ",".join(str(r.decision) for r in box.stops(session))


AGENTS: dict[str, Callable[[Path, str, dict[str, str]], tuple[float, int, str]]] = {
    "claude-code": claude_code,
    "codex": codex,
    "gemini": gemini,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--part-timeout", type=float, default=600.0, help="seconds per story")
    parser.add_argument("--only", nargs="*", choices=list(AGENTS), default=list(AGENTS))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="coachloop-bench-") as tmp:
        base = Path(tmp)
        (base / "site").mkdir()
        (base / "site" / "sitecustomize.py").write_text(SITECUSTOMIZE)
        os.environ["COACHLOOP_HOME"] = str(base / "coachloop-home")
        print(f"{'agent':<12} {'story':<9} {'seconds':>8} {'requests':>8} {'hooks':>6}  stops")
        for name in args.only:
            for story in ("coached", "question"):

                def rounds(name: str = name, story: str = story) -> list[tuple[Any, ...]]:
                    rows = []
                    for n in range(args.rounds):
                        root = base / f"{name}-{story}-{n}"
                        root.mkdir()
                        log = root / "hooks.log"
                        hook_env = {"PYTHONPATH": str(base / "site"), "BENCH_HOOK_LOG": str(log)}
                        seconds, requests, stops = AGENTS[name](root, story, hook_env)
                        hooks = len(log.read_text().splitlines()) if log.exists() else 0
                        rows.append((seconds, requests, hooks, stops))
                    return rows

                # each agent and story is bounded: a CLI that is missing or hangs is skipped
                rows = part(f"{name} {story}", rounds, args.part_timeout)
                if rows is None:
                    continue
                median = statistics.median(r[0] for r in rows)
                _, requests, hooks, stops = rows[-1]
                print(f"{name:<12} {story:<9} {median:8.2f} {requests:8d} {hooks:6d}  {stops}")


if __name__ == "__main__":
    main()
