"""`coachloop bench --corrections`: score the judge on the human's own corrections.

Every time the human overrode a verdict (👎 or `/reject` on a delivered message, 👍 or
`/done` or a reply on one the judge meant to send back) the stop was kept as a labelled
example (`coachloop.supervisor.feedback`). This reads them from every store a reader
sees (as `coachloop sessions` does), writes them as a benchmark file (`--export FILE`
keeps it; the rows carry the verdict they correct) and scores the judge on them with
the usual metrics. The verdicts that were corrected scored 0 on these rows by
definition: the figures say how many the judge now gets right.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import click

__all__ = ["correction_rows", "corrections_file"]


def correction_rows(target: str | None) -> list[dict[str, object]]:
    """The corrections of every store read (see the module docstring)."""
    from coachloop.cli.sessions_cmd import _open
    from coachloop.supervisor.feedback import examples

    rows: list[dict[str, object]] = []
    for store in _open(None, target):
        try:
            rows.extend(examples(store))
        finally:
            store.close()
    return rows


def corrections_file(target: str | None, export: Path | None) -> Path | None:
    """The corrections as a JSONL benchmark file (`export`, else a temporary file);
    None when there are none (said on the console)."""
    rows = correction_rows(target)
    if not rows:
        click.echo(
            "No corrections recorded yet: 👎, /reject, /done or a reply in the chat make them."
        )
        return None
    path = export or Path(tempfile.mkstemp(prefix="coachloop-corrections-", suffix=".jsonl")[1])
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))
    click.echo(
        f"{len(rows)} correction(s) from the chat; the verdicts they correct were wrong on"
        f" all of them. The judge now:",
        err=True,
    )
    return path
