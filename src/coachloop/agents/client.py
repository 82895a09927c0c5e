"""`coachloop hook AGENT`: the process an agent starts at every stop.

Contract: read the hook JSON from stdin (Codex `notify`: from the last argument), write
the agent's reply to stdout, exit with the reply's code (0). Any internal failure lets
the agent stop (fail open): nothing printed, exit 0. The reply is exactly what
`coachloop.agents.hook.handle(AGENT, payload)` returns.

Fast path: a warm daemon (`coachloop serve --socket PATH`) answers on a unix socket, so
this process only starts Python, imports `sys`, `os` and `_socket` (not `socket`: its
enum/selectors imports cost ~10 ms) and relays bytes. When no daemon answers, the hook
is handled in-process (correct, slower) and a daemon is spawned, detached, for the next
stop; at most one spawn per `SPAWN_GRACE` seconds per socket, and the daemon's own lock
keeps it to one process per socket.

Wire protocol (version 1), one request per connection:
    client -> daemon: b"coachloop-hook/1 " + agent + b"\\n" + payload, then half-close
    daemon -> client: b"+" (taken) as soon as it accepts the connection, then
                      str(exit_code) + b"\\n" + stdout, then close
A daemon that does not take the request within `ACK_TIMEOUT` (hung, stopped, exiting)
or closes without a reply (killed while deciding) is bypassed: the client handles the
stop in-process. That never decides a stop twice: every stop carries an id (a digest
of the payload), the decision and its reply are committed with the id before the daemon
answers, and a stop whose id the session recorded last gets the recorded reply
(`coachloop.agents.dispatch.replayed`). A reply cut short, or none within the time
budget after the daemon took the request, fails open (the daemon may be deciding still).

Environment:
    COACHLOOP_HOOK_DAEMON=0          in-process only: no socket, no spawn
    COACHLOOP_HOOK_SOCKET=PATH       use this socket (default: `socket_path()`)
    COACHLOOP_HOOK_TIMEOUT=SECONDS   budget for the daemon's reply (default 25)
    COACHLOOP_HOOK_IDLE_TIMEOUT=S    idle timeout passed to a spawned daemon (default 1800)

This module imports only the standard library, and only cheap modules at the top.
"""

import _socket
import os
import sys

TYPE_CHECKING = False  # not `typing.TYPE_CHECKING`: importing typing costs ~10 ms
if TYPE_CHECKING:
    from collections.abc import Mapping

MAGIC = b"coachloop-hook/1 "
MAX_REPLY = 16 * 1024 * 1024
CONNECT_TIMEOUT = 0.5
ACK_TIMEOUT = 1.0  # a daemon that has not taken the request by then is bypassed
DEFAULT_TIMEOUT = 25.0
DEFAULT_IDLE_TIMEOUT = 1800.0
SPAWN_GRACE = 10.0
# Environment variables that change what `handle()` does: a daemon serves only hooks
# whose values match its own (they are part of the socket's name).
FINGERPRINT_PREFIXES = ("COACHLOOP_", "ANTHROPIC_", "OPENAI_")
CLIENT_ONLY = frozenset(
    {
        "COACHLOOP_HOOK_DAEMON",
        "COACHLOOP_HOOK_SOCKET",
        "COACHLOOP_HOOK_TIMEOUT",
        "COACHLOOP_HOOK_IDLE_TIMEOUT",
        "COACHLOOP_HOME",
    }
)
SECRET_WORDS = ("KEY", "TOKEN", "SECRET", "PASSWORD")
# Where hooks write, named in the fingerprint: a daemon of an earlier version (same
# package version, another store layout: one store per project) is never handed hooks of
# this one, which would write into a project's old store after it was merged into the home.
LAYOUT = "store:home"
MAX_UNIX_PATH = 100  # sun_path holds 107 bytes on Linux; stay clear of it


def main(args: list[str]) -> int:
    """Run one hook call for `args[0]` (the agent name); always returns an exit code.
    The payload is stdin, or the last argument when there is one (Codex `notify`)."""
    try:
        agent = args[0] if args else ""
        # Codex `notify`: the JSON is the last argument, and stdin is not ours to read
        raw = os.fsencode(args[-1]) if len(args) > 1 else sys.stdin.buffer.read()
    except Exception:  # fail open: the agent must always be able to stop
        return 0
    reply = _via_daemon(agent, raw)
    try:
        return _emit(*reply) if reply is not None else _in_process(agent, raw)
    except Exception:
        return 0
    finally:
        show_notice(os.environ)


def show_notice(env: "Mapping[str, str]") -> None:
    """Print a pending configuration notice (written by `hook.log_failure`) on stderr,
    once: the file is renamed to `.shown`. Costs one failed `open` when there is none."""
    try:
        home = os.path.expanduser(env.get("COACHLOOP_HOME") or "~/.coachloop")
        path = os.path.join(home, "logs", "config-warning")
        with open(path, encoding="utf-8") as fh:
            text = fh.read(4096)
        os.replace(path, path + ".shown")
        sys.stderr.write(text)
        sys.stderr.flush()
    except Exception:  # never let a notice break the fail-open contract
        return


def _via_daemon(agent: str, raw: bytes) -> tuple[int, bytes] | None:
    """The daemon's reply; None when it is off, absent, or unusable here (then a daemon
    is spawned for next time, unless COACHLOOP_HOOK_DAEMON=0)."""
    # Read directly, not through coachloop.config.env: this client must stay stdlib-only
    # and fast, before any coachloop import (tests/test_architecture_env.py lists it).
    env = os.environ
    if env.get("COACHLOOP_HOOK_DAEMON", "1") == "0":
        return None
    try:
        path = socket_path(env)
        if safe_dir(os.path.dirname(path)):
            reply = ask_daemon(path, agent, raw, _timeout(env))
            if reply is not None:
                return reply
    except Exception:  # e.g. no unix sockets on this platform: handle it here
        return None
    spawn_daemon(path)
    return None


def _emit(code: int, out: bytes) -> int:
    if out:
        sys.stdout.buffer.write(out)
        sys.stdout.flush()
    return code


def _in_process(agent: str, raw: bytes) -> int:
    ensure_site()  # the installed command starts Python without `site` (-S)
    from coachloop.agents.hook import handle

    reply = handle(agent, raw)
    return _emit(reply.exit_code, reply.stdout)


def ensure_site() -> None:
    """Run `site` (site-packages, .pth files, sitecustomize) when Python started without
    it (`-S`, as the command `coachloop install` writes does) and nothing has run it
    since; otherwise do nothing. Every path past the daemon relay needs it."""
    if _site_pending():
        import site

        site.main()


def _site_pending() -> bool:
    """Python started without `site` (`-S`) and nothing has run it since."""
    return bool(sys.flags.no_site) and "site" not in sys.modules


def _timeout(env: "Mapping[str, str]") -> float:
    try:
        value = float(env.get("COACHLOOP_HOOK_TIMEOUT", DEFAULT_TIMEOUT))
    except ValueError:
        return DEFAULT_TIMEOUT
    return value if value > 0 else DEFAULT_TIMEOUT


# --- where the daemon listens --------------------------------------------------------


def home_dir(env: "Mapping[str, str]") -> str:
    """The absolute data directory, as `coachloop.config.home()` resolves it."""
    value = env.get("COACHLOOP_HOME")
    path = (
        os.path.expanduser(value) if value else os.path.join(os.path.expanduser("~"), ".coachloop")
    )
    return os.path.abspath(path)


def fingerprint(env: "Mapping[str, str]") -> str:
    """16 hex digits naming this configuration: the data directory, the Python environment
    (`python_prefix()`), the package version, the store layout (`LAYOUT`) and every setting
    variable (of a secret, such as an API key, only that it is set: secrets never reach a
    file name, even hashed)."""
    version = getattr(sys.modules.get("coachloop"), "__version__", "")
    parts = [home_dir(env), python_prefix(), version, LAYOUT]
    for key in sorted(env):
        if key.startswith(FINGERPRINT_PREFIXES) and key not in CLIENT_ONLY:
            secret = any(word in key for word in SECRET_WORDS)
            parts.append(f"{key}=<set>" if secret else f"{key}={env[key]}")
    digest = 0xCBF29CE484222325  # FNV-1a, 64 bit: cheap, no hashlib import
    for byte in "\0".join(parts).encode("utf-8", "surrogateescape"):
        digest = ((digest ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return f"{digest:016x}"


def python_prefix() -> str:
    """`sys.prefix` as `site` makes it, also before `site` ran: the installed command
    starts Python with `-S`, where a virtualenv's `sys.prefix` is still its base
    interpreter's; `coachloop serve` and a spawned daemon start with `site`. Both must
    name the same socket, and two virtualenvs of one interpreter must not share a daemon.
    (`site.venv`: a `pyvenv.cfg` beside the executable or one folder up makes that
    folder's parent the prefix.)"""
    if not _site_pending():
        return sys.prefix
    bin_dir = os.path.dirname(os.path.abspath(sys.executable))
    prefix = os.path.dirname(bin_dir)
    for folder in (bin_dir, prefix):
        if os.path.isfile(os.path.join(folder, "pyvenv.cfg")):
            return prefix
    return sys.prefix


def socket_path(env: "Mapping[str, str] | None" = None) -> str:
    """The hook daemon's socket for this environment: `COACHLOOP_HOOK_SOCKET`, else
    `$COACHLOOP_HOME/run/hookd-<fingerprint>.sock`, else (when that path is too long for
    a unix socket) `$TMPDIR/coachloop-<uid>/hookd-<fingerprint>.sock`."""
    env = os.environ if env is None else env
    explicit = env.get("COACHLOOP_HOOK_SOCKET")
    if explicit:
        return explicit
    name = f"hookd-{fingerprint(env)}.sock"
    path = os.path.join(home_dir(env), "run", name)
    if len(path.encode()) <= MAX_UNIX_PATH:
        return path
    tmp = env.get("TMPDIR") or "/tmp"
    return os.path.join(tmp, f"coachloop-{os.getuid()}", name)


def safe_dir(directory: str) -> bool:
    """True when `directory` is ours and nobody else can write to it (so nobody else can
    put a socket there that would answer our hooks)."""
    try:
        info = os.stat(directory)
    except OSError:
        return False
    return info.st_uid == os.getuid() and not info.st_mode & 0o022


# --- talking to the daemon ------------------------------------------------------------


def ask_daemon(path: str, agent: str, raw: bytes, timeout: float) -> tuple[int, bytes] | None:
    """Send one request. Returns (exit code, stdout); (0, b"") when the daemon took the
    request but its reply failed (fail open); None when no daemon handled it."""
    import time

    sock = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
    try:
        start = time.monotonic()
        sock.settimeout(CONNECT_TIMEOUT)
        while True:
            try:
                sock.connect(path)
                break
            except BlockingIOError:  # the backlog is full: wait briefly for a slot
                if time.monotonic() - start > CONNECT_TIMEOUT:
                    return None
                time.sleep(0.005)
            except OSError:  # absent, refused, or a stale socket file
                return None
        try:
            sock.settimeout(ACK_TIMEOUT)  # a hung daemon's full buffer must not hold us
            sock.sendall(MAGIC + agent.encode("utf-8", "replace") + b"\n" + raw)
            sock.shutdown(_socket.SHUT_WR)
            first = sock.recv(65536)  # b"+": taken (an older daemon answers at once)
        except OSError:
            return None  # not taken in time (hung), or closed before reading: bypass it
        deadline = time.monotonic() + timeout
        chunks: list[bytes] = [first[1:] if first.startswith(b"+") else first]
        size = len(chunks[0])
        while first:
            left = deadline - time.monotonic()
            if left <= 0:
                return (0, b"")
            sock.settimeout(left)
            try:
                chunk = sock.recv(65536)
            except TimeoutError:
                return (0, b"")  # the daemon may be deciding still: do not decide twice
            except OSError:  # reset: handled in-process, where a recorded stop is replayed
                return (0, b"") if size else None
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
            if size > MAX_REPLY:
                return (0, b"")
        return parse_reply(b"".join(chunks))
    finally:
        sock.close()


def parse_reply(data: bytes) -> tuple[int, bytes] | None:
    """Decode a daemon reply; None for an empty one (not handled), (0, b"") when bad."""
    if not data:
        return None
    head, sep, out = data.partition(b"\n")
    if not sep or not head.isdigit() or len(head) > 3 or int(head) > 255:
        return (0, b"")
    return (int(head), out)


# --- starting a daemon ------------------------------------------------------------------


def spawn_daemon(path: str) -> bool:
    """Start `coachloop serve --socket PATH --no-http` detached, unless one was started
    for this socket in the last `SPAWN_GRACE` seconds. Never raises; True if started."""
    try:
        import subprocess
        import time

        run_dir = os.path.dirname(path)
        os.makedirs(run_dir, mode=0o700, exist_ok=True)
        if not safe_dir(run_dir):
            return False
        stamp = path + ".spawn"
        try:
            fd = os.open(stamp, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
        except FileExistsError:
            if time.time() - os.stat(stamp).st_mtime < SPAWN_GRACE:
                return False
            os.unlink(stamp)
            fd = os.open(stamp, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
        os.close(fd)
        env = dict(os.environ)
        env["COACHLOOP_HOME"] = home_dir(env)
        idle = env.get("COACHLOOP_HOOK_IDLE_TIMEOUT") or str(DEFAULT_IDLE_TIMEOUT)
        command = [sys.executable, "-m", "coachloop", "serve", "--socket", path, "--no-http"]
        subprocess.Popen(
            [*command, "--idle-timeout", idle],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            cwd="/",
            env=env,
            start_new_session=True,
            close_fds=True,
        )
        return True
    except Exception:
        return False
