"""`coachloop hook AGENT`: the command an agent runs at its hooks.

The real fast path never reaches this module: `coachloop.entry` hands `coachloop hook
AGENT ...` straight to `coachloop.agents.client.main` before click is imported. Click only
sees `coachloop hook` without an agent, or with an option first (`coachloop hook
--help`): it then shows the help listing the agents. Given an agent here (for example
through an alias that adds an option), it delegates to the same client, so the
behaviour is identical: the reply on stdout, exit status 0, fail open.
"""

from __future__ import annotations

import sys

import click

from coachloop.core.agents import HOOKS, LABELS

AGENTS = tuple(HOOKS)
AGENT_HELP: dict[str, str] = {
    name: f"{LABELS[h.agent]}{' notify' if not h.http else ''}: {h.reply}"
    for name, h in HOOKS.items()
}

_EPILOG = "Agents:\n\n\b\n" + "\n".join(
    f"  {name:<13} {AGENT_HELP.get(name, '')}" for name in AGENTS
)


@click.command(
    "hook",
    epilog=_EPILOG,
    context_settings={"help_option_names": ["-h", "--help"]},
)
@click.argument("agent", required=False, type=click.Choice(AGENTS))
@click.argument("payload", required=False)
@click.pass_context
def hook(ctx: click.Context, agent: str | None, payload: str | None) -> None:
    """Answer one agent hook: read its JSON, print the reply, exit 0.

    AGENT is one of the agents below. PAYLOAD is only for codex-notify (Codex passes its
    JSON as the last argument); the other agents read their JSON from stdin. Whatever
    goes wrong, the agent is let stop (nothing printed, exit status 0) and the error is
    logged to $COACHLOOP_HOME/logs/hook.log.
    """
    if agent is None:
        click.echo(ctx.get_help())
        return
    from coachloop.agents.client import main

    sys.exit(main([agent] if payload is None else [agent, payload]))
