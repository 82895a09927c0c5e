"""The hook command `install` writes starts Python without `site` (-S) and still decides:
in-process (which needs site-packages), when the package's folder has moved, and by a shell."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

import coachloop
from coachloop.install import common
from coachloop.install.common import coachloop_executable, hook_command, is_our_command

HEDGED = "I updated the login handler in src/auth.py. It should work now, probably."


def _stop(tmp: Path, sid: str) -> bytes:
    return json.dumps(
        {
            "hook_event_name": "Stop",
            "session_id": sid,
            "cwd": str(tmp),
            "transcript_path": str(tmp / "none.jsonl"),
            "last_assistant_message": HEDGED,
            "stop_hook_active": False,
        }
    ).encode()


def _run(command: str, tmp: Path, sid: str) -> subprocess.CompletedProcess[bytes]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("COACHLOOP_")}
    env |= {"COACHLOOP_HOME": str(tmp / "home"), "COACHLOOP_HOOK_DAEMON": "0"}
    return subprocess.run(
        ["bash", "-c", command],
        input=_stop(tmp, sid),
        env=env,
        capture_output=True,
        check=False,
        timeout=120,
    )


def test_the_installed_command_starts_without_site_and_decides_in_process(tmp_path: Path) -> None:
    argv = coachloop_executable()
    assert argv[1] == "-S"  # no site-packages, .pth files or sitecustomize on the relay
    done = _run(hook_command("claude-code"), tmp_path, "launch-1")
    assert done.returncode == 0, done.stderr
    reply = json.loads(done.stdout)
    assert reply["decision"] == "block" and "guess" in reply["reason"]


def test_a_package_moved_since_install_is_found_through_site(tmp_path: Path) -> None:
    python, no_site, dash_c, code = coachloop_executable()
    root = json.dumps(str(Path(__file__).resolve().parents[1] / "src"))
    # The folder written at install time no longer holds coachloop (it was reinstalled
    # elsewhere): the launcher runs `site` and imports the package from where it is now.
    assert root in code or "site-packages" in code
    moved = code.replace(code.split("r = ", 1)[1].split(";", 1)[0], json.dumps(str(tmp_path)))
    assert moved != code
    command = shlex.join([python, no_site, dash_c, moved, "hook", "claude-code"])
    assert is_our_command(command)
    done = _run(command, tmp_path, "launch-2")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["decision"] == "block"


def test_commands_of_earlier_installs_are_still_ours() -> None:
    earlier = 'python3 -c "from coachloop.entry import main; main()" hook claude-code'
    assert is_our_command(earlier)
    assert is_our_command(hook_command("gemini"))
    assert not is_our_command("python3 -S -c 'print(1)' hook claude-code")


def _socket_as(no_site: bool, tmp: Path) -> str:
    """The hook socket this interpreter names, started with `-S` (as the installed
    command) or with `site` (as `coachloop serve`, the CLI and a spawned daemon)."""
    python, _, _, code = coachloop_executable()
    tail = "from coachloop.entry import main; main()"
    assert code.endswith(tail)
    code = code.replace(
        tail, "from coachloop.agents.client import socket_path; print(socket_path())"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("COACHLOOP_")}
    env["COACHLOOP_HOME"] = str(tmp / "home")
    argv = [python, *(["-S"] if no_site else []), "-c", code]
    done = subprocess.run(argv, env=env, capture_output=True, text=True, check=True, timeout=60)
    return done.stdout.strip()


def test_the_relay_and_the_daemon_name_the_same_socket(tmp_path: Path) -> None:
    # `coachloop serve` (started with site: a virtualenv's sys.prefix) listens where the
    # installed command (-S: sys.prefix is the base interpreter's until site runs) looks;
    # and two virtualenvs of one base interpreter keep daemons of their own.
    assert _socket_as(True, tmp_path) == _socket_as(False, tmp_path)


def test_the_package_folder_is_written_exactly_whatever_its_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Quotes, a backslash, spaces, accents, a character beyond the BMP (JSON would write
    # it as a surrogate pair: two characters to Python) and a byte that is not UTF-8.
    name = "a b'c\"d\\e é 😀 " + os.fsdecode(b"\xff")
    root = tmp_path / name
    shutil.copytree(
        Path(coachloop.__file__).parent, root / "coachloop", ignore=shutil.ignore_patterns("*.pyc")
    )
    monkeypatch.setattr(common, "package_root", lambda: str(root))
    python, no_site, dash_c, code = shlex.split(hook_command("codex"))[:4]
    assert [python, no_site, dash_c, code] == coachloop_executable()
    tail = "from coachloop.entry import main; main()"
    probe = code.replace(
        tail,
        (
            "import coachloop; sys.stdout.buffer.write("
            'str("site" in sys.modules).encode() + b" " + os.fsencode(coachloop.__file__))'
        ),
    )
    done = subprocess.run(
        [python, no_site, dash_c, probe], capture_output=True, check=True, timeout=60, cwd="/"
    )
    # The copy is found where the launcher put it, without running site.
    expected = os.fsencode(root / "coachloop" / "__init__.py")
    assert done.stdout == b"False " + expected
