"""The console entry point. It imports nothing heavy: `coachloop hook AGENT` goes straight
to the hook client (no click, no pydantic), every other command to the click group.

The hook command `install` writes starts Python without `site` (`-S`: see
`coachloop.install.common.LAUNCHER`); the client relays the stop to the daemon with the
standard library only. Every path that needs installed packages (the CLI, a stop handled
in-process) calls `coachloop.agents.client.ensure_site()` first."""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    if len(args) >= 2 and args[0] == "hook" and not args[1].startswith("-"):
        from coachloop.agents.client import main as hook_main

        sys.exit(hook_main(args[1:]))
    from coachloop.agents.client import ensure_site

    ensure_site()
    from coachloop.cli import main as cli_main

    cli_main(args)
