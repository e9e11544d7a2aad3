"""The hub's asyncio shell: subscribe to every board, serve the hall's page, archive matches.

Why a persistent session: the hub subscribes with a fixed client id and
``clean_session=False``, so that a broker with persistence keeps the hub's subscription
and queues the boards' QoS 1 events while the hub (or the broker itself) restarts; with the
per-board sequence numbers (:mod:`controller.hub.state`) nothing is lost unseen, and what
is delivered twice is taken once.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Final

import aiomqtt
from aiohttp import web

from controller.closing import cancel_and_wait
from controller.config import MqttConfig
from controller.hub.state import WHOLE, Archive, HubState, Shard
from controller.mqtt.codec import subscriptions
from controller.mqtt.publisher import ClientFactory, backoff_delay, client_options, connected
from controller.web.app import (
    Fanout,
    close_after_unread_body,
    sse_headers,
    static_file,
    static_page,
)
from controller.web.server import PER_CLIENT, WebServer
from hardware.board.errors import os_reason
from hardware.board.json_types import JsonObject
from hardware.files import write_whole

__all__ = ["Hub", "write_archive"]

_log = logging.getLogger(__name__)
_PUSH_S: Final = 0.05
"""How often changed boards are pushed to the page (coalesced: a busy hall is one push)."""
_HALL_CONNECTIONS: Final = 512
"""Connections the hall's page holds at most: the spectators' phones of a big hall, where a
board's page holds 128 (each address 16 at most, as there)."""
_ARCHIVE_RETRY_S: Final = 2.0
"""How often a match the archive folder refused is tried again when no message comes."""


def write_archive(directory: Path, archive: Archive) -> list[Path]:
    """Write a match's files (:meth:`Archive.files`) in ``directory/<board_id>/``; the
    paths written.

    Each file is written whole (:func:`~hardware.files.write_whole`): a reader never
    sees half a match, nor a power cut an empty file. The hub calls it in a worker thread:
    the texts and the card's syncs take tens of milliseconds, more on a Pi's card.
    """
    files = archive.files()  # first: a refused archive then keeps its texts, not its match
    folder = directory / archive.board_id
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for fmt, text in files.items():
        path = folder / f"{archive.name}.{fmt}"
        write_whole(path, text.encode())
        written.append(path)
    return written


class Hub:
    """Subscribes to every board under the prefix, shows them live, archives their matches.

    Args:
        config: the broker, credentials, TLS and topic prefix (``board_id`` unused).
        archive: the folder of the archived matches, one subfolder per board.
        host: the page's address.
        port: the page's port (0: any free port).
        identifier: the hub's MQTT client id (its persistent session on the broker).
        keepalive: seconds between keep-alive pings to the broker.
        rng: the jitter of the reconnection backoff.
        client_factory: aiomqtt.Client or a stand-in with its signature.
        clock: a monotonic clock (seconds): how long each board has been silent.
        shard: which boards this hub takes, when several share a hall's (each with its own
            ``identifier``): see :class:`~controller.hub.state.Shard`.
        max_connections: connections the page holds at most.
        per_client: connections the page holds at most from one address (behind a reverse
            proxy, every client's is the proxy's).
    """

    def __init__(
        self,
        config: MqttConfig,
        archive: Path,
        *,
        host: str = "127.0.0.1",
        port: int = 8090,
        identifier: str = "tabula-hub",
        keepalive: int = 10,
        rng: random.Random | None = None,
        client_factory: ClientFactory = aiomqtt.Client,
        clock: Callable[[], float] = time.monotonic,
        shard: Shard = WHOLE,
        max_connections: int = _HALL_CONNECTIONS,
        per_client: int = PER_CLIENT,
    ) -> None:
        self.config = config
        self._clock = clock
        self.archive = archive
        self.state = HubState(config.topic_prefix, shard)
        self.connected = False
        self.written: list[Path] = []
        self.unwritten: list[Archive] = []
        """Finished matches not written yet: the archive folder refused them (full, gone)."""
        self.archive_problem: str | None = None
        """Why the last write failed, while any match waits; for the page."""
        self._archive_tried = 0.0
        self._archiver: asyncio.Task[None] | None = None
        """Writing the matches waiting, in a worker thread; None when none is."""
        self._identifier = identifier
        self._keepalive = keepalive
        self._rng = rng or random.Random()
        self._client_factory = client_factory
        self._versions: dict[str, int] = {}
        self._dirty = False
        self.changes = Fanout(0)
        self.ready = asyncio.Event()
        """Set once the page is served (:attr:`web` then has its port)."""
        app = web.Application(middlewares=[close_after_unread_body])
        app[_HUB] = self
        app.router.add_get("/", _page)
        app.router.add_get("/static/{name}", _static)
        app.router.add_get("/api/boards", _boards)
        app.router.add_get("/api/summary", _summary)
        app.router.add_get("/api/stream", _stream)
        app.on_shutdown.append(_on_shutdown)
        self.web = WebServer(
            app, host, port, max_connections=max_connections, per_client=per_client
        )

    async def run(self) -> None:
        """Serve the page and follow the broker until cancelled."""
        async with self.web:
            self.ready.set()
            pusher = asyncio.create_task(self._push())
            try:
                await self._follow()
            finally:
                await cancel_and_wait(pusher)
                if self._archiver is not None:  # the match being written is finished
                    await asyncio.wait([self._archiver])
                if self.unwritten:  # said, not silent: the broker will not send them again
                    _log.error(
                        "hub: stopping with %d finished match(es) not archived (%s): %s",
                        len(self.unwritten),
                        ", ".join(f"{a.board_id}/{a.name}" for a in self.unwritten),
                        self.archive_problem,
                    )

    def take(self, topic: str, payload: bytes, *, retained: bool = False) -> None:
        """Fold one message, write what it finished, and mark its board for the page."""
        board_id, archives = self.state.receive(
            topic, payload, now=self._clock(), retained=retained
        )
        if archives:  # those waiting are tried too; else every _ARCHIVE_RETRY_S, not each message
            self.unwritten += archives
            self._archive()
        if board_id is not None:
            self._versions[board_id] = self._versions.get(board_id, 0) + 1
            self._dirty = True

    def _archive(self) -> None:
        """Write the finished matches waiting (:meth:`_write_archives`), unless that is
        under way: it takes those finished meanwhile too."""
        if self._archiver is None or self._archiver.done():
            self._archive_tried = self._clock()
            self._archiver = asyncio.create_task(self._write_archives())

    async def _write_archives(self) -> None:
        """Write the finished matches waiting, in order, each in a worker thread; on a
        failure (a full disk, the folder gone, or a fault of this program making a match's
        files), keep them for the next match finished or the next :data:`_ARCHIVE_RETRY_S`,
        and say why on the page: the broker will not send their events again. Not on every
        message: a busy hall on a full card would try the card hundreds of times a second."""
        problem = self.archive_problem
        while self.unwritten:
            archive = self.unwritten[0]
            named = f"{archive.board_id}/{archive.name}"
            fault: Exception | None = None
            try:
                self.written += await asyncio.to_thread(write_archive, self.archive, archive)
            except OSError as error:
                reason = f"cannot write {named} in {str(self.archive)!r}: {os_reason(error)}"
            except Exception as error:  # a fault of this program: said, with its traceback
                reason, fault = f"cannot make the files of {named}: {error!r}", error
            else:
                self.unwritten.pop(0)
                continue
            self.archive_problem = f"{len(self.unwritten)} match(es) not archived yet: {reason}"
            if problem is None:
                _log.error("hub: %s; kept to try again", self.archive_problem, exc_info=fault)
            break
        else:
            self.archive_problem = None
            if problem is not None:
                _log.info("hub: every finished match archived again")
        self._dirty = self._dirty or self.archive_problem != problem

    def summary(self) -> JsonObject:
        """The state's counts, and the matches the archive has not taken yet."""
        return {
            **self.state.summary(),
            "unwritten": len(self.unwritten),
            "archive_problem": self.archive_problem,
        }

    async def _follow(self) -> None:
        attempt = 0
        while True:
            delay = backoff_delay(attempt, self._rng, base=0.2, cap=10.0)
            try:
                async with connected(
                    self._client_factory(
                        **client_options(self.config),
                        identifier=self._identifier,
                        keepalive=self._keepalive,
                        clean_session=False,
                    )
                ) as client:
                    for pattern in subscriptions(self.config.topic_prefix):
                        await client.subscribe(pattern, qos=1)
                    self.connected, attempt = True, 0
                    _log.info("hub: following %s", self.config.broker)
                    async for message in client.messages:
                        payload = message.payload
                        data = payload if isinstance(payload, bytes) else str(payload).encode()
                        self.take(str(message.topic), data, retained=bool(message.retain))
            except aiomqtt.MqttError as error:
                _log.warning(
                    "hub: broker %s: %s; retry in %.1f s", self.config.broker, error, delay
                )
                attempt += 1
            finally:
                self.connected = False
            await asyncio.sleep(delay)

    async def _push(self) -> None:
        while True:
            await asyncio.sleep(_PUSH_S)
            for board_id in self.state.expire(self._clock()):
                _log.warning("hub: board %s silent beyond its keep-alive: offline", board_id)
                self._versions[board_id] = self._versions.get(board_id, 0) + 1
                self._dirty = True
            if self.unwritten and self._clock() - self._archive_tried >= _ARCHIVE_RETRY_S:
                self._archive()
            if self._dirty:
                self._dirty = False
                self.changes.set(self.changes.value + 1)

    def cards(self, since: dict[str, int]) -> list[JsonObject]:
        """The cards of the boards changed since the versions in ``since`` (updated)."""
        cards = []
        for board_id, version in self._versions.items():
            if since.get(board_id) != version:
                since[board_id] = version
                cards.append(self.state.boards[board_id].to_json())
        return cards


_HUB: Final = web.AppKey("hub", Hub)


async def _page(request: web.Request) -> web.StreamResponse:
    return static_page("hub.html")


_PAGE_FILES: Final = {
    "board.js": "text/javascript",
    "follow.js": "text/javascript",
    "hub.js": "text/javascript",
    "style.css": "text/css",
}
"""The board page's files the hall's page uses."""


async def _static(request: web.Request) -> web.StreamResponse:
    return static_file(request.match_info["name"], _PAGE_FILES)


async def _boards(request: web.Request) -> web.StreamResponse:
    hub = request.app[_HUB]
    boards = [view.to_json() for view in hub.state.boards.values()]
    return web.json_response({"summary": hub.summary(), "boards": boards})


async def _summary(request: web.Request) -> web.StreamResponse:
    """The counts alone: a poller of a big hall need not take every board's card each time."""
    return web.json_response(request.app[_HUB].summary())


async def _on_shutdown(app: web.Application) -> None:
    app[_HUB].changes.close()


async def _stream(request: web.Request) -> web.StreamResponse:
    hub = request.app[_HUB]
    response = web.StreamResponse(headers=sse_headers())
    await response.prepare(request)
    sent: dict[str, int] = {}

    async def frames() -> AsyncIterator[bytes]:
        async for tick in hub.changes.follow():
            if tick is None:
                yield b": ping\n\n"
                continue
            data = {"summary": hub.summary(), "boards": hub.cards(sent)}
            yield b"data: " + json.dumps(data, separators=(",", ":")).encode() + b"\n\n"

    with contextlib.suppress(ConnectionResetError, asyncio.CancelledError):
        async for frame in frames():
            await response.write(frame)
    return response
