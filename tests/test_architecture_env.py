"""One reader of coachloop's own environment: `coachloop.config` (`config.env.environment()`).

Outside `coachloop/config/`, a module may touch `os.environ` (or `os.getenv`) only when
it is listed in `EXCEPTIONS` with the reason, and even then it may not read a
`COACHLOOP_*` variable unless it is in `MAY_READ_COACHLOOP` (the hook client, which runs
before any coachloop import; a click option's `envvar=`). The clean-run script's own read of `COACHLOOP_PYTHONPATH`
is source text run by a bare child interpreter, not a read by this process.
"""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "coachloop"

EXCEPTIONS: dict[str, str] = {
    "agents/client.py": "the command-hook client: stdlib only and fast, before any import",
    "agents/projects.py": "fingerprints COACHLOOP_/ANTHROPIC_/OPENAI_ for the daemon's cache key",
    "duel/cleanrun.py": "builds the clean run's child environment",
    "duel/players.py": "builds a player's subprocess environment",
    "duel/proc.py": "builds a subprocess environment",
    "runners/claude_env.py": "builds Claude Code's subprocess environment (scrubbing)",
    "install/probes.py": "builds a probe's subprocess env; fills a hook's header variables",
    "install/doctor.py": "provider API key named by config (presence only)",
    "judge/providers/__init__.py": "provider API keys named by config",
    "install/claude.py": "another tool's variable: CLAUDE_CONFIG_DIR",
    "install/known.py": "another tool's variable: CLAUDE_CONFIG_DIR",
    "install/codex.py": "another tool's variable: CODEX_HOME",
    "install/gemini.py": "another tool's variable: GEMINI_CLI_TRUSTED_FOLDERS_PATH",
    "chat/telegram.py": "another library's variable: PTB_TIMEDELTA (set, not read)",
}
MAY_READ_COACHLOOP: dict[str, str] = {
    "agents/client.py": "the command-hook client: stdlib only, before any coachloop import",
    "cli/duel_cmd.py": "click's `envvar=` for --test-cmd: an option's default, shown in --help",
}


def _is_environ(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Attribute)
        and node.attr in ("environ", "getenv")
        and isinstance(node.value, ast.Name)
        and node.value.id == "os"
    )


def _constants(tree: ast.Module, depth: int = 0) -> dict[str, str]:
    """The string constants a module can name: its own `NAME = "string"` assignments
    and the ones it imports (at any level) from other coachloop modules."""
    found: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant):
            for target in node.targets:
                if isinstance(target, ast.Name) and isinstance(node.value.value, str):
                    found[target.id] = node.value.value
    for imp in ast.walk(tree) if depth < 2 else ():
        if isinstance(imp, ast.ImportFrom) and (imp.module or "").startswith("coachloop."):
            parts = str(imp.module).split(".")[1:]
            base = SRC.joinpath(*parts)
            path = base / "__init__.py" if base.is_dir() else base.with_suffix(".py")
            if not path.is_file():
                continue
            theirs = _constants(ast.parse(path.read_text(encoding="utf-8")), depth + 1)
            for alias in imp.names:
                if alias.name in theirs:
                    found[alias.asname or alias.name] = theirs[alias.name]
    return found


def _coachloop_reads(tree: ast.Module) -> list[int]:
    """Lines reading a `COACHLOOP_*` variable, named by a literal or a constant (its own
    or imported): `X[...]`, `X.get(...)`, `os.getenv(...)` or `... in X`, where `X` is
    `os.environ` or any mapping (a copy of it: `env = dict(os.environ)`). Writing one
    (`env["COACHLOOP_X"] = ...`, building a child's environment) is not a read."""
    names = _constants(tree)

    def coachloop(arg: ast.AST) -> bool:
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
            return arg.value.startswith("COACHLOOP_")
        return isinstance(arg, ast.Name) and names.get(arg.id, "").startswith("COACHLOOP_")

    lines: list[int] = []
    for node in ast.walk(tree):
        key: ast.AST | None = None
        if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load):
            key = node.slice
        elif isinstance(node, ast.Call) and node.args:
            func = node.func
            if _is_environ(func) or (isinstance(func, ast.Attribute) and func.attr == "get"):
                key = node.args[0]
        elif isinstance(node, ast.Compare) and any(
            isinstance(op, ast.In | ast.NotIn) for op in node.ops
        ):
            key = node.left
        elif isinstance(node, ast.keyword) and node.arg == "envvar":  # click reads it
            key = node.value
        if key is not None and coachloop(key) and hasattr(node, "lineno"):
            lines.append(node.lineno)
    return lines


def _modules() -> dict[str, ast.Module]:
    return {
        str(path.relative_to(SRC)): ast.parse(path.read_text(encoding="utf-8"))
        for path in sorted(SRC.rglob("*.py"))
        if path.relative_to(SRC).parts[0] != "config"
    }


def test_only_the_settings_layer_reads_the_environment() -> None:
    """Outside config/, `os.environ` appears only in the listed
    exceptions, and a COACHLOOP_* variable is read only where it must be."""
    unlisted = [
        rel
        for rel, tree in _modules().items()
        if rel not in EXCEPTIONS
        and (
            any(_is_environ(n) for n in ast.walk(tree))
            or any(
                isinstance(n, ast.ImportFrom)
                and n.module == "os"
                and any(a.name in ("environ", "getenv") for a in n.names)
                for n in ast.walk(tree)
            )
        )
    ]
    assert unlisted == [], f"read the environment through coachloop.config.env: {unlisted}"
    reads = {
        rel: lines
        for rel, tree in _modules().items()
        if rel not in MAY_READ_COACHLOOP and (lines := _coachloop_reads(tree))
    }
    assert reads == {}, f"COACHLOOP_* read outside coachloop.config.env: {reads}"


def test_every_exception_still_touches_the_environment() -> None:
    """A listed exception that no longer needs `os.environ` leaves the list."""
    modules = _modules()
    stale = [rel for rel in EXCEPTIONS if not any(map(_is_environ, ast.walk(modules[rel])))]
    stale += [rel for rel in MAY_READ_COACHLOOP if not _coachloop_reads(modules[rel])]
    assert stale == []


def test_the_check_sees_a_coachloop_read() -> None:
    """The checker itself: each form of reading a COACHLOOP_* variable is caught."""
    source = (
        'import os\nENV = "COACHLOOP_X"\n'
        'a = os.environ.get("COACHLOOP_Y")\nb = os.environ[ENV]\n'
        'c = os.getenv("COACHLOOP_Z")\nd = "COACHLOOP_W" in os.environ\n'
        'e = os.environ.get("HOME")\nenv = dict(os.environ)\nf = env.get(ENV)\n'
        'env["COACHLOOP_V"] = "1"\nfrom coachloop.store import ENV_STORE\n'
        'g = env[ENV_STORE]\n@click.option("--x", envvar="COACHLOOP_U")\ndef h() -> None: ...\n'
    )
    assert _coachloop_reads(ast.parse(source)) == [3, 4, 5, 6, 9, 12, 13]
