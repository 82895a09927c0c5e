"""The unix-socket hook daemon: the server side of `coachloop.agents.client`'s protocol.

One request per connection (see `coachloop.agents.client` for the wire format): answer
`b"+"` (taken) at once, read the header line and the payload until the client
half-closes, call `handle()`, answer `b"<exit code>\\n" + stdout`, close. A request with a
bad header gets the empty reply `b"0\\n"` (the agent stops); one over `MAX_REQUEST`, or
one that cannot be read, is closed unanswered: the client then handles it in-process
(where an oversized payload is cut to head and tail, then judged).

The socket file is created with mode 0600 in a directory only its owner can write to;
the caller (`daemon.py`) holds the socket's lock, so removing a stale file is safe.
"""

from __future__ import annotations

import contextlib
import logging
import os
import socket
import socketserver
import stat

from coachloop.agents.client import MAGIC
from coachloop.server.activity import Activity

log = logging.getLogger("coachloop.server")

MAX_REQUEST = 64 * 1024 * 1024
READ_TIMEOUT = 30.0
MAX_AGENT = 64


def parse_request(data: bytes) -> tuple[str, bytes] | None:
    """Split a request into (agent, payload); None when it is not one."""
    if not data.startswith(MAGIC):
        return None
    head, sep, payload = data[len(MAGIC) :].partition(b"\n")
    if not sep or not head or len(head) > MAX_AGENT:
        return None
    try:
        agent = head.decode("ascii")
    except UnicodeDecodeError:
        return None
    return (agent, payload) if agent.isprintable() else None


def read_request(sock: socket.socket, limit: int = MAX_REQUEST) -> bytes | None:
    """Read until the peer half-closes; None when over `limit` or on a socket error."""
    chunks: list[bytes] = []
    size = 0
    try:
        while True:
            chunk = sock.recv(1 << 20)
            if not chunk:
                return b"".join(chunks)
            size += len(chunk)
            if size > limit:
                return None
            chunks.append(chunk)
    except OSError:
        return None


class _Handler(socketserver.BaseRequestHandler):
    server: HookSocketServer

    def handle(self) -> None:
        sock: socket.socket = self.request
        sock.settimeout(READ_TIMEOUT)
        with contextlib.suppress(OSError):
            # taken, at once (before the payload is read): the client stops watching for a
            # hung daemon. Should this one die before its reply, the client handles the
            # stop in-process, where a stop already recorded gets its recorded answer.
            sock.sendall(b"+")
        data = read_request(sock)
        if data is None:  # over `MAX_REQUEST` (or unreadable): not taken, no answer, so
            log.warning("hook request over %d bytes: left to the client", MAX_REQUEST)
            return  # the client handles it in-process, where a huge payload is cut
        request = parse_request(data) if data else None
        if request is None:
            log.warning("unreadable hook request (%s bytes)", "?" if data is None else len(data))
            code, out = 0, b""
        else:
            reply = self.server.activity.handle(*request)
            code, out = reply.exit_code, reply.stdout
        with contextlib.suppress(OSError):  # the client gave up: nothing to tell it
            sock.sendall(b"%d\n" % code + out)


class HookSocketServer(socketserver.ThreadingMixIn, socketserver.UnixStreamServer):
    """A threaded unix-socket server answering hook requests; one thread per request."""

    daemon_threads = True
    request_queue_size = 256

    def __init__(self, path: str, activity: Activity) -> None:
        self.activity = activity
        self.path = path
        self.inode = 0
        super().__init__(path, _Handler)

    def server_bind(self) -> None:
        with contextlib.suppress(FileNotFoundError):
            if stat.S_ISSOCK(os.lstat(self.path).st_mode):
                os.unlink(self.path)  # stale: the lock says nobody else serves it
        old = os.umask(0o177)
        try:
            self.socket.bind(self.path)
        finally:
            os.umask(old)
        os.chmod(self.path, 0o600)
        self.inode = os.stat(self.path).st_ino

    def owns_path(self) -> bool:
        """True while the socket file is still the one this server created."""
        try:
            return os.stat(self.path).st_ino == self.inode
        except OSError:
            return False

    def remove_path(self) -> None:
        """Remove the socket file if it is still ours."""
        if self.owns_path():
            with contextlib.suppress(OSError):
                os.unlink(self.path)
