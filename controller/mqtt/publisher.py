"""The board's side of MQTT: publish a :class:`~controller.status.BoardService` to a broker.

Why a thin shell: the topics and payloads are :mod:`controller.mqtt.codec`'s, the queue
:class:`~controller.mqtt.outbox.Outbox`'s; this module only moves them over aiomqtt.

The board never waits for the broker: its updates go to the outbox at once, and the
connection loop publishes them in order whenever it is connected (each event is forgotten
only once the broker has acknowledged it, QoS 1), reconnecting with capped, jittered
exponential backoff. The broker marks the board offline with the last will when the
connection dies without a clean disconnect; and a heartbeat every half keep-alive lets a
hub see a frozen board within its keep-alive, sooner than the broker's last will.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import ssl
import threading
import time
import urllib.parse
from collections.abc import AsyncIterator, Callable, Sequence
from typing import Literal, Required, TypedDict

import aiomqtt
import paho.mqtt.client as mqtt

from controller.closing import cancel_and_wait
from controller.config import MqttConfig
from controller.mqtt.codec import (
    OFFLINE,
    ONLINE,
    encode_event,
    encode_heartbeat,
    encode_status,
    topic,
)
from controller.mqtt.outbox import Outbox
from controller.status import BoardEvent, BoardService, BoardStatus

__all__ = ["ClientOptions", "MqttPublisher", "backoff_delay", "client_options", "connected"]

_log = logging.getLogger(__name__)

ClientFactory = Callable[..., aiomqtt.Client]


def backoff_delay(
    attempt: int, rng: random.Random, *, base: float = 0.5, cap: float = 30.0
) -> float:
    """Seconds to wait before reconnection ``attempt`` (0 first): doubling, capped, jittered.

    The jitter (between half and all of the step) keeps a hall of boards from reconnecting
    all at once when their broker comes back.

    >>> rng = random.Random(1)
    >>> [round(backoff_delay(n, rng, base=1, cap=8), 2) for n in range(6)]
    [0.57, 1.85, 3.53, 5.02, 5.98, 5.8]
    """
    step = min(cap, base * (1 << min(attempt, 32)))
    return step / 2 + rng.uniform(0, step / 2)


class ClientOptions(TypedDict, total=False):
    """The keyword arguments of ``aiomqtt.Client`` that ``[mqtt]`` sets."""

    hostname: Required[str]
    port: Required[int]
    username: Required[str | None]
    password: Required[str | None]
    transport: Literal["tcp", "websockets", "unix"]
    websocket_path: str
    tls_context: ssl.SSLContext


def client_options(config: MqttConfig) -> ClientOptions:
    """aiomqtt.Client's keyword arguments for the broker, credentials and TLS of ``config``."""
    parts = urllib.parse.urlsplit(config.broker)
    options: ClientOptions = {
        "hostname": config.host,
        "port": config.port,
        "username": config.username,
        "password": config.password,
    }
    if parts.scheme in ("ws", "wss"):
        options["transport"] = "websockets"
        options["websocket_path"] = parts.path or "/"
    if config.tls:
        context = ssl.create_default_context(
            cafile=str(config.ca_file) if config.ca_file is not None else None
        )
        if config.cert_file is not None:
            context.load_cert_chain(
                str(config.cert_file),
                str(config.key_file) if config.key_file is not None else None,
            )
        options["tls_context"] = context
    return options


@contextlib.asynccontextmanager
async def connected(client: aiomqtt.Client) -> AsyncIterator[aiomqtt.Client]:
    """``async with client``, closing the connection if cancelled while it connects.

    aiomqtt 2.5's ``Client.__aenter__`` leaves paho's socket open when its task is
    cancelled before the broker has answered (a stop, or a caller's timeout). The client
    and paho's refer to each other, so only the cyclic garbage collector closes it, maybe
    after its event loop is closed ("Event loop is closed" from paho's ``__del__``), and
    until then the broker keeps a half-open session.

    Two moments: the cancel lands while paho's blocking ``connect()`` runs in aiomqtt's
    executor thread (the socket opens after it), or once it has returned (the CONNACK is
    awaited). Either way the socket is closed on the event loop after aiomqtt's own
    callbacks for it (which watch it), by paho's own close, which unwatches it.
    """
    loop = asyncio.get_running_loop()
    paho = client._client
    connect = client._client_connect
    lock = threading.Lock()  # the executor thread's end against the cancel
    connecting, cancelled = True, False

    def connect_then_close_if_cancelled() -> None:
        nonlocal connecting
        try:
            connect()
        finally:
            with lock:
                connecting = False
                close = cancelled
            if close:
                _close_from_thread(loop, paho)

    client._client_connect = connect_then_close_if_cancelled  # type: ignore[method-assign]
    try:
        await client.__aenter__()
    except asyncio.CancelledError:
        with lock:
            cancelled = True
            close = not connecting
        if close:
            loop.call_soon(paho._sock_close)  # after the callbacks connect() queued
        raise
    finally:
        client._client_connect = connect  # type: ignore[method-assign]
    async with contextlib.AsyncExitStack() as exit_stack:
        exit_stack.push_async_exit(client)
        yield client


def _close_from_thread(loop: asyncio.AbstractEventLoop, paho: mqtt.Client) -> None:
    """Close paho's socket from aiomqtt's executor thread: on ``loop``, after the callbacks
    the connect queued there; or at once if the loop is closed (nothing watches it then)."""
    try:
        loop.call_soon_threadsafe(paho._sock_close)
    except RuntimeError:  # the loop is closed
        with contextlib.suppress(Exception):  # aiomqtt's callbacks need the closed loop
            paho._sock_close()


class MqttPublisher:
    """Publishes one board's status (retained), events (QoS 1) and presence to a broker.

    Args:
        service: the board.
        config: the ``[mqtt]`` section: broker, board id, prefix, credentials, TLS.
        keepalive: seconds between keep-alive pings; the broker declares the board offline
            (its last will) after 1.5 times this without a word from it, and a hub after
            this without a heartbeat (sent every half keep-alive).
        capacity: events kept while the broker is unreachable; the oldest go first.
        window: events in flight at once (awaiting the broker's acknowledgement).
        backoff: the first and the longest wait between reconnection attempts, seconds.
        rng: the jitter of the backoff.
        client_factory: aiomqtt.Client or a stand-in with its signature.
        backlog: what to publish before the service's updates: a function called once
            subscribed to them (the journal so far, through
            :func:`~controller.mqtt.codec.journal_events`); what both hold is sent once.
    """

    def __init__(
        self,
        service: BoardService,
        config: MqttConfig,
        *,
        keepalive: int = 10,
        capacity: int = 10_000,
        window: int = 8,
        backoff: tuple[float, float] = (0.5, 30.0),
        rng: random.Random | None = None,
        client_factory: ClientFactory = aiomqtt.Client,
        backlog: Callable[[], Sequence[BoardEvent]] | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._service = service
        self._config = config
        self._keepalive = keepalive
        self._window = window
        self._backoff = backoff
        self._rng = rng or random.Random()
        self._client_factory = client_factory
        self.outbox = Outbox(capacity)
        self._backlog = backlog
        self._clock = clock
        self.heartbeats = 0
        """Heartbeats sent."""
        self._wakeup = asyncio.Event()
        self._ended = False
        self.connected = False
        """Whether the publisher is connected to the broker now."""
        self.connections = 0
        """How many times it connected."""
        self.published = 0
        """Events the broker acknowledged."""
        board_id = service.board_id
        prefix = config.topic_prefix
        self._topics = {
            kind: topic(board_id, kind, prefix)
            for kind in ("status", "events", "online", "heartbeat")
        }

    async def drain(self, timeout: float = 10.0) -> bool:
        """Wait until every event so far is published; whether it was within ``timeout``."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while len(self.outbox) or self.outbox.status is not None:
            if loop.time() > deadline:
                return False
            await asyncio.sleep(0.01)
        return True

    @property
    def dropped(self) -> int:
        """Events dropped, oldest first, while the broker was unreachable too long."""
        return self.outbox.dropped

    async def run(self) -> None:
        """Publish until the service's updates end and all is published, or until cancelled.

        When the updates end it publishes ``offline`` (retained) and disconnects cleanly.
        """
        self.outbox.status = self._service.status()
        collector = asyncio.create_task(self._collect(self._service.updates()))
        await asyncio.sleep(0)  # the collector subscribes to the updates
        if self._backlog is not None:
            self.outbox.put_before(list(self._backlog()))
        try:
            await self._connect_loop()
        finally:
            await cancel_and_wait(collector)

    async def _collect(self, updates: AsyncIterator[BoardStatus | BoardEvent]) -> None:
        async for update in updates:
            if isinstance(update, BoardEvent):
                self.outbox.put(update)
            else:
                self.outbox.status = update
            self._wakeup.set()
        self._ended = True
        self._wakeup.set()

    def _client(self) -> aiomqtt.Client:
        return self._client_factory(
            **client_options(self._config),
            identifier=f"tabula-board-{self._service.board_id}",
            keepalive=self._keepalive,
            will=aiomqtt.Will(self._topics["online"], OFFLINE, qos=1, retain=True),
            timeout=max(5.0, self._keepalive),
        )

    async def _connect_loop(self) -> None:
        attempt = 0
        while True:
            delay = backoff_delay(attempt, self._rng, base=self._backoff[0], cap=self._backoff[1])
            try:
                async with connected(self._client()) as client:
                    self.connected, attempt = True, 0
                    self.connections += 1
                    _log.info(
                        "board %s: connected to %s", self._service.board_id, self._config.broker
                    )
                    await client.publish(self._topics["online"], ONLINE, qos=1, retain=True)
                    try:
                        finished = await self._session(client)
                    except asyncio.CancelledError:
                        # Stopped (SIGTERM): a clean disconnect sends no last will, so say it.
                        with contextlib.suppress(aiomqtt.MqttError, TimeoutError):
                            async with asyncio.timeout(1.0):
                                await self._offline(client)
                        raise
                    if finished:
                        await self._offline(client)
                        return
            except aiomqtt.MqttError as error:
                _log.warning(
                    "board %s: broker %s: %s; %d events queued, %d dropped; retry in %.1f s",
                    self._service.board_id,
                    self._config.broker,
                    error,
                    len(self.outbox),
                    self.outbox.dropped,
                    delay,
                )
                attempt += 1
            finally:
                self.connected = False
            await asyncio.sleep(delay)

    async def _offline(self, client: aiomqtt.Client) -> None:
        await client.publish(self._topics["online"], OFFLINE, qos=1, retain=True)

    async def _session(self, client: aiomqtt.Client) -> bool:
        """Publish until the updates end (True), or raise when the connection is lost."""
        pump = asyncio.create_task(self._pump(client))
        watch = asyncio.create_task(self._watch(client))
        beat = asyncio.create_task(self._beat(client))
        try:
            done, _ = await asyncio.wait({pump, watch, beat}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in (pump, watch, beat):
                task.cancel()
            await asyncio.gather(pump, watch, beat, return_exceptions=True)
        for task in done:
            task.result()  # raises the connection's error
        return pump in done

    async def _watch(self, client: aiomqtt.Client) -> None:
        """Raise MqttError as soon as the connection is lost (nothing is subscribed)."""
        async for _ in client.messages:
            pass

    async def _beat(self, client: aiomqtt.Client) -> None:
        """Say the board is alive every half keep-alive (QoS 0: a late one is worthless)."""
        board_id = self._service.board_id
        while True:
            payload = encode_heartbeat(board_id, self._keepalive, self._clock())
            await client.publish(self._topics["heartbeat"], payload, qos=0)
            _raise_if_cancelled()
            self.heartbeats += 1
            await asyncio.sleep(self._keepalive / 2)

    async def _pump(self, client: aiomqtt.Client) -> None:
        outbox = self.outbox
        while True:
            batch = outbox.peek(self._window)
            if batch:
                await asyncio.gather(
                    *(client.publish(self._topics["events"], encode_event(e), qos=1) for e in batch)
                )
                _raise_if_cancelled()
                outbox.done(batch)
                self.published += len(batch)
                continue
            status = outbox.status
            if status is not None:
                await client.publish(
                    self._topics["status"], encode_status(status), qos=1, retain=True
                )
                _raise_if_cancelled()
                if outbox.status is status:
                    outbox.status = None
                continue
            if self._ended:
                return
            self._wakeup.clear()
            await self._wakeup.wait()


def _raise_if_cancelled() -> None:
    """Raise a cancellation that ``client.publish`` returned over.

    aiomqtt waits for the broker through ``asyncio.wait_for``, which on Python 3.11 returns
    the result when the answer and a cancellation arrive together (python/cpython#86296):
    the loop then went on for ever, and the service's stop hung on it. The task still
    counts the request, so it is raised here.
    """
    task = asyncio.current_task()
    if task is not None and task.cancelling():
        raise asyncio.CancelledError
