"""The folder tree is the data flow: checks over the source itself.

- no import cycle between packages (a package is `coachloop.X`, a folder or a module);
- the store is persistence only, and only the supervisor writes to it;
- `coachloop.core` (the shared types) imports nothing but the standard library (and
  itself: the record's test summaries are the verdict's);
- no module grows past 400 lines.
"""

from __future__ import annotations

import ast
import re
import sys
from collections import defaultdict
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "coachloop"
MAX_LINES = 400


def _module_name(path: Path) -> str:
    parts = path.relative_to(SRC.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            if node.module == "coachloop":  # `from coachloop import snapshots`
                found.update(f"coachloop.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


def _package(module: str) -> str:
    """`coachloop.judge.rules.x` -> `coachloop.judge`; the root stays itself."""
    return ".".join(module.split(".")[:2])


def _package_graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = defaultdict(set)
    for path in SRC.rglob("*.py"):
        here = _package(_module_name(path))
        for target in _imports(path):
            if target == "coachloop" or not target.startswith("coachloop."):
                continue  # the root package only re-exports lazily
            there = _package(target)
            if there != here:
                graph[here].add(there)
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected component with more than one package (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in graph.get(node, ()):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in list(graph):
        if node not in index:
            visit(node)
    return found


def test_the_cycle_check_can_fail() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_package_import_cycle() -> None:
    """Every import counts, lazy ones and `TYPE_CHECKING` ones too: a layer that needs a
    type from above it is in the wrong layer, whenever it imports it."""
    assert _cycles(_package_graph()) == []


def test_the_store_takes_no_decision() -> None:
    """Persistence only: nothing in `coachloop.store` imports the supervisor or judge."""
    graph = _package_graph()
    assert graph["coachloop.store"] <= {"coachloop.core", "coachloop.config"}, graph[
        "coachloop.store"
    ]


def test_nothing_outside_the_supervisor_writes_through_its_store() -> None:
    """The supervisor is the only door to session state: no `supervisor.store` anywhere,
    and the store's writes (`transact`, `delete_session`, `forget_session`,
    `purge_forgotten`, `save_life`, `trim_*`, `claim`, `mark_sent`) are called only
    inside `supervisor/` and `store/` (the outbox's
    `mark_sent` through `Supervisor.mark_sent`)."""
    found = [
        str(p.relative_to(SRC))
        for p in SRC.rglob("*.py")
        if re.search(r"\b(supervisor|sup)\.store\b", p.read_text(encoding="utf-8"))
    ]
    assert found == []
    writes = re.compile(
        r"\.(transact|delete_session|forget_session|purge_forgotten|save_life|trim_\w+|claim)\("
        r"|(?<!supervisor)\.mark_sent\("
    )
    outside = [
        str(p.relative_to(SRC))
        for p in SRC.rglob("*.py")
        if p.relative_to(SRC).parts[0] not in ("supervisor", "store")
        and writes.search(p.read_text(encoding="utf-8"))
    ]
    assert outside == []


def test_the_agents_are_listed_once() -> None:
    """Agents as data: one registry (`coachloop.core.agents`); no other list of them."""
    listed = re.compile(r'"claude-code",\s*"codex"')
    found = [
        str(p.relative_to(SRC))
        for p in SRC.rglob("*.py")
        if p != SRC / "core" / "agents.py" and listed.search(p.read_text(encoding="utf-8"))
    ]
    assert found == []
    from coachloop.core.agents import AGENTS, HOOKS, installable, with_option
    from coachloop.install import InstallUsageError, install

    assert installable() == ("claude-code", "codex", "gemini")
    assert (with_option("http"), with_option("notify")) == (("claude-code",), ("codex",))
    with pytest.raises(InstallUsageError, match="--http is for claude-code"):
        install("gemini", "project", SRC, http_url="http://127.0.0.1:1")
    with pytest.raises(InstallUsageError, match="--notify is for codex only"):
        install("claude-code", "project", SRC, notify=True)
    assert set(HOOKS) == {"claude-code", "codex", "codex-notify", "gemini"}
    assert all(h.agent in {a.name for a in AGENTS} for h in HOOKS.values())


def test_core_imports_only_the_standard_library() -> None:
    stdlib = set(sys.stdlib_module_names) | {"__future__"}
    for path in (SRC / "core").rglob("*.py"):
        for target in _imports(path):
            top = target.split(".")[0]
            inside = target == "coachloop.core" or target.startswith("coachloop.core.")
            assert top in stdlib or inside, f"{path.name} imports {target}"


def test_no_module_over_400_lines() -> None:
    too_long = {
        str(p.relative_to(SRC)): n
        for p in SRC.rglob("*.py")
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert too_long == {}
