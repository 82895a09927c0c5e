"""Capture a command's terminal output at 80 columns (tmux), as text and as SVG.

Usage: python docs/screens/capture.py NAME -- COMMAND...   (run from the repository)
Writes docs/screens/NAME.txt (plain) and docs/screens/NAME.svg (with colours, via
rich's export). The command runs in a real terminal of 80 columns, so what is saved is
what a user sees there.
"""

from __future__ import annotations

import shlex
import subprocess
import sys
import time
from pathlib import Path

from rich.console import Console
from rich.text import Text

HERE = Path(__file__).resolve().parent


def main(argv: list[str]) -> None:
    name, command = argv[0], argv[argv.index("--") + 1 :]
    session = f"capture-{name}"
    done = HERE / f".{name}.done"
    done.unlink(missing_ok=True)
    line = f"{shlex.join(command)}; touch {shlex.quote(str(done))}; sleep 600"
    subprocess.run(
        ["tmux", "new-session", "-d", "-s", session, "-x", "80", "-y", "200", line], check=True
    )
    try:
        deadline = time.monotonic() + 300
        while not done.exists() and time.monotonic() < deadline:
            time.sleep(0.5)
        ansi = (
            subprocess.run(
                ["tmux", "capture-pane", "-t", session, "-p", "-e", "-S", "-", "-E", "-"],
                capture_output=True,
                text=True,
                check=True,
            ).stdout.rstrip()
            + "\n"
        )
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], check=False)
        done.unlink(missing_ok=True)
    text = Text.from_ansi(ansi)
    (HERE / f"{name}.txt").write_text(text.plain)
    console = Console(record=True, width=80, file=open("/dev/null", "w"), force_terminal=True)
    console.print(text, soft_wrap=True)
    console.save_svg(str(HERE / f"{name}.svg"), title=f"$ {shlex.join(command)}")


if __name__ == "__main__":
    main(sys.argv[1:])
