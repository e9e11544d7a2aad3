"""Serving an aiohttp application on the service's loop, as an async context manager.

Why: the board's service and the hub both serve a page beside other work on one asyncio
loop; ``aiohttp.web.run_app`` would own the loop. Port 0 picks a free port (tests).

Requests aiohttp itself cannot parse or decode (a bad request line, a body announced as
gzip that is not) are answered 400 by aiohttp, and a client may leave mid-request: both
are logged here as one warning line, where aiohttp logs an error with its traceback,
which would bury the service's real faults.
"""

from __future__ import annotations

import logging
from types import TracebackType
from typing import Final

from aiohttp import web

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


class WebServer:
    """``app`` served on ``host``:``port`` between :meth:`start` and :meth:`close`.

    Args:
        app: the application (``create_app`` or the hub's).
        host: the address to listen on.
        port: the TCP port; 0 for any free port (then read :attr:`port`).
    """

    def __init__(self, app: web.Application, host: str = "127.0.0.1", port: int = 8080) -> None:
        self.app = app
        self.host = host
        self.port = port
        self._runner: web.AppRunner | None = None

    @property
    def url(self) -> str:
        """The page's address."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}/"

    async def start(self) -> None:
        """Listen; :attr:`port` is then the port bound.

        Raises:
            WebError: if the address cannot be listened on (taken, not this machine's).
        """
        runner = web.AppRunner(self.app, access_log=None, shutdown_timeout=1.0, logger=_REQUESTS)
        await runner.setup()
        site = web.TCPSite(runner, self.host, self.port)
        try:
            await site.start()
        except OSError as error:
            await runner.cleanup()
            raise WebError(f"cannot serve the page on {self.url}: {os_reason(error)}") from None
        self._runner = runner
        self.port = runner.addresses[0][1]

    async def close(self) -> None:
        """Stop serving (idempotent)."""
        runner, self._runner = self._runner, None
        if runner is not None:
            await runner.cleanup()

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
