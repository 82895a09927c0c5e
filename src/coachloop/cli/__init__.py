"""The `coachloop` command line: a thin, lazily loaded layer over the package.

Each command lives in its own module and is imported only when it runs, so a
command never pays for another's imports. `coachloop hook AGENT` is dispatched before
click is even imported: it runs at every agent stop and must start fast.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from typing import Any

import click  # only the non-hook commands load this module's click group

# name -> "module:attribute" of a click command
COMMANDS: dict[str, str] = {
    "judge": "coachloop.cli.judge_cmd:judge",
    "bench": "coachloop.cli.bench_cmd:bench",
    "demo": "coachloop.cli.demo_cmd:demo",
    "sessions": "coachloop.cli.sessions_cmd:sessions",
    "show": "coachloop.cli.sessions_cmd:show",
    "maintain": "coachloop.cli.maintain_cmd:maintain",
    "say": "coachloop.cli.say_cmd:say",
    "upgrade": "coachloop.cli.upgrade_cmd:upgrade",
    "trust": "coachloop.cli.trust_cmd:trust",
    "hook": "coachloop.cli.hook_cmd:hook",
    "serve": "coachloop.cli.serve_cmd:serve",
    "dashboard": "coachloop.cli.dashboard_cmd:dashboard",
    "install": "coachloop.cli.install_cmd:install",
    "uninstall": "coachloop.cli.install_cmd:uninstall",
    "doctor": "coachloop.cli.install_cmd:doctor",
    "run": "coachloop.cli.run_cmd:run",
    "bridge": "coachloop.cli.bridge_cmd:bridge",
    "duel": "coachloop.cli.duel_cmd:duel",
}


class LazyGroup(click.Group):
    """A click group whose subcommands are imported on first use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        # Only commands whose module is present (some arrive with later work).
        return sorted(
            name
            for name, target in COMMANDS.items()
            if importlib.util.find_spec(target.split(":")[0]) is not None
        )

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        """Click's resolution, with "did you mean" for a misspelt command."""
        name = args[0] if args else ""
        if args and not name.startswith("-") and self.get_command(ctx, name) is None:
            import difflib

            close = difflib.get_close_matches(name, self.list_commands(ctx), n=1, cutoff=0.6)
            hint = f" Did you mean {close[0]!r}?" if close else ""
            ctx.fail(f"No such command {name!r}.{hint} (`coachloop --help` lists them)")
        return super().resolve_command(ctx, args)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        target = COMMANDS.get(cmd_name)
        if target is None:
            return None
        module_name, attr = target.split(":")
        command: Any = getattr(importlib.import_module(module_name), attr)
        assert isinstance(command, click.Command)
        return command


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="coachloop")
@click.option(
    "--debug",
    is_flag=True,
    help="Show the full traceback of an unexpected error (or set COACHLOOP_DEBUG=1).",
)
def cli(debug: bool) -> None:
    """Supervise coding agents at every stop: deliver what needs a human, coach the rest."""


def main(argv: list[str] | None = None) -> None:
    """Console entry point: every failure is one line on stderr unless `--debug`."""
    from coachloop.cli.errors import boundary, is_debug

    args = argv if argv is not None else sys.argv[1:]
    with boundary(is_debug(args)):
        cli.main(args=args, prog_name="coachloop")
