"""A client cancelled while its broker has not answered closes its connection at once
(:func:`controller.mqtt.connected`, which the publisher, the hub and the doctor use)."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import socket
from collections.abc import Iterator
from pathlib import Path

import aiomqtt
import pytest

from controller.mqtt import connected
from tests.firmware_bridge.conftest import PATIENCE_S


@pytest.fixture
def no_cycle_collection() -> Iterator[None]:
    """The cyclic garbage collector held off: it would close a forgotten socket at random,
    which is the defect's only cure without :func:`connected`."""
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def _client(port: int) -> aiomqtt.Client:
    """A client whose own keep-alive would close a forgotten connection only long after the
    patience (paho's keep-alive check drops a broker silent for that long)."""
    return aiomqtt.Client("127.0.0.1", port=port, timeout=PATIENCE_S, keepalive=3600)


async def _silent_broker() -> tuple[asyncio.Server, asyncio.Queue[asyncio.StreamReader]]:
    """A TCP server that takes connections and never answers (a broker hung, or a proxy)."""
    accepted: asyncio.Queue[asyncio.StreamReader] = asyncio.Queue()

    async def take(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await accepted.put(reader)

    return await asyncio.start_server(take, "127.0.0.1", 0), accepted


async def _closed_by_peer(reader: asyncio.StreamReader) -> bool:
    """Whether the peer closes the connection (read until its end) within the patience."""
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(PATIENCE_S):
            while await reader.read(1024):
                pass
            return True
    return False


@pytest.mark.usefixtures("no_cycle_collection")
def test_a_connection_cancelled_before_the_broker_answers_is_closed() -> None:
    async def main() -> bool:
        server, accepted = await _silent_broker()
        port = server.sockets[0].getsockname()[1]
        async with server:

            async def connect() -> None:
                async with connected(_client(port)):
                    pass

            task = asyncio.create_task(connect())
            reader = await accepted.get()  # connected; CONNECT sent or on its way
            assert await reader.read(1)  # the CONNECT packet's first byte: aiomqtt waits
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            return await _closed_by_peer(reader)

    assert asyncio.run(main())


def _connecting_to(port: int) -> bool:
    """Whether a TCP connection to 127.0.0.1:``port`` waits for its SYN's answer (SYN_SENT
    in the kernel's table): a connect blocked in aiomqtt's executor thread."""
    lines = Path("/proc/net/tcp").read_text().splitlines()[1:]
    remote = f"0100007F:{port:04X}"
    return any(line.split()[2] == remote and line.split()[3] == "02" for line in lines)


@pytest.mark.usefixtures("no_cycle_collection")
def test_a_connection_cancelled_while_its_socket_is_opening_is_closed() -> None:
    """The cancel lands while paho's blocking connect runs in aiomqtt's executor thread;
    the socket opens only afterwards, and is closed then."""

    async def main() -> bool:
        loop = asyncio.get_running_loop()
        with socket.socket() as server:
            server.bind(("127.0.0.1", 0))
            server.listen(0)  # one waiting connection fills it: the next SYN waits
            server.setblocking(False)
            port = server.getsockname()[1]
            with socket.create_connection(("127.0.0.1", port)) as filler:

                async def connect() -> None:
                    async with connected(_client(port)):
                        pass

                task = asyncio.create_task(connect())
                async with asyncio.timeout(PATIENCE_S):
                    while not _connecting_to(port):
                        await asyncio.sleep(0.01)
                task.cancel()
                with pytest.raises(asyncio.CancelledError):
                    await task
                first, _ = await loop.sock_accept(server)  # room for the SYN sent again
                first.close()
                async with asyncio.timeout(PATIENCE_S):
                    late, _ = await loop.sock_accept(server)
            with late:
                late.setblocking(False)
                reader, writer = await asyncio.open_connection(sock=late.dup())
                try:
                    return await _closed_by_peer(reader)
                finally:
                    writer.close()
                    filler.close()

    assert asyncio.run(main())
