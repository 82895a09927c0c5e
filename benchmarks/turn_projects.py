"""Small real projects and the scripted model's moves, for the turn-record benchmark.

Each project is a git work tree with a bug its tests catch: `pycalc` (pytest),
`pyunit` (unittest), `nodejs` (node --test), `rust` (cargo test). `Moves(root)` builds
the scripted model's tool calls for a project at `root` (absolute paths, as Claude Code
wants them), and `final(fmt)` a closing message that may quote the real tool output
the model was sent (`{last}`: the last output, `{sha}`: a commit hash git printed).
"""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

from coachloop.testing import Reply, text, tool_results, tool_use

CALC = "def add(a, b):\n    return a - b\n\n\ndef mul(a, b):\n    return a * b\n"
TEST_CALC = (
    "from calc import add, mul\n\n\ndef test_add():\n    assert add(2, 3) == 5\n\n\n"
    "def test_add_negative():\n    assert add(-2, 1) == -1\n\n\n"
    "def test_mul():\n    assert mul(2, 3) == 6\n"
)
SHAPES = "def square(side):\n    return 2 * side\n\n\ndef rectangle(w, h):\n    return w * h\n"
TEST_SHAPES = (
    "import unittest\n\nfrom shapes import rectangle, square\n\n\n"
    "class TestShapes(unittest.TestCase):\n"
    "    def test_square(self):\n        self.assertEqual(square(4), 16)\n\n"
    "    def test_square_zero(self):\n        self.assertEqual(square(0), 0)\n\n"
    "    def test_rectangle(self):\n        self.assertEqual(rectangle(2, 3), 6)\n\n\n"
    'if __name__ == "__main__":\n    unittest.main()\n'
)
STRS = "exports.shout = (s) => s.toUpperCase() + '!';\nexports.whisper = (s) => s.toUpperCase();\n"
TEST_STRS = (
    "const test = require('node:test');\nconst assert = require('node:assert');\n"
    "const { shout, whisper } = require('./strs');\n\n"
    "test('shout', () => assert.strictEqual(shout('hi'), 'HI!'));\n"
    "test('whisper', () => assert.strictEqual(whisper('HI'), 'hi'));\n"
)
CARGO = '[package]\nname = "dbl"\nversion = "0.1.0"\nedition = "2021"\n'
LIB_RS = (
    "pub fn double(x: i64) -> i64 {\n    x * 3\n}\n\n"
    "#[cfg(test)]\nmod tests {\n    use super::*;\n\n"
    "    #[test]\n    fn doubles() {\n        assert_eq!(double(2), 4);\n    }\n\n"
    "    #[test]\n    fn zero() {\n        assert_eq!(double(0), 0);\n    }\n}\n"
)

PROJECTS: dict[str, dict[str, str]] = {
    "pycalc": {"calc.py": CALC, "test_calc.py": TEST_CALC, "README.md": "# calc\n"},
    "pyunit": {"shapes.py": SHAPES, "test_shapes.py": TEST_SHAPES, "README.md": "# shapes\n"},
    "nodejs": {
        "strs.js": STRS,
        "strs.test.js": TEST_STRS,
        "package.json": json.dumps({"name": "strs", "version": "1.0.0"}) + "\n",
    },
    "rust": {"Cargo.toml": CARGO, "src/lib.rs": LIB_RS, ".gitignore": "target/\n"},
}
# (file, buggy text, fixed text, wrong fix) per project
FIX = {
    "pycalc": ("calc.py", "return a - b", "return a + b", "return abs(a - b)"),
    "pyunit": ("shapes.py", "return 2 * side", "return side * side", "return 2 * side + 0"),
    "nodejs": (
        "strs.js",
        "exports.whisper = (s) => s.toUpperCase();",
        "exports.whisper = (s) => s.toLowerCase();",
        "exports.whisper = (s) => s.trim().toUpperCase();",
    ),
    "rust": ("src/lib.rs", "x * 3", "x * 2", "x * 3 + 0"),
}
TEST_CMD = {
    "pycalc": "python -m pytest -q",
    "pyunit": "python -m unittest -v",
    "nodejs": "node --test",
    "rust": "cargo test --offline -q",
}


def git(root: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=bench", "-c", "user.email=bench@example.com", *args],
        cwd=root,
        check=True,
        capture_output=True,
    )


def make_project(root: Path, kind: str, settings: dict[str, Any] | None = None) -> Path:
    """A fresh git work tree of project `kind` at `root`."""
    root.mkdir(parents=True)
    for name, content in PROJECTS[kind].items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(content)
    git(root, "init", "-q")
    git(root, "config", "user.name", "bench")
    git(root, "config", "user.email", "bench@example.com")
    git(root, "add", ".")
    git(root, "commit", "-q", "-m", "start")
    if settings is not None:
        (root / ".claude").mkdir()
        (root / ".claude" / "settings.json").write_text(json.dumps(settings))
    return root


class Moves:
    """The scripted model's tool calls in the project at `root` of kind `kind`."""

    def __init__(self, root: Path, kind: str) -> None:
        self.root, self.kind = root, kind
        self.file, self.bug, self.fixed, self.wrong = FIX[kind]
        self.test_cmd = TEST_CMD[kind]

    def bash(self, command: str) -> Reply:
        return tool_use("Bash", {"command": command})

    def test(self) -> Reply:
        return self.bash(self.test_cmd)

    def read(self, name: str | None = None) -> Reply:
        return tool_use("Read", {"file_path": str(self.root / (name or self.file))})

    def edit(self, old: str, new: str, name: str | None = None) -> Reply:
        path = str(self.root / (name or self.file))
        return tool_use("Edit", {"file_path": path, "old_string": old, "new_string": new})

    def fix(self) -> list[Reply]:
        return [self.read(), self.edit(self.bug, self.fixed)]

    def wrong_fix(self) -> list[Reply]:
        return [self.read(), self.edit(self.bug, self.wrong)]

    def write(self, name: str, content: str) -> Reply:
        return tool_use("Write", {"file_path": str(self.root / name), "content": content})

    def commit(self, message: str = "Fix the bug") -> Reply:
        return self.bash(f'git add -A && git commit -m "{message}"')


_SHA = re.compile(r"^\[[^\]\n]*?\b([0-9a-f]{7,40})\]", re.M)
_RUN = re.compile(r"\bpassed\b|\bfailed\b|\bOK\b|\bFAILED\b|# pass|test result")


def final(fmt: str) -> Callable[[dict[str, Any]], Reply]:
    """A closing message formatted with the real tool outputs the model was sent:
    `{last}` (the last output, trimmed), `{run}` (the last test run's output), `{sha}`
    (the last commit hash git printed)."""

    def respond(body: dict[str, Any]) -> Reply:
        outs = [o.strip() for o in tool_results(body)]
        shas = [m for o in outs for m in _SHA.findall(o)]
        runs = [o for o in outs if _RUN.search(o)]
        return text(
            fmt.format(
                last=outs[-1] if outs else "",
                run=runs[-1] if runs else "",
                sha=shas[-1] if shas else "0000000",
            )
        )

    return respond
