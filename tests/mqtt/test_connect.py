"""A client cancelled while its broker has not answered closes its connection at once
(:func:`controller.mqtt.connected`, which the publisher, the hub and the doctor use)."""

from __future__ import annotations

import asyncio
import contextlib
import gc
from collections.abc import Iterator

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
                async with connected(aiomqtt.Client("127.0.0.1", port=port, timeout=PATIENCE_S)):
                    pass

            task = asyncio.create_task(connect())
            reader = await accepted.get()  # connected; CONNECT sent or on its way
            assert await reader.read(1)  # the CONNECT packet's first byte: aiomqtt waits
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            return await _closed_by_peer(reader)

    assert asyncio.run(main())
