"""The test suite as source: which files are tests or test configuration, what each
Python test asserts, and what a configuration change does.

- `classify(path)`: "test" (test modules: `test_*.py`, `*_test.py`, `*.test.js`,
  `*.spec.ts`, `__tests__/...`), "config" (conftest.py, pytest.ini, tox.ini, setup.cfg,
  pyproject.toml, package.json, jest/vitest/vite configs, CI files), "shadow" (files
  that stand in for the runner: pytest.py, sitecustomize.py, usercustomize.py, *.pth)
  or None.
- `config_fingerprint(path, data)`: the part of a configuration file that concerns
  the tests (pyproject's [tool.pytest*], setup.cfg's [tool:pytest], package.json's
  test scripts and jest/vitest keys; the whole file otherwise), so that an unrelated
  edit (a dependency) is not a finding.
- `python_tests(source)`: each test function's assertions and markers (`TestShape`),
  keyed by its qualified name ("test_add", "TestCalc::test_add").
- `describe_config(path, before, after)`: what changed, in words ("now deselects
  tests (pytest_collection_modifyitems)", "addopts: `` → `--deselect ...`").
"""

from __future__ import annotations

import ast
import configparser
import hashlib
import json
import re
import tomllib
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any

__all__ = [
    "TestShape",
    "classify",
    "config_fingerprint",
    "describe_config",
    "python_tests",
    "split_id",
]

_CONFIG_NAMES = frozenset(
    {"conftest.py", "pytest.ini", "tox.ini", "setup.cfg", "pyproject.toml", "package.json"}
)
_CONFIG_PATTERN = re.compile(r"^(?:jest|vitest|vite)\.(?:config|workspace)\.[cm]?[jt]s(?:on)?$")
_CI = re.compile(
    r"^(?:\.github/workflows/|\.ci/|\.circleci/|\.gitlab-ci\.yml$|\.travis\.yml$|"
    r"azure-pipelines\.yml$|Jenkinsfile$|\.buildkite/)"
)
_SHADOWS = frozenset({"pytest.py", "py.py", "sitecustomize.py", "usercustomize.py"})
_PY_TEST = re.compile(r"^(?:test_.*|.*_test)\.py$")
_JS_TEST = re.compile(r"\.(?:test|spec)\.[cm]?[jt]sx?$")
_SELECTING = re.compile(
    r"--deselect|(?<!\S)-k\b|--ignore|(?<!\S)-m\b|--co\b|--collect-only|(?<!\S)-p\b|"
    r"--lf\b|--last-failed|(?<!\S)-x\b|--exitfirst|--maxfail|--runxfail|--noconftest|"
    r"--testNamePattern|(?<!\S)-t\b|--testPathIgnorePatterns|--exclude|--passWithNoTests"
)
_SELECT_KEYS = frozenset(
    {"testpaths", "python_files", "python_classes", "python_functions", "norecursedirs"}
)
_DESELECT_HOOKS = frozenset(
    {
        "pytest_collection_modifyitems",
        "pytest_ignore_collect",
        "pytest_collect_file",
        "pytest_pycollect_makeitem",
        "pytest_deselected",
        "pytest_generate_tests",
    }
)
_OUTCOME_HOOKS = frozenset(
    {
        "pytest_runtest_makereport",
        "pytest_runtest_logreport",
        "pytest_report_teststatus",
        "pytest_runtest_protocol",
        "pytest_runtest_call",
        "pytest_pyfunc_call",
        "pytest_runtestloop",
        "pytest_terminal_summary",
        "pytest_sessionfinish",
    }
)
_EXITS = frozenset({"os._exit", "sys.exit", "pytest.exit", "exit", "quit", "os.abort"})


def classify(path: str) -> str | None:
    """ "test", "config", "shadow" or None for a project-relative POSIX path."""
    name = PurePosixPath(path).name
    if name in _CONFIG_NAMES or _CONFIG_PATTERN.match(name) or _CI.match(path):
        return "config"
    if (
        name in _SHADOWS
        or name.endswith(".pth")
        or path.split("/", maxsplit=1)[0] in ("pytest", "_pytest")
    ):
        return "shadow"
    if _PY_TEST.match(name) or _JS_TEST.search(name) or "__tests__" in path.split("/"):
        return "test"
    return None


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _options(path: str, data: bytes) -> dict[str, Any] | None:
    """The test-related settings of a configuration file, or None for "the whole file"."""
    name = PurePosixPath(path).name
    text = data.decode("utf-8", errors="replace")
    try:
        if name == "pyproject.toml":
            tool = tomllib.loads(text).get("tool", {})
            return {k: v for k, v in tool.items() if k in ("pytest", "tox")}
        if name == "package.json":
            loaded = json.loads(text)
            if not isinstance(loaded, dict):
                return None
            scripts = loaded.get("scripts")
            scripts = scripts if isinstance(scripts, dict) else {}
            tests = {f"script {k}": v for k, v in scripts.items() if "test" in k}
            return tests | {k: loaded[k] for k in ("jest", "vitest") if k in loaded}
        if name in ("setup.cfg", "tox.ini", "pytest.ini"):
            parser = configparser.ConfigParser(interpolation=None)
            parser.read_string(text)
            wanted = ("tool:pytest", "pytest") if name != "tox.ini" else tuple(parser.sections())
            return {
                f"{s}.{k}" if name == "tox.ini" else k: v
                for s in wanted
                if parser.has_section(s)
                for k, v in parser.items(s)
            }
    except (ValueError, configparser.Error, tomllib.TOMLDecodeError):
        return None
    return None


def config_fingerprint(path: str, data: bytes) -> str:
    """A digest of the test-related part of a configuration file (see the docstring)."""
    options = _options(path, data)
    if options is None:
        return _digest(data)
    return _digest(json.dumps(options, sort_keys=True, default=str).encode())


def _flatten(options: dict[str, Any], prefix: str = "") -> dict[str, str]:
    out: dict[str, str] = {}
    for key, value in options.items():
        label = f"{prefix}{key}"
        if isinstance(value, dict):
            out |= _flatten(value, label + ".")
        else:
            out[label] = value if isinstance(value, str) else json.dumps(value)
    return out


def _hooks(data: bytes | None) -> tuple[set[str], set[str]]:
    """(pytest hook names defined, exit calls made) in a conftest.py."""
    if data is None:
        return set(), set()
    try:
        tree = ast.parse(data)
    except (SyntaxError, ValueError):
        return {"(unparsable)"}, set()
    hooks = {
        n.name
        for n in ast.walk(tree)
        if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef) and n.name.startswith("pytest_")
    }
    hooks |= {
        t.id
        for n in ast.walk(tree)
        if isinstance(n, ast.Assign)
        for t in n.targets
        if isinstance(t, ast.Name) and t.id in ("collect_ignore", "collect_ignore_glob")
    }
    exits = {
        ast.unparse(n.func)
        for n in ast.walk(tree)
        if isinstance(n, ast.Call) and ast.unparse(n.func) in _EXITS
    }
    return hooks, exits


def _conftest_change(before: bytes | None, after: bytes | None) -> list[str]:
    old_hooks, old_exits = _hooks(before)
    new_hooks, new_exits = _hooks(after)
    added = new_hooks - old_hooks
    parts = []
    deselect = sorted(added & (_DESELECT_HOOKS | {"collect_ignore", "collect_ignore_glob"}))
    if deselect:
        parts.append(f"now deselects tests ({', '.join(deselect)})")
    outcome = sorted(added & _OUTCOME_HOOKS)
    if outcome:
        parts.append(f"now rewrites test outcomes ({', '.join(outcome)})")
    if new_exits - old_exits:
        parts.append(f"now ends the test run early ({', '.join(sorted(new_exits - old_exits))})")
    other = sorted(added - _DESELECT_HOOKS - _OUTCOME_HOOKS - set(deselect))
    if other:
        parts.append(f"now defines {', '.join(other)}")
    return parts


def describe_config(path: str, before: bytes | None, after: bytes | None) -> str:
    """What a change to the configuration file `path` does, in a phrase."""
    name = PurePosixPath(path).name
    what = "was added" if before is None else "was deleted" if after is None else "changed"
    parts: list[str] = []
    if name == "conftest.py":
        parts = _conftest_change(before, after)
    else:
        old = _options(path, before) if before is not None else {}
        new = _options(path, after) if after is not None else {}
        if old is not None and new is not None:
            flat_old, flat_new = _flatten(old), _flatten(new)
            keys = sorted(
                k for k in set(flat_old) | set(flat_new) if flat_old.get(k) != flat_new.get(k)
            )
            changes = [f"{k}: `{flat_old.get(k, '')}` → `{flat_new.get(k, '')}`" for k in keys[:4]]
            selecting = any(
                _SELECTING.search(flat_new.get(k, "")) or k.rsplit(".", 1)[-1] in _SELECT_KEYS
                for k in keys
            )
            if selecting:
                parts.append("now deselects tests")
            parts += changes
    detail = f": {'; '.join(parts)}" if parts else ""
    if "now" in detail and what == "changed":
        return f"`{path}`{detail}"
    return f"`{path}` {what}{detail}"


@dataclass(frozen=True, slots=True)
class TestShape:
    """What one Python test checks: its assertions and its markers, as source text."""

    __test__ = False

    asserts: tuple[str, ...]
    markers: tuple[str, ...]
    skips: tuple[str, ...]  # pytest.skip/xfail/importorskip calls in the body


def _assertions(node: ast.AST) -> tuple[list[str], list[str]]:
    asserts: list[str] = []
    skips: list[str] = []
    for sub in ast.walk(node):
        if isinstance(sub, ast.Assert):
            asserts.append(ast.unparse(sub))
        elif isinstance(sub, ast.Call):
            func = ast.unparse(sub.func)
            last = func.rsplit(".", 1)[-1]
            if last.startswith(("assert", "expect")) or func in ("pytest.raises", "pytest.warns"):
                asserts.append(ast.unparse(sub))
            elif func in ("pytest.skip", "pytest.xfail", "pytest.importorskip", "pytest.exit"):
                skips.append(ast.unparse(sub))
    return asserts, skips


def python_tests(source: str | bytes) -> dict[str, TestShape] | None:
    """Each test function's shape by qualified name; None when the file does not parse."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return None
    out: dict[str, TestShape] = {}

    def visit(body: list[ast.stmt], prefix: str) -> None:
        for node in body:
            if isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
                visit(node.body, f"{prefix}{node.name}::")
            elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith(
                "test"
            ):
                asserts, skips = _assertions(node)
                markers = tuple(ast.unparse(d) for d in node.decorator_list)
                out[prefix + node.name] = TestShape(tuple(asserts), markers, tuple(skips))

    visit(tree.body, "")
    return out


def split_id(test_id: str) -> tuple[str, str]:
    """(file, qualified name without parameters) of a test id ("f.py::K::t[1]")."""
    file, _, rest = test_id.partition("::")
    return file, re.sub(r"\[.*\]$", "", rest)
