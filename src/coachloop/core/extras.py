"""The optional extras and the exact command that installs one into this installation.

`install_hint(extra)` is what every "needs the X extra" message says: from a source
checkout (an editable install) `python -m pip install -e '<checkout>[extra]'`, else
`python -m pip install 'coachloop[extra]'`, with this interpreter's path so the package
lands where coachloop runs. `EXTRAS` maps an optional dependency's top-level module to
its extra. Standard library only.
"""

from __future__ import annotations

import sys
from pathlib import Path

__all__ = ["EXTRAS", "install_hint"]

# top-level module of an optional dependency -> the coachloop extra that installs it
EXTRAS: dict[str, str] = {
    "telegram": "telegram",
    "anthropic": "anthropic",
    "openai": "openai",
    "redis": "redis",
    "jinja2": "dashboard",
    "deepagents": "deepagents",
    "claude_agent_sdk": "claude",
}


def _checkout() -> Path | None:
    """The source checkout this package runs from (an editable install), else None."""
    root = Path(__file__).resolve().parents[3]
    return root if (root / "pyproject.toml").is_file() and (root / "src").is_dir() else None


def install_hint(extra: str) -> str:
    """The pip command that installs `extra` into the interpreter running coachloop."""
    root = _checkout()
    target = f"-e '{root}[{extra}]'" if root is not None else f"'coachloop[{extra}]'"
    return f"{sys.executable} -m pip install {target}"
