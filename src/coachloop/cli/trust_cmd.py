"""`coachloop trust [DIR]`: honour a project's whole `.coachloop/config.toml`.

A repository's config may set only harmless keys (`coachloop.config.trust.HARMLESS`);
the keys that choose where data or credentials go (judge, model, URLs, key variables,
store) count only after the user has read them and trusted this exact content. The
command shows those keys, asks (unless `--yes`), and records the file's SHA-256 in
`$COACHLOOP_HOME/trusted.json`. An edited file is untrusted again: run it again.
`--list` shows what is trusted and whether each file still matches.
"""

from __future__ import annotations

from pathlib import Path

import click

__all__ = ["trust"]


@click.command("trust")
@click.argument(
    "directory",
    required=False,
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("."),
)
@click.option("--yes", is_flag=True, help="Trust without asking.")
@click.option("--list", "show", is_flag=True, help="List trusted config files and exit.")
def trust(directory: Path, yes: bool, show: bool) -> None:
    """Let a project's own config choose the judge, its URL and key, and the store."""
    import tomllib

    from coachloop.config import trust as model
    from coachloop.config.project import project_root
    from coachloop.redaction import shown

    if show:
        for name, digest in sorted(model.records().items()):
            try:
                state = "ok" if model.digest(Path(name).read_text("utf-8")) == digest else "changed"
            except OSError:
                state = "missing"
            click.echo(f"{state:8} {shown(name)}")
        return
    folder = directory.expanduser().resolve()
    project = project_root(str(folder)) or folder
    path = project / ".coachloop" / "config.toml"
    if not path.is_file():
        click.echo(f"{path} does not exist: nothing to trust.")
        return
    if not model.safe_path(path, project):
        raise click.ClickException(
            f"{path} (or a folder above it) belongs to another user or everyone may write "
            "it; coachloop never reads it"
        )
    text = path.read_text(encoding="utf-8")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise click.ClickException(f"{path}: {exc}") from None
    table = data.get("coachloop", data)
    keys = model.untrusted_keys(table)
    if not keys:
        click.echo(f"{path} sets only harmless keys; nothing needs trust.")
        return
    click.echo(f"{path} sets keys that choose where data or credentials go:")
    for key in keys:
        click.echo(f"  {key} = {shown(repr(table[key]))[:200]}")
    if not yes and not click.confirm("Trust this file as it is now?", default=False):
        raise click.ClickException("not trusted")
    model.record(path, text)
    click.echo(f"Trusted {path} (until it changes).")
