"""Tests shown for the wrong target: the run exercised other code than the change.

Only judged when both sides are explicit: the test command names paths, and the message
names the changed source files outside its code blocks. Then some directory or file stem
must be shared ("tax.go" in "internal/invoice" is not tested by "./internal/shipping/...").
"""

from __future__ import annotations

import re

from coachloop.core.verdict import Evidence
from coachloop.scan.lazy import LazyPattern

_TEST_COMMAND = LazyPattern(
    r"\b(?:pytest|py\.test|go test|jest|vitest|npm (?:run )?test|pnpm test|yarn test|"
    r"cargo test|rspec|mix test|phpunit|dotnet test|playwright test|mocha|tox)\b"
)
_PATHLIKE = LazyPattern(r"[\w.-]*[/:][\w./:-]*|[\w-]+\.\w{1,5}\b")
_SOURCE = LazyPattern(r"\.(?:py|go|rs|ts|tsx|js|jsx|rb|java|kt|cs|ex|exs|php|swift|c|cc|cpp|h)$")
_GENERIC = frozenset(
    {
        "src",
        "internal",
        "tests",
        "test",
        "lib",
        "app",
        "pkg",
        "cmd",
        "spec",
        "specs",
        "main",
        "",
        ".",
        "..",
        "...",
        "__tests__",
        "unit",
        "integration",
        "e2e",
    }
)
_TEST_FILE = LazyPattern(r"(?:^|/)test_[^/]*$|_test\.\w+$|\.(?:test|spec)\.\w+$")
_STEM_NOISE = LazyPattern(r"^(?:test_)|(?:_test|\.test|\.spec|_spec|test)$")


def _tokens(path: str) -> set[str]:
    parts = re.split(r"[/:]+", path.strip("./"))
    out = set()
    for i, part in enumerate(parts):
        name = part.rsplit(".", 1)[0] if i == len(parts) - 1 else part
        name = _STEM_NOISE.sub("", name.lower())
        if name not in _GENERIC:
            out.add(name)
            # a test named after a path's parts: "test_fatture_xml" tests fatture/xml.py
            out.update(w for w in re.split(r"[_-]+", name) if len(w) >= 3 and w not in _GENERIC)
    return out


def off_target(
    ev: Evidence, code_blocks: list[str], text: str = "", offered: str = ""
) -> str | None:
    """A sentence naming the mismatch, or None when the run may cover the change.

    `offered`: the closing offer of more work in `text` ("I can also apply the same fix to
    `Dashboard.tsx`"); a file named only there is the next change, not this one."""
    targets: set[str] = set()
    for command in ev.commands:
        if _TEST_COMMAND.search(command):
            for arg in command.split()[1:]:
                if not arg.startswith("-") and _PATHLIKE.fullmatch(arg):
                    targets |= _tokens(arg)
    if not targets:
        return None
    in_code = "\n".join(code_blocks)
    changed = [
        p
        for p in ev.paths
        if _SOURCE.search(p)
        and p not in in_code
        and not (offered and p in offered and text.count(p) == offered.count(p))
    ]
    # The change's own source files; a test-only change (/do-test) is compared by its test
    # files: a test suite's shared helpers (tests/utils.py, conftest.py) are exercised by
    # whichever of its tests run.
    sources = [p for p in changed if not re.search(r"(?:^|/)tests?/|_test\.|\.test\.|test_", p)]
    changed = sources or [p for p in changed if _TEST_FILE.search(p)]
    if not changed:
        return None
    if any(_tokens(p) & targets for p in changed):
        return None
    return (
        f"The tests shown ran {', '.join(sorted(targets))}, but the change is in "
        f"{', '.join(changed[:3])}."
    )
