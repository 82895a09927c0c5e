"""The plumbing the package's local test servers share (`ScriptedModel`,
`TelegramBotAPI`): a threaded HTTP server on a local port, served from a daemon thread.

    self._http = LocalHTTPServer(self, Handler, host=host, port=port, name="my-server")
    self._http.start()  # ... self._http.base_url ... self._http.close()
"""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

__all__ = ["LocalHTTPServer"]


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False
    owner: object


class LocalHTTPServer:
    """`handler` served on `host`:`port` (0: an ephemeral port), for `owner`.

    Contract: the socket is bound on construction, so `base_url` is known before
    `start()`. Each request runs `handler` in its own daemon thread, where
    `self.server.owner` is `owner`. `start()` serves from a daemon thread named `name`
    (starting twice is a no-op); `close()` stops serving, waits up to 5 s for that
    thread and closes the socket (also when never started). Not reusable once closed.
    """

    def __init__(
        self,
        owner: object,
        handler: type[BaseHTTPRequestHandler],
        *,
        host: str,
        port: int,
        name: str,
    ) -> None:
        self._server = _Server((host, port), handler)
        self._server.owner = owner
        self._name = name
        self._thread: threading.Thread | None = None

    @property
    def base_url(self) -> str:
        """The root URL, e.g. "http://127.0.0.1:41234"."""
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    def start(self) -> None:
        """Serve in a daemon thread (polling for shutdown every 20 ms)."""
        if self._thread is None:
            self._thread = threading.Thread(
                target=self._server.serve_forever,
                kwargs={"poll_interval": 0.02},
                name=self._name,
                daemon=True,
            )
            self._thread.start()

    def close(self) -> None:
        """Stop serving and close the socket."""
        if self._thread is not None:
            self._server.shutdown()
            self._thread.join(timeout=5)
            self._thread = None
        self._server.server_close()
