"""The project's test command: detected from its files, or configured; and what its
output says about failing tests.

Detection order (first match wins): a configured command; Python (pyproject.toml,
setup.py, setup.cfg, pytest.ini, tox.ini, or any `test_*.py` / `*_test.py`) → pytest
with the project's own interpreter (`.venv/bin/python`, `venv/bin/python`) else ours;
`package.json` naming vitest or jest (test script or dependencies) with the runner
installed in `node_modules/.bin` → that runner, run directly; another `package.json`
with a `test` script → `npm test`; `go.mod` → `go test ./...`;
`Cargo.toml` → `cargo test`; `mix.exs` → `mix test`; `Gemfile` with a `spec/` folder →
`bundle exec rspec`; a Makefile with a `test:` target → `make test`. None → no command
(the tests "did not run", which never passes).

Only pytest, vitest, jest, and a command configured with the JUnit XML file it writes
(`report`) give a machine-readable report (see `cleanrun`); the others run, but their
result cannot be verified and counts as "did not run".
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

    `runner`: pytest | vitest | jest | npm | go | cargo | mix | rspec | make | custom.
    `argv` runs the whole suite; `specific(paths)` runs only the given tests (the whole
    suite when the runner has no way to select); `coverage()` is the coverage command
    or None. `report`: for a configured command, the JUnit XML file it writes
    (relative to the project).
    """

    __test__ = False  # not a pytest test class, despite the name

    runner: str
    argv: tuple[str, ...]
    python: str | None = None  # pytest: the interpreter
    report: str | None = None

    @property
    def interpreter(self) -> str:
        """pytest: the Python that runs it (the `pytest` script's own venv, else ours)."""
        if self.python:
            return self.python
        script = Path(self.argv[0])
        sibling = script.parent / "python"
        return (
            str(sibling)
            if script.name in ("pytest", "py.test") and sibling.exists()
            else (sys.executable)
        )

    @property
    def runner_args(self) -> tuple[str, ...]:
        """The arguments after the runner itself (`python -m pytest ARGS`, `vitest run ARGS`)."""
        names = [_name(a) for a in self.argv]
        for marker in ("pytest", "py.test", "vitest", "jest"):
            if marker in names:
                rest = self.argv[names.index(marker) + 1 :]
                return rest[1:] if marker == "vitest" and rest[:1] == ("run",) else rest
        return ()

    def specific(self, tests: Sequence[str]) -> tuple[str, ...]:
        """The command running only `tests` (paths or runner-specific test ids)."""
        if not tests:
            return self.argv
        if self.runner in ("pytest", "cargo", "mix", "rspec"):
            return (*self.argv, *tests)
        if self.runner in ("vitest", "jest"):
            files = sorted({t.split("::", 1)[0] for t in tests})
            names = [t.split("::", 1)[1].replace(" > ", " ") for t in tests if "::" in t]
            select = ("-t", "|".join(re.escape(n) for n in names)) if names else ()
            return (*self.argv, *files, *select)
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
        if self.runner in ("vitest", "jest"):
            return (*self.argv, "--coverage")
        return None


def _name(arg: str) -> str:
    """A program's name: `vitest.mjs` and `jest.js` (resolved runner scripts) as the runner."""
    name = Path(arg).name
    stem = name.split(".", 1)[0]
    return stem if stem in ("vitest", "jest") else name


def from_string(command: str, report: str | None = None) -> TestCommand:
    """A configured command (a shell-like string); pytest, vitest and jest are recognised
    (their reports are then the duel's own); `report` is the JUnit XML file another
    command writes."""
    argv = tuple(shlex.split(command))
    if not argv:
        raise ValueError("the test command is empty")
    names = [_name(a) for a in argv[:3]]
    if report is not None:
        return TestCommand("custom", argv, report=report)
    if "pytest" in names or "py.test" in names:
        python = argv[0] if Path(argv[0]).name.startswith("python") else None
        return TestCommand("pytest", argv, python=python)
    for runner in ("vitest", "jest"):
        if runner in names:
            return TestCommand(runner, argv)
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


def _package(project: Path) -> dict[str, object]:
    try:
        data = json.loads((project / "package.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _npm_test(project: Path) -> bool:
    scripts = _package(project).get("scripts")
    return isinstance(scripts, dict) and isinstance(scripts.get("test"), str)


def _js_runner(project: Path) -> TestCommand | None:
    """vitest or jest, named by package.json and installed in node_modules/.bin."""
    data = _package(project)
    scripts = data.get("scripts")
    test = str(scripts.get("test", "")) if isinstance(scripts, dict) else ""
    deps: set[str] = set()
    for key in ("devDependencies", "dependencies"):
        section = data.get(key)
        if isinstance(section, dict):
            deps |= set(section)
    for runner in ("vitest", "jest"):
        binary = project / "node_modules" / ".bin" / runner
        if (re.search(rf"\b{runner}\b", test) or runner in deps) and binary.exists():
            argv = (
                (str(binary.resolve()), "run") if runner == "vitest" else (str(binary.resolve()),)
            )
            return TestCommand(runner, argv)
    return None


def detect(project: Path) -> TestCommand | None:
    """The test command for `project` (see the module docstring), or None."""
    if any((project / m).exists() for m in _PY_MARKERS) or _has_python_tests(project):
        python = _python(project)
        # -p no:cacheprovider and no bytecode (set by the tools) keep the tree clean.
        argv = (python, "-m", "pytest", "-q", "-rfE", "-p", "no:cacheprovider")
        return TestCommand("pytest", argv, python=python)
    js = _js_runner(project)
    if js is not None:
        return js
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
