"""The project's test command: detected from its files, or configured; and what its
output says about failing tests.

Detection order (first match wins): a configured command; Python (pyproject.toml,
setup.py, setup.cfg, pytest.ini, tox.ini, or any `test_*.py` / `*_test.py`) → pytest
with the project's own interpreter (`.venv/bin/python`, `venv/bin/python`) else ours;
`package.json` with a `test` script → `npm test`; `go.mod` → `go test ./...`;
`Cargo.toml` → `cargo test`; `mix.exs` → `mix test`; `Gemfile` with a `spec/` folder →
`bundle exec rspec`; a Makefile with a `test:` target → `make test`. None → no command
(the tests "did not run", which never passes).
"""

from __future__ import annotations

import json
import re
import shlex
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

__all__ = ["TestCommand", "detect", "failing_tests", "from_string"]

_PY_MARKERS = ("pyproject.toml", "setup.py", "setup.cfg", "pytest.ini", "tox.ini")
_SKIP_DIRS = {".git", ".venv", "venv", "node_modules", ".coachloop", "__pycache__"}


@dataclass(frozen=True, slots=True)
class TestCommand:
    """How to run the project's tests.

    `runner`: pytest | npm | go | cargo | mix | rspec | make | custom. `argv` runs the
    whole suite; `specific(paths)` runs only the given tests (the whole suite when the
    runner has no way to select); `coverage()` is the coverage command or None.
    """

    __test__ = False  # not a pytest test class, despite the name

    runner: str
    argv: tuple[str, ...]
    python: str | None = None  # pytest: the interpreter

    def specific(self, tests: Sequence[str]) -> tuple[str, ...]:
        """The command running only `tests` (paths or runner-specific test ids)."""
        if not tests:
            return self.argv
        if self.runner in ("pytest", "cargo", "mix", "rspec"):
            return (*self.argv, *tests)
        if self.runner == "npm":
            return (*self.argv, "--", *tests)
        if self.runner == "go":
            pattern = "^(" + "|".join(re.escape(t) for t in tests) + ")$"
            return (*self.argv, "-run", pattern)
        return self.argv

    def coverage(self, source: str | None = None) -> tuple[str, ...] | None:
        """The coverage command for `source` (pytest needs pytest-cov), or None."""
        if self.runner == "pytest" and self.python:
            target = source or "."
            return (*self.argv, f"--cov={target}", "--cov-report=term-missing")
        if self.runner == "go":
            return (*self.argv, "-cover")
        if self.runner == "npm":
            return (*self.argv, "--", "--coverage")
        return None


def from_string(command: str) -> TestCommand:
    """A configured command (a shell-like string); pytest is recognised to allow selection."""
    argv = tuple(shlex.split(command))
    if not argv:
        raise ValueError("the test command is empty")
    names = [Path(a).name for a in argv[:3]]
    if "pytest" in names or "py.test" in names:
        return TestCommand("pytest", argv, python=argv[0] if argv[0].endswith("python") else None)
    if names[:2] == ["npm", "test"]:
        return TestCommand("npm", argv)
    if names[:2] == ["go", "test"]:
        return TestCommand("go", argv)
    if names[:2] == ["cargo", "test"]:
        return TestCommand("cargo", argv)
    return TestCommand("custom", argv)


def _python(project: Path) -> str:
    for candidate in (".venv/bin/python", "venv/bin/python", ".venv/Scripts/python.exe"):
        path = project / candidate
        if path.is_file():
            return str(path)
    return sys.executable


def _has_python_tests(project: Path, limit: int = 2000) -> bool:
    seen = 0
    stack = [project]
    while stack and seen < limit:
        folder = stack.pop()
        try:
            entries = list(folder.iterdir())
        except OSError:
            continue
        for entry in entries:
            seen += 1
            if entry.is_dir():
                if entry.name not in _SKIP_DIRS and not entry.name.startswith("."):
                    stack.append(entry)
            elif entry.suffix == ".py" and (
                entry.name.startswith("test_") or entry.name.endswith("_test.py")
            ):
                return True
    return False


def _npm_test(project: Path) -> bool:
    try:
        data = json.loads((project / "package.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    scripts = data.get("scripts") if isinstance(data, dict) else None
    return isinstance(scripts, dict) and isinstance(scripts.get("test"), str)


def detect(project: Path) -> TestCommand | None:
    """The test command for `project` (see the module docstring), or None."""
    if any((project / m).exists() for m in _PY_MARKERS) or _has_python_tests(project):
        python = _python(project)
        # -p no:cacheprovider and no bytecode (set by the tools) keep the tree clean.
        argv = (python, "-m", "pytest", "-q", "-rfE", "-p", "no:cacheprovider")
        return TestCommand("pytest", argv, python=python)
    if _npm_test(project):
        return TestCommand("npm", ("npm", "test"))
    if (project / "go.mod").exists():
        return TestCommand("go", ("go", "test", "./..."))
    if (project / "Cargo.toml").exists():
        return TestCommand("cargo", ("cargo", "test"))
    if (project / "mix.exs").exists():
        return TestCommand("mix", ("mix", "test"))
    if (project / "Gemfile").exists() and (project / "spec").is_dir():
        return TestCommand("rspec", ("bundle", "exec", "rspec"))
    makefile = project / "Makefile"
    if makefile.is_file() and re.search(
        r"^test\s*:", makefile.read_text(encoding="utf-8", errors="replace"), re.M
    ):
        return TestCommand("make", ("make", "test"))
    return None


# Failing-test lines per runner: the group `name` is the test's id.
_FAILING = (
    re.compile(r"^(?:FAILED|ERROR) (?P<name>\S+?)(?: - (?P<why>.*))?$", re.M),  # pytest -rfE
    re.compile(r"^\s*--- FAIL: (?P<name>\S+)", re.M),  # go test
    re.compile(r"^test (?P<name>\S+) \.\.\. FAILED$", re.M),  # cargo test
    re.compile(r"^\s*(?:✕|×) (?P<name>.+?)(?: \(\d+\s?m?s\))?$", re.M),  # jest / vitest
    re.compile(r"^FAIL: (?P<name>\S+ \([\w.]+\))", re.M),  # unittest
)


def failing_tests(output: str, limit: int = 20) -> tuple[tuple[str, str], ...]:
    """(test id, one-line reason or "") for each failing test named in `output`."""
    found: dict[str, str] = {}
    for pattern in _FAILING:
        for m in pattern.finditer(output):
            name = m.group("name").strip()
            why = (m.groupdict().get("why") or "").strip()
            if name and name not in found:
                found[name] = why[:300]
            if len(found) >= limit:
                return tuple(found.items())
    return tuple(found.items())
