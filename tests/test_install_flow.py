"""`install`, `uninstall` and `doctor` as a new user meets them: doctor creates nothing,
install finds the project root and says where, uninstall leaves files as they were."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from click.testing import CliRunner

from coachloop.cli import cli


def invoke(*args: str) -> Any:
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def tree(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*"))


def test_doctor_creates_nothing(tmp_path: Path) -> None:
    folder = tmp_path / "somewhere"
    folder.mkdir()
    res = invoke("doctor", "--dir", str(folder))
    assert res.exit_code == 1  # nothing installed
    assert "not created yet" in res.output
    assert tree(folder) == []
    assert not (tmp_path / "coachloop-home" / "coachloop.db").exists()
