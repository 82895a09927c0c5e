"""Codex CLI and Gemini CLI records, from the turns `coachloop.transcript_agents` reads.

The rollout and chat formats are read there (a bounded tail, never blocking); here each
tool call becomes a `RawCall` with the exit status its agent printed:

- Codex (0.169) `exec_command` output: "Chunk ID: …\\nWall time: …\\nProcess exited with
  code N\\nOriginal token count: …\\nOutput:\\n<what the command printed>";
  `apply_patch` edits the files its patch names ("*** Update File: path").
- Gemini CLI (0.61) `run_shell_command` output: "<untrusted_context>\\nOutput: <what the
  command printed>\\nExit Code: N\\nProcess Group PGID: …" ("Exit Code" absent for 0);
  `replace` and `write_file` edit `file_path`.

A Gemini turn is found by its prompt (the AfterAgent payload's); without one the turn
cannot be told from a continuation, so the record is not complete (no fact about what is
absent is drawn from it). The final text is the agent's, as the hooks take it: Codex's
last message, Gemini's texts since the last continuation.
"""

from __future__ import annotations

import re
from typing import Any

from coachloop.core.record import TurnRecord
from coachloop.record.calls import RawCall, to_call
from coachloop.record.facts import build

__all__ = ["CODEX", "GEMINI", "codex_rollout", "gemini_chat"]

CODEX = "Codex rollout"
GEMINI = "Gemini chat"
_CODEX_EXIT = re.compile(r"^(?:Process exited with code|Exit code:)\s*(-?\d+)\s*$", re.M)
_GEMINI_EXIT = re.compile(r"^Exit Code:\s*(-?\d+)\s*$", re.M)
_DENIED = re.compile(
    r"rejected by (?:the )?user|denied by (?:the )?(?:user|policy|sandbox)|"
    r"not (?:allowed|permitted) by (?:the )?(?:sandbox|policy)|requires approval",
    re.I,
)


def _raw(
    name: str, data: dict[str, Any] | str, output: str | None, exit_re: re.Pattern[str]
) -> RawCall:
    given = data if isinstance(data, dict) else {"input": data}
    raw = RawCall(tool=name, input=given, output=output or "", done=output is not None)
    if output is None:
        return raw
    found = exit_re.search(output)
    raw.exit_code = int(found.group(1)) if found else 0
    raw.denied = bool(_DENIED.search(output[:400]))
    raw.error = raw.exit_code != 0 or raw.denied or output.lstrip().startswith("Error")
    return raw


def codex_rollout(path: str, cwd: str | None = None) -> TurnRecord:
    """The record of the last turn in the Codex rollout at `path` (paths relative to
    `cwd`)."""
    from coachloop.transcript_agents import codex_turn

    log = codex_turn(path)
    if log is None:
        return TurnRecord.unusable(
            CODEX, "the rollout was not read (missing, unreadable or no turn)"
        )
    calls = [to_call(_raw(c.name, c.input, c.output, _CODEX_EXIT), cwd) for c in log.tool_calls]
    return build(CODEX, calls, prompt=log.prompt, final_text=log.last_text, complete=True)


def gemini_chat(path: str, prompt: str | None, cwd: str | None = None) -> TurnRecord:
    """The record of the turn opened by `prompt` in the Gemini chat file at `path`
    (paths relative to `cwd`)."""
    from coachloop.transcript_agents import gemini_turn

    log = gemini_turn(path, prompt)
    if log is None:
        return TurnRecord.unusable(
            GEMINI, "the chat file was not read (missing, unreadable or no turn)"
        )
    calls = [to_call(_raw(c.name, c.input, c.output, _GEMINI_EXIT), cwd) for c in log.tool_calls]
    final = "\n".join(log.texts) if log.texts else None
    return build(GEMINI, calls, prompt=log.prompt, final_text=final, complete=bool(prompt))
