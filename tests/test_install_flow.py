"""`install`, `uninstall` and `doctor` as a new user meets them: doctor creates nothing,
install finds the project root and says where, uninstall leaves files as they were."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
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


def git_project(tmp_path: Path) -> Path:
    project = tmp_path / "repo"
    (project / "src" / "deep").mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    (project / "README").write_text("mine\n")
    return project


def test_install_from_a_subfolder_finds_the_git_top_level_and_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = git_project(tmp_path)
    monkeypatch.chdir(project / "src" / "deep")
    res = invoke("install")
    assert res.exit_code == 0, res.output
    assert f"project {project} (the git top level" in res.output
    assert (project / ".claude" / "settings.json").is_file()
    assert not (project / "src" / "deep" / ".claude").exists()


def test_install_outside_git_says_where_it_installed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "plain"
    folder.mkdir()
    monkeypatch.chdir(folder)
    res = invoke("install")
    assert res.exit_code == 0
    assert f"project {folder} (not a git repository" in res.output


def test_install_refuses_a_missing_dir_and_two_scopes(tmp_path: Path) -> None:
    res = invoke("install", "--dir", str(tmp_path / "absent"))
    assert res.exit_code == 2 and "does not exist" in res.output
    assert not (tmp_path / "absent").exists()
    res = invoke("install", "--project", "--user", "--dir", str(tmp_path))
    assert res.exit_code == 2 and "--project and --user exclude each other" in res.output
    assert tree(tmp_path) == ["coachloop-home"] or tree(tmp_path) == []


def test_uninstall_leaves_the_files_as_before_install(tmp_path: Path) -> None:
    project = git_project(tmp_path)
    before = {
        p: p.read_bytes() for p in project.rglob("*") if p.is_file() and ".git" not in p.parts
    }
    for agent in ("claude-code", "codex", "gemini"):
        assert invoke("install", "--agent", agent, "--dir", str(project)).exit_code == 0
    assert invoke("uninstall", "--dir", str(project)).exit_code == 0
    after = {p: p.read_bytes() for p in project.rglob("*") if p.is_file() and ".git" not in p.parts}
    assert after == before
    assert sorted(p.name for p in project.iterdir()) == [".git", "README", "src"]


def test_backup_only_when_asked(tmp_path: Path) -> None:
    project = git_project(tmp_path)
    settings = project / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text('{"model": "opus"}\n')
    assert invoke("install", "--dir", str(project)).exit_code == 0
    assert invoke("uninstall", "--dir", str(project)).exit_code == 0
    assert json.loads(settings.read_text()) == {"model": "opus"}
    assert sorted(p.name for p in settings.parent.iterdir()) == ["settings.json"]
    assert invoke("install", "--backup", "--dir", str(project)).exit_code == 0
    assert settings.with_name("settings.json.bak").read_text() == '{\n  "model": "opus"\n}\n'
