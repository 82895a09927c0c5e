"""The code stays clean: ruff (lint and format) and mypy --strict, run as tests."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


@pytest.mark.parametrize(
    "command",
    [
        ["ruff", "check", "src", "tests"],
        ["ruff", "format", "--check", "src", "tests"],
        ["mypy"],
    ],
    ids=["ruff-check", "ruff-format", "mypy-strict"],
)
def test_tool_is_clean(command: list[str]) -> None:
    tool = BIN / command[0]
    assert tool.exists(), f"{command[0]} is not installed beside {sys.executable}"
    done = subprocess.run(
        [str(tool), *command[1:]],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
