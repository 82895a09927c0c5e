"""What the tool-call hooks cost (issue 18): Claude Code runs our `PostToolUse` and
`PreToolUse` hooks at every tool call (to hand over queued human messages, and to end a
turn on `/stop`). This times the work one such call does in the daemon (or in-process),
`coachloop.agents.hook.handle`, against a Stop hook's, in one run on one store:

    python benchmarks/tool_hooks.py            # 300 calls of each kind
    python benchmarks/tool_hooks.py --calls 1000

- tool (idle):  PostToolUse with nothing queued (one state read, nothing written)
- pretool:      PreToolUse with no /stop pending (one state read)
- tool (queued): PostToolUse handing over one queued message (one transaction)
- stop:         a Stop judged by the offline rules and decided (the usual work)

Each call's wall time, p50 and p99 in milliseconds, and each kind's p50 as a share of
the stop's. The process start of the command hook (see `hook_latency.py`) is the same
for every kind and is not counted here.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def payload(event: str, sid: str, cwd: str, **more: object) -> bytes:
    body = {"hook_event_name": event, "session_id": sid, "cwd": cwd, "prompt_id": "p-1", **more}
    return json.dumps(body).encode()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--calls", type=int, default=300)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["COACHLOOP_HOME"] = str(Path(tmp) / "home")
        project = Path(tmp) / "project"
        project.mkdir()
        subprocess.run(["git", "init", "-q"], cwd=project, check=True)
        from coachloop.agents.hook import handle
        from coachloop.agents.projects import opened

        cwd = str(project)
        times: dict[str, list[float]] = {k: [] for k in ("tool", "pretool", "queued", "stop")}
        tool = {"tool_name": "Bash", "tool_input": {"command": "ls"}, "tool_response": {}}
        for n in range(args.calls):
            sid = f"s-{n % 20}"
            handle("claude-code", payload("UserPromptSubmit", sid, cwd, prompt="fix it"))
            for kind, event in (("tool", "PostToolUse"), ("pretool", "PreToolUse")):
                start = time.perf_counter()
                handle("claude-code", payload(event, sid, cwd, **tool))
                times[kind].append(time.perf_counter() - start)
            opened(project).supervisor.steer(sid, f"message {n}", key=f"k{n}")
            start = time.perf_counter()
            reply = handle("claude-code", payload("PostToolUse", sid, cwd, **tool))
            times["queued"].append(time.perf_counter() - start)
            assert b"[Human] message" in reply.stdout, reply
            text = "Fixed `add()`. It should work now."
            start = time.perf_counter()
            handle("claude-code", payload("Stop", sid, cwd, last_assistant_message=text))
            times["stop"].append(time.perf_counter() - start)
    stop_p50 = statistics.median(times["stop"])
    print(f"tool-call hooks vs a stop, {args.calls} calls each (ms):")
    for kind, values in times.items():
        ms = sorted(v * 1000 for v in values)
        p50, p99 = statistics.median(ms), ms[min(len(ms) - 1, int(len(ms) * 0.99))]
        share = statistics.median(values) / stop_p50
        print(f"  {kind:8} p50 {p50:7.3f}  p99 {p99:7.3f}  ({share:.2f} x the stop's p50)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
