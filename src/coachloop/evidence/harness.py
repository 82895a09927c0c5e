"""Shell calls as agents' CLIs render them in a pasted session (not at a shell prompt).

- Goose: the call's header line, then its parameters, one "name: value" line each
  ("─── shell | developer ───...", then "command: cargo test"); what it printed follows,
  a blank line between.

- Gemini CLI: each call in a box ("╭───╮", "│ ✔  Shell npm test │", "╰───╯"), its status
  the box's first mark: "⊷" while the call is still executing, "✔" once it has run; what
  it printed follows inside the box, after a blank boxed line.

`commands(text)` gives the commands of such calls and `ran(text)` tells whether one is
shown with what it printed (a run, not only a call); `running_at_end(text)` whether the
text ends on a call still executing, in those forms or Claude Code's "⎿  Running…" (the
turn was captured mid-work). Each form is looked
for only when its marker is in the text, so a message without one pays a substring test
per form.

Measured and left out: Claude Code's "⏺ Bash(cmd)" then "⎿ output". No real row holds it,
and on a helper-written set its runs were type checks, which the rules read as lint only
(`classify._lint_only`): a delivered rename went back. Measured again on a set of whole
Claude Code turns (blind66, 2026-11-25): it delivered 4 more finished reports and 6 more
rejected ones (their runs shown beside unproven claims), and sent one finished report back.
"""

from __future__ import annotations

import re

from coachloop.scan import Scanner

__all__ = ["commands", "ran", "running_at_end"]

_GOOSE = "─── shell |"
_GOOSE_COMMAND = Scanner(
    r"^─── shell \|[^\n]*\n(?:[ \t]*\w+: [^\n]*\n){0,4}?[ \t]*command: (\S[^\n]{0,200})$",
    re.M,
    whole=True,
)
_GOOSE_RAN = Scanner(
    r"^[ \t]*command: \S[^\n]*\n(?:[ \t]*\n)?[ \t]*(?!─── |```|~~~)\S", re.M, whole=True
)


_GEMINI = "Shell "
# A call that ran and printed something: its line ("│ ✔  Shell npm test │"), blank boxed
# lines, then a boxed line with output in it (a call whose box is empty shows no run).
_GEMINI_RAN = Scanner(
    r"^[ \t]*│ ✔ {1,3}Shell (\S[^\n]{0,200}?)[ \t]*│[ \t]*\n(?:[ \t]*│[ \t]*│[ \t]*\n)*"
    r"[ \t]*│[ \t]*[^\s│╰]",
    re.M,
    whole=True,
)


def commands(text: str) -> list[str]:
    """The commands of the shell calls rendered in `text`, in order per form."""
    found: list[str] = []
    if _GOOSE in text:
        found += _GOOSE_COMMAND.findall(text)
    if _GEMINI in text and _BOX_OPEN in text:
        found += _GEMINI_RAN.findall(text)
    return found


def ran(text: str) -> bool:
    """A rendered shell call is shown with what it printed."""
    if _GOOSE in text and _GOOSE_RAN.search(text):
        return True
    return _GEMINI in text and _BOX_OPEN in text and bool(_GEMINI_RAN.search(text))


_BOX_OPEN, _BOX_CLOSE, _EXECUTING = "╭", "╯", "⊷"
_CLAUDE_RUNNING = ("⎿  Running…", "⎿ Running…", "⎿  Running...")


def running_at_end(text: str) -> bool:
    """`text` ends on a Gemini CLI tool box whose call is still executing ("⊷"), or on a
    Claude Code call whose output line still says "Running…"."""
    end = text.rstrip()
    if end.endswith(_CLAUDE_RUNNING):
        return True
    if not end.endswith(_BOX_CLOSE):
        return False
    return _EXECUTING in end[end.rfind(_BOX_OPEN) :]
