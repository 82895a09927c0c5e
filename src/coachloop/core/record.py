"""The record of one agent turn: what the agent did since the human's last message.

A `TurnRecord` is read from the agent's own log of the turn (a Claude Code transcript,
a Codex rollout file, a Gemini CLI chat file, the headless runner's or the SDK's
stream) by `coachloop.record`, and checked against the agent's final message by the
judge's grounding stage (`coachloop.judge.grounding`).

Contract:
- `calls` are the turn's tool calls in order (`ToolCall`): commands with their exit
  status and output (clipped), edits and writes with their paths, reads, other tools.
- `tests` are the calls that ran tests (`TestRun`), with the runner summaries parsed
  from their output and the names of failing tests; `committed` says a `git commit`
  succeeded in the turn, `commits` holds the hashes such calls printed.
- `complete` is False when only the end of the turn was read (its start lay beyond the
  reader's bound): facts about what is *absent* (no test run, no commit) then do not hold.
- `note` set means the record must not be used (stale, unreadable, not a transcript):
  it says why, and the judge then reads the message alone and says so in the verdict.

Standard library only (a test checks): this type rides on every `JudgeInput`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from coachloop.core.verdict import TestSummary

CallKind = Literal["command", "edit", "read", "other"]

__all__ = ["CallKind", "TestRun", "ToolCall", "TurnRecord"]

_DOC_SUFFIXES = (".md", ".rst", ".txt", ".adoc", ".mdx")


def is_doc(path: str) -> bool:
    """True for documentation files (edits there do not make a test run stale)."""
    low = path.lower()
    return low.endswith(_DOC_SUFFIXES) or "/docs/" in low or low.startswith("docs/")


@dataclass(frozen=True, slots=True)
class ToolCall:
    """One tool call of the turn and its result.

    `target` is what the call acted on, for citing: the command line of a command, the
    path of an edit or read, else the tool's name. `paths` are the files an edit
    changed, a shell command wrote (`sed -i`, `> file`), or a read read. `exit_code`
    is known for commands (0 when the tool reported success), None otherwise. `error`
    is True when the tool reported a failure; `denied` when the call was refused for
    lack of permission.
    """

    tool: str
    kind: CallKind
    target: str
    paths: tuple[str, ...] = ()
    output: str = ""
    exit_code: int | None = None
    error: bool = False
    denied: bool = False


@dataclass(frozen=True, slots=True)
class TestRun:
    """A call that ran tests: `call` is its index in `TurnRecord.calls`; `error` says the
    tool reported a failure without an exit status (a timeout, a kill)."""

    __test__ = False  # not a pytest class

    call: int
    command: str
    summaries: tuple[TestSummary, ...] = ()
    failing: tuple[str, ...] = ()
    exit_code: int | None = None
    error: bool = False

    @property
    def passed(self) -> int:
        return sum(s.passed for s in self.summaries)

    @property
    def failed(self) -> int:
        return sum(s.failed for s in self.summaries)

    @property
    def ok(self) -> bool:
        """Tests ran and none failed, and the command did not fail."""
        if self.exit_code not in (0, None) or self.error:
            return False
        if self.summaries:
            return self.passed > 0 and self.failed == 0
        return self.exit_code == 0 and not self.failing

    def outcome(self) -> str:
        """The result in a few words: "2 tests OK", "1 failed, 1 passed", "exit code 2"."""
        if self.summaries and (self.passed or self.failed):
            if self.failed == 0 and self.exit_code in (0, None):
                return f"{self.passed} test{'s' if self.passed != 1 else ''} OK"
            return f"{self.failed} failed, {self.passed} passed"
        if self.summaries:
            return "no tests ran"
        if self.exit_code not in (0, None):
            return f"exit code {self.exit_code}"
        if self.error:
            return "the command failed"
        return "exit code 0" if self.exit_code == 0 else "result unknown"


@dataclass(frozen=True, slots=True)
class TurnRecord:
    """What the agent did in one turn (see the module docstring)."""

    source: str
    calls: tuple[ToolCall, ...] = ()
    prompt: str | None = None
    final_text: str | None = None
    complete: bool = True
    note: str | None = None
    tests: tuple[TestRun, ...] = ()
    commits: tuple[str, ...] = ()
    committed: bool = False

    @classmethod
    def unusable(cls, source: str, note: str) -> TurnRecord:
        """A record that must not be used, and why."""
        return cls(source=source, complete=False, note=note)

    @property
    def usable(self) -> bool:
        return self.note is None

    @property
    def last_test(self) -> TestRun | None:
        return self.tests[-1] if self.tests else None

    def edits_after(self, index: int, *, docs: bool = False) -> tuple[str, ...]:
        """Paths edited by calls after call `index` (documentation only when `docs`)."""
        found: dict[str, None] = {}
        for call in self.calls[index + 1 :]:
            changed = (call.kind == "edit" and not call.error) or (
                call.kind == "command" and not call.denied
            )
            if changed:
                for path in call.paths:
                    if docs or not is_doc(path):
                        found[path] = None
        return tuple(found)

    @property
    def edited(self) -> tuple[str, ...]:
        """Every path edited in the turn, in order of first edit."""
        return self.edits_after(-1, docs=True)

    @property
    def denials(self) -> tuple[ToolCall, ...]:
        return tuple(c for c in self.calls if c.denied)

    @property
    def errors(self) -> tuple[ToolCall, ...]:
        return tuple(c for c in self.calls if c.error and not c.denied)
