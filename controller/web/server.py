"""Serving an aiohttp application on the service's loop, as an async context manager.

Why: the board's service and the hub both serve a page beside other work on one asyncio
loop; ``aiohttp.web.run_app`` would own the loop. Port 0 picks a free port (tests).

The page is open to a club's network, where anyone may open connections and hold them.
Every descriptor the page holds is one the service cannot use to reopen the sensor board
after a knocked cable, its camera or a new match's journal. So the page holds few:

* at most :data:`PER_CLIENT` connections from one address and :data:`MAX_CONNECTIONS` in
  all (a board's ``[web]`` may set both); one more is answered 429 at once and closed,
  and the refusals are logged once a minute, not once each;
* a connection with no request under way for :data:`IDLE_TIMEOUT_S` (one that never sends
  its request, or all of its head) is closed;
* connections are accepted here, not by asyncio's server: out of descriptors, Python 3.11's
  accept loop logged the error with a traceback and scheduled a retry for each connection
  waiting, which scheduled as many again (CPython gh-151615): a gigabyte of log in three
  minutes. Here it is one line, and a retry each second.

Requests aiohttp itself cannot parse or decode (a bad request line, a body announced as
gzip that is not) are answered 400 by aiohttp, and a client may leave mid-request: both
are logged here as one warning line, where aiohttp logs an error with its traceback,
which would bury the service's real faults.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import socket
import time
from types import TracebackType
from typing import Final

from aiohttp import web

from controller.closing import cancel_and_wait
from controller.web.body import aiohttp_refusal
from controller.web.errors import WebError
from hardware.board.errors import clipped_repr, os_reason

__all__ = ["WebServer"]


def _client_faults_in_one_line(record: logging.LogRecord) -> bool:
    """Turn aiohttp's traceback of a request it refused with a 4xx, or of a client that
    left mid-request, into one warning line."""
    error = record.exc_info[1] if record.exc_info else None
    refusal = aiohttp_refusal(error)
    if refusal is not None:
        fault = f"{refusal[0]} {clipped_repr(refusal[1], 120)}"
    elif isinstance(error, ConnectionResetError):
        fault = f"the client left: {error}"
    else:
        return True
    record.msg, record.args = f"{record.getMessage()}: {fault}", None
    record.levelno, record.levelname = logging.WARNING, "WARNING"
    record.exc_info, record.exc_text = None, None
    return True


_REQUESTS: Final = logging.getLogger(f"{__name__}.requests")
"""aiohttp's log of the requests it handles (its ``aiohttp.server`` by default)."""
_REQUESTS.addFilter(_client_faults_in_one_line)


MAX_CONNECTIONS: Final = 128
"""Connections a page holds at most: far under the 1,024 descriptors a service may open."""

PER_CLIENT: Final = 16
"""Connections a page holds at most from one address: a browser's six, and a few tabs."""

IDLE_TIMEOUT_S: Final = 30.0
"""How long a connection may stay open with no request under way."""

_ACCEPT_RETRY_S: Final = 1.0
"""Out of descriptors, how long before accepting again (what asyncio's server waits)."""

_REFUSALS_EACH: Final = (20, 0.1)
"""Refusals written at most in a span of seconds; past them the page accepts nothing until
the span ends. Why: each refusal costs the service's one loop (``python -m benchmarks web``:
some 84 us here above a bare accept and close, several times that on a Pi Zero 2 W), and a
client connecting as fast as it can would hold the loop from refereeing; this bounds the
refusals to 200 a second, and a client taken meanwhile waits 0.1 s at most."""

_LOG_EVERY_S: Final = 60.0
"""Refusals are logged at most this often: each one logged would let anyone fill the log."""


class WebServer:
    """``app`` served on ``host``:``port`` between :meth:`start` and :meth:`close`.

    Args:
        app: the application (``create_app`` or the hub's).
        host: the address to listen on.
        port: the TCP port; 0 for any free port (then read :attr:`port`).
        max_connections: connections held at most (:data:`MAX_CONNECTIONS`).
        per_client: connections held at most from one address (:data:`PER_CLIENT`).
        idle_timeout: seconds a connection may stay open with no request under way.
    """

    def __init__(
        self,
        app: web.Application,
        host: str = "127.0.0.1",
        port: int = 8080,
        *,
        max_connections: int = MAX_CONNECTIONS,
        per_client: int = PER_CLIENT,
        idle_timeout: float = IDLE_TIMEOUT_S,
    ) -> None:
        self.app = app
        self.host = host
        self.port = port
        self.max_connections = max_connections
        self.per_client = per_client
        self.idle_timeout = idle_timeout
        self._runner: web.AppRunner | None = None
        self._listeners: list[socket.socket] = []
        self._accepting: list[asyncio.Task[None]] = []
        self._open: dict[str, list[asyncio.BaseTransport]] = {}
        self.refused = 0
        """Connections refused since the start (over a limit)."""
        self._span: tuple[float, int] = (0.0, 0)  # when the span of refusals began, and how many
        self._refusals = _MinuteLog()
        self._accept_failures = _MinuteLog()

    @property
    def url(self) -> str:
        """The page's address."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}/"

    @property
    def connections(self) -> int:
        """The connections the page holds now."""
        self._prune()
        return sum(map(len, self._open.values()))

    def connections_from(self, client: str) -> int:
        """The connections the page holds now from the address ``client``."""
        self._prune()
        return len(self._open.get(client, ()))

    async def start(self) -> None:
        """Listen; :attr:`port` is then the port bound.

        Raises:
            WebError: if the address cannot be listened on (taken, not this machine's).
        """
        runner = web.AppRunner(
            self.app,
            access_log=None,
            shutdown_timeout=1.0,
            logger=_REQUESTS,
            keepalive_timeout=self.idle_timeout,
        )
        await runner.setup()
        try:
            self._listeners = await _listen(self.host, self.port)
        except OSError as error:
            await runner.cleanup()
            raise WebError(f"cannot serve the page on {self.url}: {os_reason(error)}") from None
        self._runner = runner
        self.port = self._listeners[0].getsockname()[1]
        server = runner.server
        assert server is not None  # made by setup()
        self._accepting = [
            asyncio.create_task(self._accept(listener, server), name="web accept")
            for listener in self._listeners
        ]

    async def close(self) -> None:
        """Stop serving (idempotent)."""
        for task in self._accepting:
            await cancel_and_wait(task)
        for listener in self._listeners:
            listener.close()
        self._accepting, self._listeners = [], []
        runner, self._runner = self._runner, None
        if runner is not None:
            await runner.cleanup()

    async def _accept(self, listener: socket.socket, server: web.Server) -> None:
        """Take each connection, or refuse it; out of descriptors, say so once and wait."""
        loop = asyncio.get_running_loop()
        while True:
            try:
                connection, address = await loop.sock_accept(listener)
            except OSError as error:  # out of descriptors or memory: the backlog waits
                self._accept_failures.note(f"cannot accept a connection: {os_reason(error)}")
                await asyncio.sleep(_ACCEPT_RETRY_S)
                continue
            client = str(address[0])
            reason = self._refusal(client)
            if reason is not None:
                _refuse(connection, reason)
                self.refused += 1
                self._refusals.note(reason)
                await self._pace()
                continue
            try:
                transport, _ = await loop.connect_accepted_socket(server, connection)
            except OSError:  # the client left meanwhile
                connection.close()
                continue
            self._open.setdefault(client, []).append(transport)

    async def _pace(self) -> None:
        """After a refusal: past :data:`_REFUSALS_EACH` in the span, wait for its end."""
        most, seconds = _REFUSALS_EACH
        began, count = self._span
        now = time.monotonic()
        if now - began >= seconds:
            began, count = now, 0
        count += 1
        if count >= most:
            await asyncio.sleep(began + seconds - now)
            began, count = time.monotonic(), 0
        self._span = (began, count)

    def _prune(self) -> None:
        """Forget the connections closed since (by either side)."""
        for address, transports in list(self._open.items()):
            transports[:] = [each for each in transports if not each.is_closing()]
            if not transports:
                del self._open[address]

    def _refusal(self, client: str) -> str | None:
        """Why a new connection from ``client`` is refused, or None to take it."""
        from_client = self.connections_from(client)
        if from_client >= self.per_client:
            return (
                f"too many connections from {client} ({from_client}, at most "
                f"{self.per_client}): close some of the page's tabs, or wait"
            )
        held = sum(map(len, self._open.values()))  # pruned just above
        if held >= self.max_connections:
            return f"the page holds {held} connections, its most: try again shortly"
        return None

    async def __aenter__(self) -> WebServer:
        await self.start()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.close()


async def _listen(host: str, port: int) -> list[socket.socket]:
    """Listening sockets on every address of ``host`` (as asyncio's server binds them)."""
    loop = asyncio.get_running_loop()
    found = await loop.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    listeners: list[socket.socket] = []
    try:
        for family, kind, protocol, _, address in dict.fromkeys(found):
            listener = socket.socket(family, kind, protocol)
            listeners.append(listener)
            listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6:
                listener.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            listener.bind(address)
            listener.listen(128)
            listener.setblocking(False)
    except OSError:
        for listener in listeners:
            listener.close()
        raise
    return listeners


def _refuse(connection: socket.socket, reason: str) -> None:
    """Answer ``connection`` 429 with ``reason`` (as the page's errors are written) and close it."""
    body = json.dumps({"error": reason}).encode()
    head = (
        "HTTP/1.1 429 Too Many Requests\r\n"
        "Content-Type: application/json; charset=utf-8\r\n"
        f"Content-Length: {len(body)}\r\nRetry-After: 10\r\nConnection: close\r\n\r\n"
    )
    with contextlib.suppress(OSError):  # a client gone already is refused all the same
        connection.setblocking(False)
        connection.send(head.encode() + body)
        connection.shutdown(socket.SHUT_WR)
        connection.recv(1 << 16)  # what it sent: closed unread, it would reset the answer
    connection.close()


class _MinuteLog:
    """Lines of one kind (refusals, failed accepts) logged as one warning now, then at most
    one a minute with the number left unsaid."""

    def __init__(self) -> None:
        self._logged_at = -_LOG_EVERY_S
        self._unlogged = 0

    def note(self, reason: str) -> None:
        now = time.monotonic()
        if now - self._logged_at < _LOG_EVERY_S:
            self._unlogged += 1
            return
        since = f" ({self._unlogged} more since the last line)" if self._unlogged else ""
        _REQUESTS.warning("web page: %s%s", reason, since)
        self._logged_at, self._unlogged = now, 0
