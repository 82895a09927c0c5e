"""`coachloop install`, `uninstall` and `doctor`: thin click commands over
`coachloop.install`.

Selectors shared by all three: `--agent` (repeatable; install defaults to
claude-code, uninstall and doctor to every agent), `--project` (default), `--local`
(Claude Code's `.claude/settings.local.json`) or `--user` (the home directory), and
`--dir` (the project directory, default the git top level of the current folder);
two scope flags together are a usage error. `--backup` keeps the replaced file as `.bak`.

Exit status: install/uninstall 0 when done (or nothing to do), 1 when a request was
refused without harm (a Codex `notify` the user already set), 2 on bad usage or a
settings file we will not touch (not valid JSON/TOML: it is left untouched).
doctor: 0 when something is installed, every hook answers and the store opens; else 1.
"""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from coachloop.core.agents import installable

if TYPE_CHECKING:
    from coachloop.install import Change

ALL_AGENTS = installable()  # the registry's agents with an installer
AGENT_CHOICE = click.Choice(list(ALL_AGENTS))
_DIR_OPTION = click.option(
    "--dir",
    "directory",
    type=click.Path(file_okay=False, exists=True, path_type=Path),
    default=None,
    help="The project directory (default: the git top level of the current folder).",
)
_SCOPES = ("project", "local", "user")
_BACKUP_OPTION = click.option(
    "--backup", is_flag=True, help="Keep the file as it was before as <file>.bak (once)."
)


def _selectors(command: Any) -> Any:
    """The options every command here shares, turned into `agents`, `scope`, `directory`.

    The scope flags exclude each other: giving two is a usage error, not "the last wins"."""

    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        chosen = [name for name in _SCOPES if kwargs.pop(f"scope_{name}")]
        if len(chosen) > 1:
            flags = " and ".join(f"--{name}" for name in chosen)
            raise click.UsageError(f"{flags} exclude each other: choose one scope")
        kwargs["scope"] = chosen[0] if chosen else "project"
        kwargs["directory"] = _project(kwargs["directory"])
        return command(*args, **kwargs)

    options = [
        _DIR_OPTION,
        click.option("--user", "scope_user", is_flag=True, help="The user's settings (home)."),
        click.option(
            "--local",
            "scope_local",
            is_flag=True,
            help="Claude Code's .claude/settings.local.json (not committed).",
        ),
        click.option(
            "--project", "scope_project", is_flag=True, help="The project's settings (default)."
        ),
        click.option(
            "--agent",
            "agents",
            type=AGENT_CHOICE,
            multiple=True,
            help="Repeatable. Default: claude-code (install), every agent (uninstall).",
        ),
    ]
    for option in options:
        wrapper = option(wrapper)
    return wrapper


def _project(directory: Path | None) -> Path:
    """`directory`, else the git top level of the current folder (else the folder)."""
    if directory is not None:
        return directory.expanduser().resolve()
    here = Path.cwd().resolve()
    return next((d for d in (here, *here.parents) if (d / ".git").exists()), here)


def _where(directory: Path, scope: str) -> None:
    """Say which project a project-scope command acts on, and why that one."""
    if scope == "user":
        return
    if not (directory / ".git").exists():
        click.echo(
            f"project {directory} (not a git repository: hooks apply when the agent starts "
            "here; --dir chooses another folder)"
        )
    elif directory != Path.cwd().resolve():
        click.echo(f"project {directory} (the git top level of the current folder)")


def _report(changes: list[Change], errors: list[str]) -> None:
    for change in changes:
        mark = "changed" if change.changed else "unchanged"
        if not change.ok:
            mark = "refused"
        click.echo(f"{change.agent} ({change.scope}) {change.path}: {change.message} [{mark}]")
        for note in change.notes:
            click.echo(f"  note: {note}")
    for error in errors:
        click.echo(f"Error: {error}", err=True)
    if errors:
        sys.exit(2)
    if any(not change.ok for change in changes):
        sys.exit(1)


def _run_each(agents: Iterable[str], action: Callable[[str], Change]) -> None:
    """`action(agent)` for each of `agents` in turn, then `_report` of what they did.

    Contract: a usage error (`InstallUsageError`) stops at once as click's usage error
    (exit 2); a settings file we will not touch or an OS error is kept and reported
    after the other agents ran (exit 2).
    """
    from coachloop.install import InstallUsageError, SettingsError

    changes: list[Change] = []
    errors: list[str] = []
    for agent in agents:
        try:
            changes.append(action(agent))
        except InstallUsageError as exc:
            raise click.UsageError(str(exc)) from exc
        except (SettingsError, OSError) as exc:
            errors.append(str(exc))
    _report(changes, errors)


@click.command("install")
@_selectors
@click.option(
    "--http",
    "http_url",
    metavar="URL",
    default=None,
    help="Claude Code: POST to URL/hooks/claude-code (a `coachloop serve`) instead of "
    "running a command.",
)
@click.option(
    "--token-env",
    metavar="VAR",
    default=None,
    help="With --http: send `Authorization: Bearer $VAR` (default COACHLOOP_SERVE_TOKEN), "
    "filled in by Claude Code from its environment; export VAR with the server's token "
    '(`export COACHLOOP_SERVE_TOKEN="$(cat ~/.coachloop/serve.token)"`).',
)
@click.option(
    "--notify",
    is_flag=True,
    help="Codex: set the legacy notify program in config.toml instead of the Stop hook.",
)
@_BACKUP_OPTION
def install(  # noqa: PLR0917 - click passes every option as an argument
    agents: tuple[str, ...],
    scope: str,
    directory: Path,
    http_url: str | None,
    token_env: str | None,
    notify: bool,
    backup: bool,
) -> None:
    """Add coachloop's hooks to an agent's settings, keeping every hook already there.

    Idempotent: installing again changes nothing. With --backup the previous file is
    kept once as <file>.bak. A settings file that is not valid JSON is refused and left
    untouched. The project is the git top level of the current folder unless --dir.
    """
    from coachloop.install import install as do_install

    if http_url is not None and not http_url.startswith(("http://", "https://")):
        raise click.BadParameter("must start with http:// or https://", param_hint="--http")
    if http_url is not None and token_env is None:
        from coachloop.server.token import ENV_TOKEN

        token_env = ENV_TOKEN  # `coachloop serve` always wants its token

    def one(agent: str) -> Change:
        return do_install(
            agent,
            scope,
            directory,
            http_url=http_url,
            token_env=token_env,
            notify=notify,
            backup=backup,
        )

    _where(directory, scope)
    _run_each(agents or ("claude-code",), one)


@click.command("uninstall")
@_selectors
@_BACKUP_OPTION
def uninstall(agents: tuple[str, ...], scope: str, directory: Path, backup: bool) -> None:
    """Remove coachloop's hooks (only ours) from the agents' settings in one scope,
    leaving the files as they were before install (a file left empty is removed)."""
    from coachloop.install import scopes
    from coachloop.install import uninstall as do_uninstall

    # --local without --agent: only the agents that have it
    chosen = agents or (a for a in ALL_AGENTS if scope in scopes(a))
    _where(directory, scope)
    _run_each(chosen, lambda agent: do_uninstall(agent, scope, directory, backup=backup))


@click.command("doctor")
@click.option(
    "--agent", "agents", type=AGENT_CHOICE, multiple=True, help="Repeatable. Default: every agent."
)
@_DIR_OPTION
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
def doctor(agents: tuple[str, ...], directory: Path | None, as_json: bool) -> None:
    """Say which hooks are installed, run each once, and check the store and the judge."""
    from coachloop.install.doctor import diagnose

    report = diagnose(_project(directory), tuple(agents) or ALL_AGENTS)
    bridge = _bridge_config_problem()
    if bridge is not None:  # the hooks still work; the bridge would refuse to start
        report["warnings"].append(f"bridge: {bridge}")
    from coachloop.chat.check import check_chat

    report["chat"] = check_chat()  # which way the human gives a verdict in each chat
    if as_json:
        click.echo(json.dumps(report, indent=2))
    else:
        _print_report(report)
    sys.exit(0 if report["ok"] else 1)


def _bridge_config_problem() -> str | None:
    """Why `coachloop bridge` would refuse its configuration (token never shown), or None."""
    from coachloop.chat.config import load_config
    from coachloop.config import ConfigError
    from coachloop.redaction import redact

    try:
        load_config()
    except ConfigError as exc:
        return redact(str(exc))
    return None


def _print_report(report: dict[str, Any]) -> None:
    for item in report["installations"]:
        head = f"{item['agent']:<11} {item['scope']:<7}"
        where = f"{head} {item['path']}"
        if item["error"]:
            click.echo(f"{where}: unreadable ({item['error']})")
        elif not item["hooks"]:
            click.echo(f"{where}: {'not installed' if item['exists'] else 'no file'}")
        else:
            files: dict[str, list[dict[str, Any]]] = {}
            for hook in item["hooks"]:
                files.setdefault(hook["file"] or item["path"], []).append(hook)
            for file, hooks in files.items():
                kinds = "/".join(sorted({hook["kind"] for hook in hooks}))
                events = ", ".join(hook["event"] for hook in hooks)
                click.echo(f"{head} {file}: {kinds} hook on {events}")
        for problem in item["problems"]:
            click.echo(f"  WILL NOT RUN: {problem}")
        for note in item["notes"]:
            click.echo(f"  note: {note}")
    for probe in report["probes"]:
        state = "answers" if probe["answers"] else "DOES NOT ANSWER"
        click.echo(f"hook  {probe['target']}: {state} ({probe['detail']})")
    store = report["store"]
    click.echo(f"store {store['location'] or '-'}: {store['detail']}")
    judge = report["judge"]
    click.echo(f"judge {judge['judge'] or '-'}: {judge['detail']}")
    chat = report["chat"]
    click.echo(f"chat  {chat['detail']}")
    for line in chat["chats"]:  # "chat ID: …"
        click.echo(line)
    for warning in report["warnings"]:
        click.echo(f"warning: {warning}")
    if report["ok"]:
        click.echo("OK")
    for problem in report["problems"]:
        click.echo(f"problem: {problem}")
