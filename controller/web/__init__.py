"""The board's live web page and its small API, served by the service's asyncio loop.

* :func:`create_app` — the aiohttp application of one :class:`~controller.status.BoardService`.
* :class:`WebServer` — serves an application on a host and port (an async context manager).
* :func:`add_setup_routes` — the set-up page (``/setup``) of a :class:`SetupDesk`.
* :mod:`~controller.web.body` — a request's JSON body, read within limits (64 KiB, 16 deep).
* ``static/`` — the page: plain HTML, CSS and JavaScript drawing the board in SVG.
"""

from controller.web.app import Fanout, create_app, json_error, sse_headers, stream
from controller.web.errors import WebError
from controller.web.server import WebServer
from controller.web.setup import SetupDesk, add_setup_routes

__all__ = [
    "Fanout",
    "SetupDesk",
    "WebError",
    "WebServer",
    "add_setup_routes",
    "create_app",
    "json_error",
    "sse_headers",
    "stream",
]
