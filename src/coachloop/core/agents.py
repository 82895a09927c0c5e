"""The agents coachloop supervises, as data: one registry read by every layer.

Hooks (`coachloop hook NAME`, the warm daemon, `POST /hooks/NAME`), `install`,
`uninstall`, `doctor`, `serve` and the CLI's choices and help all read `AGENTS`; adding
an agent is one entry here plus its adapter (`coachloop.agents.<name>`) and, when it
has settings to write, its installer (`coachloop.install.<name>`). Modules are named
by their dotted path and imported only by whoever uses them, so this module stays
standard library only (it is on the hook path).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "AGENTS",
    "HOOKS",
    "LABELS",
    "AgentSpec",
    "HookSpec",
    "events",
    "hook",
    "installable",
    "spec",
    "with_option",
]


@dataclass(frozen=True, slots=True)
class HookSpec:
    """One hook entry point: `coachloop hook NAME` (and `POST /hooks/NAME` when `http`).

    `adapter` is "module:function", the normaliser of its payload into a `Hook`; the
    module's `reply(reason) -> bytes` writes the agent's continue reply. `reply` says in
    words what it reads and answers (the CLI's help)."""

    name: str
    agent: str
    adapter: str
    reply: str
    http: bool = True


@dataclass(frozen=True, slots=True)
class AgentSpec:
    """One agent: the `name` sessions are recorded under, its display `label`, its
    hook entry points, its installer module (None: nothing to install), the hook
    events the installer subscribes to, and what `install` can write for it besides
    command hooks: `http` hooks (`--http`), a `notify` program (`--notify`)."""

    name: str
    label: str
    hooks: tuple[HookSpec, ...] = ()
    installer: str | None = None
    events: tuple[str, ...] = ()
    http: bool = False
    notify: bool = False


_BLOCK = 'hook JSON on stdin; replies {"decision": "block", ...}'

AGENTS: tuple[AgentSpec, ...] = (
    AgentSpec(
        "claude-code",
        "Claude Code",
        (HookSpec("claude-code", "claude-code", "coachloop.agents.claude_code:normalise", _BLOCK),),
        "coachloop.install.claude",
        (
            *("Stop", "SubagentStop", "StopFailure", "UserPromptSubmit"),
            *("Notification", "SessionStart", "SessionEnd", "PostToolUse", "PreToolUse"),
        ),
        http=True,
    ),
    AgentSpec(
        "codex",
        "Codex",
        (
            HookSpec("codex", "codex", "coachloop.agents.codex:normalise", _BLOCK),
            HookSpec(
                "codex-notify",
                "codex",
                "coachloop.agents.codex:normalise_notify",
                "JSON as the last argument; never blocks",
                http=False,
            ),
        ),
        "coachloop.install.codex",
        ("Stop", "UserPromptSubmit"),
        notify=True,
    ),
    AgentSpec(
        "gemini",
        "Gemini CLI",
        (
            HookSpec(
                "gemini",
                "gemini",
                "coachloop.agents.gemini:normalise",
                'hook JSON on stdin; replies {"decision": "deny", ...}',
            ),
        ),
        "coachloop.install.gemini",
        ("AfterAgent",),
    ),
    AgentSpec("sdk", "SDK"),  # the Agent SDK runner: no hook, nothing to install
)

HOOKS: dict[str, HookSpec] = {h.name: h for a in AGENTS for h in a.hooks}
LABELS: dict[str, str] = {a.name: a.label for a in AGENTS}


def hook(name: str) -> HookSpec | None:
    """The hook entry point called `name`, None when there is none."""
    return HOOKS.get(name)


def installable() -> tuple[str, ...]:
    """The agents `coachloop install` knows, in registry order."""
    return tuple(a.name for a in AGENTS if a.installer is not None)


def with_option(option: str) -> tuple[str, ...]:
    """The agents whose installer writes `option` ("http" or "notify")."""
    return tuple(a.name for a in AGENTS if getattr(a, option) is True)


def events(name: str) -> tuple[str, ...]:
    """The hook events the installer of agent `name` subscribes to (none: unknown)."""
    found = spec(name)
    return found.events if found is not None else ()


def spec(name: str) -> AgentSpec | None:
    """The agent called `name`, None when it is not registered."""
    return next((a for a in AGENTS if a.name == name), None)
