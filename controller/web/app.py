"""The board's web view: a live page, its status stream and the referee's small API.

Why aiohttp: the service runs one asyncio loop (DESIGN.md), and the page needs server push
on that loop; aiohttp serves the page, Server-Sent Events and the JSON API without threads.

Routes (everything JSON answers ``{"error": ...}`` with a 4xx when it refuses):

* ``GET /`` — the page (``static/index.html``), drawn by ``static/board.js``;
* ``GET /api/status`` — the :class:`~controller.status.BoardStatus` as JSON;
* ``GET /api/stream`` — Server-Sent Events: the status now, then each new one;
* ``POST /api/action`` — an action (``controller.status.action_from_json``), behind the
  token: ``Authorization: Bearer <token>``: ``enter-dice``, ``accept``, ``demand``,
  ``correct-position``, ``new-game``, ``new-match``, ``orientation``, ``hint``
  (``hardware/SERVICE.md`` section 4); a malformed one gets 400, one the board cannot take
  now 409;
* ``GET /api/export/mat`` and ``/api/export/sgf`` — the match so far, behind the token
  (backgammon only); ``/api/export/jsonl`` and ``/api/export/txt``, its events one JSON
  object a line and its text record, for any variant;
* ``GET /api/review/html`` (the review page), ``/api/review/text`` and ``/api/review/sgf``
  (the ``.sgf`` with the engine's analysis) — the engine's review of the match so far,
  behind the token (refused mid-game in recorder mode, and without an engine).

Without a token configured the page is read-only: every action is refused with 403.
A body is JSON within the limits of :mod:`controller.web.body` (64 KiB, 16 levels deep,
UTF-8), and a refusal quotes at most 40 characters of the input (``hardware/SERVICE.md``
section 4 lists the limits).
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
from collections.abc import AsyncIterator, Callable, Mapping
from importlib import resources
from pathlib import PurePath
from typing import Final, Generic, TypeVar

from aiohttp import web
from aiohttp.typedefs import Handler

from controller.closing import cancel_and_wait
from controller.status import (
    MATCH_FORMATS,
    REVIEW_FORMATS,
    ActionError,
    BoardEvent,
    BoardService,
    BoardStatus,
    MatchFormat,
    ReviewFormat,
    action_from_json,
)
from controller.web.body import MAX_BODY_BYTES, read_json
from controller.web.errors import BadRequestError
from hardware.board.errors import clipped_repr

__all__ = [
    "Fanout",
    "close_after_unread_body",
    "create_app",
    "json_error",
    "refusal",
    "sse_headers",
    "static_file",
    "static_page",
    "stream",
]

_log = logging.getLogger(__name__)
T = TypeVar("T")

STATIC: Final = resources.files("controller.web") / "static"
"""The page's files, shipped as package data (no build step, no CDN)."""

_TEXTS: Final = {
    entry.name: entry.read_text(encoding="utf-8") for entry in STATIC.iterdir() if entry.is_file()
}
"""Every file of ``static/`` (72 KB), read once at start-up: a visit then reads nothing from
the card on the service's one loop."""

_SERVICE: Final = web.AppKey("service", BoardService)
_TOKEN: Final = web.AppKey("token", str)
_PING_S: Final = 15.0
"""A comment line this often keeps idle proxies from closing a stream."""


def json_error(status: int, message: str, **headers: str) -> web.Response:
    """A JSON error response ``{"error": message}`` with HTTP ``status``."""
    return web.json_response({"error": message}, status=status, headers=headers)


@web.middleware
async def close_after_unread_body(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Answer with ``Connection: close`` when part of the request's body is still unread.

    Why: after the answer aiohttp reads what is left of the body to take the connection's
    next request; a body that does not decode (announced as gzip, and not) breaks that
    read, and the connection closed after an answer that promised to keep it.
    """
    try:
        response = await handler(request)
    except web.HTTPException as refusal:  # the router's 404 and 405
        if not request.content.is_eof():
            refusal.force_close()
        raise
    if not request.content.is_eof():
        response.force_close()
    return response


def sse_headers() -> dict[str, str]:
    """The headers of a Server-Sent Events response."""
    return {
        "Content-Type": "text/event-stream",
        "Cache-Control": "no-cache",
        "X-Accel-Buffering": "no",
    }


class Fanout(Generic[T]):
    """The latest value of a stream, and a wake-up for each reader (a slow reader skips).

    Why: a phone on a bad network must not hold back the board nor the other readers;
    each reader is only told that something changed and reads the latest value.
    """

    def __init__(self, value: T) -> None:
        self.value = value
        self._readers: set[asyncio.Queue[None]] = set()
        self._encoded: tuple[object, object, bytes] | None = None
        self.closed = False

    def set(self, value: T) -> None:
        """A new value: wake every reader."""
        self.value = value
        for queue in self._readers:
            if queue.empty():
                queue.put_nowait(None)

    def close(self) -> None:
        """Wake every reader for the last time (idempotent)."""
        self.closed = True
        self.set(self.value)

    def encoded(self, value: T, encode: Callable[[T], bytes]) -> bytes:
        """``encode(value)``, made once for all the readers of ``value``.

        Why: made by each of a hundred readers, the board's status took the loop 5 ms a
        change here (``python -m benchmarks web``), several times that on a Pi Zero 2 W;
        made once, 65 us.
        """
        kept = self._encoded
        if kept is None or kept[0] is not value or kept[1] is not encode:
            kept = self._encoded = (value, encode, encode(value))
        return kept[2]

    async def follow(self) -> AsyncIterator[T | None]:
        """The value now, then each new one (the latest when several came meanwhile); None
        after a quiet while, for a keep-alive."""
        queue: asyncio.Queue[None] = asyncio.Queue(maxsize=1)
        self._readers.add(queue)
        try:
            yield self.value
            while not self.closed:
                try:
                    await asyncio.wait_for(queue.get(), _PING_S)
                except TimeoutError:
                    yield None  # nothing new: the caller sends a keep-alive
                    continue
                if not self.closed:
                    yield self.value
        finally:
            self._readers.discard(queue)


_FANOUT: Final = web.AppKey("fanout", Fanout[BoardStatus])


async def _follow_service(app: web.Application) -> AsyncIterator[None]:
    """Keep the fan-out at the service's latest status while the app runs."""
    service = app[_SERVICE]
    fanout = Fanout(service.status())
    app[_FANOUT] = fanout

    async def pump() -> None:
        async for update in service.updates():
            if isinstance(update, BoardStatus):
                fanout.set(update)
            elif not isinstance(update, BoardEvent):
                _log.warning("board %s: unexpected update %r", service.board_id, update)

    task = asyncio.create_task(pump())
    yield
    fanout.close()
    await cancel_and_wait(task)


async def _on_shutdown(app: web.Application) -> None:
    app[_FANOUT].close()  # ends the open streams, or shutdown would wait for them


async def _index(request: web.Request) -> web.StreamResponse:
    return static_page("index.html")


def static_page(name: str) -> web.Response:
    """The HTML page ``name`` of ``static/``."""
    return web.Response(text=_TEXTS[name], content_type="text/html")


def static_file(name: str, files: Mapping[str, str]) -> web.Response:
    """The page's file ``name`` if ``files`` (name -> content type) has it, else a 404.

    Why a known set: a name from the URL never reaches the file system, where a long one
    was ``ENAMETOOLONG`` (a 500) and an odd one anything else.
    """
    kind = files.get(name)
    if kind is None:
        return json_error(404, f"no static file {clipped_repr(name)}")
    return web.Response(text=_TEXTS[name], content_type=kind)


_TYPES: Final = {".js": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml"}
_PAGE_FILES: Final = {
    name: _TYPES[suffix] for name in _TEXTS if (suffix := PurePath(name).suffix) in _TYPES
}
"""The scripts, style sheets and pictures of ``static/``, by name."""


async def _static(request: web.Request) -> web.StreamResponse:
    return static_file(request.match_info["name"], _PAGE_FILES)


async def _status(request: web.Request) -> web.StreamResponse:
    return web.json_response(request.app[_FANOUT].value.to_json())


async def stream(
    request: web.Request, fanout: Fanout[T], encode: Callable[[T], bytes]
) -> web.StreamResponse:
    """Send ``encode(value)`` as an SSE ``data:`` line for each value of ``fanout``."""
    response = web.StreamResponse(headers=sse_headers())
    await response.prepare(request)
    try:
        async for value in fanout.follow():
            if value is None:
                await response.write(b": ping\n\n")
            else:
                await response.write(b"data: " + fanout.encoded(value, encode) + b"\n\n")
    except (ConnectionResetError, asyncio.CancelledError):
        pass
    return response


def _status_bytes(status: BoardStatus) -> bytes:
    return json.dumps(status.to_json(), separators=(",", ":")).encode()


async def _stream(request: web.Request) -> web.StreamResponse:
    return await stream(request, request.app[_FANOUT], _status_bytes)


def refusal(request: web.Request) -> web.Response | None:
    """The response refusing a request without the right token, or None if it has it."""
    token = request.app[_TOKEN]
    if not token:
        return json_error(403, "this board has no web token configured: it is read-only")
    header = request.headers.get("Authorization", "")
    if not header.startswith("Bearer "):
        return json_error(
            401,
            "this action needs the board's token (header Authorization: Bearer <token>)",
            **{"WWW-Authenticate": 'Bearer realm="tabula"'},
        )
    if not hmac.compare_digest(header[len("Bearer ") :].encode(), token.encode()):
        return json_error(403, "wrong token")
    return None


async def _action(request: web.Request) -> web.StreamResponse:
    refused = refusal(request)
    if refused is not None:
        return refused
    try:
        action = action_from_json(await read_json(request))
    except BadRequestError as error:
        return json_error(error.status, str(error))
    except ActionError as error:
        return json_error(400, str(error))
    service = request.app[_SERVICE]
    try:
        await service.apply(action)
    except ActionError as error:
        return json_error(409, str(error))
    return web.json_response({"ok": True, "status": service.status().to_json()})


_EXPORT_TYPES: Final[dict[MatchFormat, str]] = {
    "mat": "text/plain",
    "sgf": "text/plain",
    "jsonl": "application/x-ndjson",
    "txt": "text/plain",
}


async def _export(request: web.Request) -> web.StreamResponse:
    fmt = request.match_info["fmt"]
    kind = next((known for known in MATCH_FORMATS if known == fmt), None)
    if kind is None:
        formats = ", ".join(MATCH_FORMATS)
        return json_error(404, f"no export format {clipped_repr(fmt)}: {formats}")
    refused = refusal(request)
    if refused is not None:
        return refused
    service = request.app[_SERVICE]
    try:
        text = await service.export(kind)
    except ActionError as error:
        # The page offers what any variant exports: say so rather than the CLI's command.
        return json_error(409, f"{error}; on this page: Download .jsonl or .txt")
    return web.Response(
        text=text,
        content_type=_EXPORT_TYPES[kind],
        charset="utf-8",
        headers={"Content-Disposition": f'attachment; filename="{service.board_id}.{fmt}"'},
    )


_REVIEW_TYPES: Final[dict[ReviewFormat, str]] = {
    "html": "text/html",
    "text": "text/plain",
    "sgf": "text/plain",
}


async def _review(request: web.Request) -> web.StreamResponse:
    fmt = request.match_info["fmt"]
    kind = next((known for known in REVIEW_FORMATS if known == fmt), None)
    if kind is None:
        formats = ", ".join(REVIEW_FORMATS)
        return json_error(404, f"no review format {clipped_repr(fmt)}: {formats}")
    refused = refusal(request)
    if refused is not None:
        return refused
    service = request.app[_SERVICE]
    try:
        text = await service.review(kind)
    except ActionError as error:
        return json_error(409, str(error))
    headers = {}
    if kind == "sgf":
        name = f"{service.board_id}-analysed.sgf"
        headers["Content-Disposition"] = f'attachment; filename="{name}"'
    return web.Response(text=text, content_type=_REVIEW_TYPES[kind], headers=headers)


def create_app(service: BoardService, *, token: str | None) -> web.Application:
    """The board's web application (serve it with ``aiohttp.web.AppRunner``); the set-up
    page is added with :func:`controller.web.setup.add_setup_routes`.

    Args:
        service: the board shown and acted upon.
        token: the referee's token (config ``web.token``); None makes the page read-only.
    """
    app = web.Application(client_max_size=MAX_BODY_BYTES, middlewares=[close_after_unread_body])
    app[_SERVICE] = service
    app[_TOKEN] = token or ""
    app.cleanup_ctx.append(_follow_service)
    app.on_shutdown.append(_on_shutdown)
    app.router.add_get("/", _index)
    app.router.add_get("/static/{name}", _static)
    app.router.add_get("/api/status", _status)
    app.router.add_get("/api/stream", _stream)
    app.router.add_post("/api/action", _action)
    app.router.add_get("/api/export/{fmt}", _export)
    app.router.add_get("/api/review/{fmt}", _review)
    return app
