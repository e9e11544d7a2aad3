"""The page on a club's network: connections that anyone may open and hold, over real TCP.

Connections that send nothing, or half a request, are closed after the idle timeout; one
address holds at most ``per_client`` of them and the page ``max_connections``, more are
answered 429 at once and closed; out of descriptors, the page says so in one line and
serves again once connections close. Clients come from several loopback addresses
(127.0.0.2, ...), which Linux routes to this machine.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import resource
import socket
import subprocess
import sys
import textwrap
import time
from collections.abc import AsyncIterator, Awaitable, Callable

import pytest

from controller.simulated.board_service import SelfPlayBoard
from controller.web import WebServer, create_app
from controller.web.server import _REFUSALS_EACH
from tests.web.raw_http import ANSWER_S, connect, exchange, refusal

STATUS = b"GET /api/status HTTP/1.1\r\nHost: board\r\nConnection: close\r\n\r\n"


def run(body: Callable[[WebServer], Awaitable[None]], **limits: float) -> None:
    async def main() -> None:
        board = SelfPlayBoard("club-1", seed=5, match_length=3)
        async with WebServer(create_app(board, token=None), port=0, **limits) as server:  # type: ignore[arg-type]
            await body(server)
        board.close()

    asyncio.run(main())


@contextlib.asynccontextmanager
async def held(port: int, source: str = "127.0.0.1") -> AsyncIterator[asyncio.StreamReader]:
    """A connection from ``source`` that sends nothing, held until the block ends."""
    reader, writer = await connect(port, source)
    try:
        yield reader
    finally:
        writer.close()


async def ask(port: int, source: str = "127.0.0.1") -> bytes:
    """The answer to a status request from ``source``."""
    return await exchange(port, STATUS, source=source)


async def until_served(port: int, source: str = "127.0.0.1") -> bytes:
    """Ask until the answer is not a refusal (the server has seen a connection close)."""
    deadline = time.monotonic() + ANSWER_S
    while True:
        answer = await ask(port, source)
        if not answer.startswith(b"HTTP/1.1 429") or time.monotonic() > deadline:
            return answer
        await asyncio.sleep(0.05)


async def connected(server: WebServer, count: int) -> None:
    """Wait until the server has taken ``count`` connections (it takes them as it runs)."""
    async with asyncio.timeout(ANSWER_S):  # a bound on a stalled server
        while server.connections < count:
            await asyncio.sleep(0.01)


def test_a_connection_with_no_request_is_closed_after_the_idle_timeout() -> None:
    async def body(server: WebServer) -> None:
        reader, writer = await connect(server.port)
        half, half_writer = await connect(server.port)
        half_writer.write(b"GET /api/status HTTP/1.1\r\nHost: bo")  # and no more
        try:
            assert await asyncio.wait_for(reader.read(), ANSWER_S) == b""
            assert await asyncio.wait_for(half.read(), ANSWER_S) == b""
        finally:
            writer.close()
            half_writer.close()
        assert (await ask(server.port)).startswith(b"HTTP/1.1 200 OK")

    run(body, idle_timeout=0.5)


def test_one_address_holds_at_most_per_client_connections(
    caplog: pytest.LogCaptureFixture,
) -> None:
    async def body(server: WebServer) -> None:
        async with contextlib.AsyncExitStack() as stack:
            for _ in range(3):
                await stack.enter_async_context(held(server.port))
            await connected(server, 3)
            for _ in range(4):  # refused at once, each
                reason = refusal(await ask(server.port))
                assert reason == (
                    "too many connections from 127.0.0.1 (3, at most 3): close some of the "
                    "page's tabs, or wait"
                )
            # Another address is served meanwhile.
            assert (await ask(server.port, "127.0.0.2")).startswith(b"HTTP/1.1 200 OK")
        # The held connections closed: the first address is served again.
        assert (await until_served(server.port)).startswith(b"HTTP/1.1 200 OK")

    with caplog.at_level(logging.WARNING, logger="controller.web.server"):
        run(body, per_client=3, max_connections=10)
    said = [r.getMessage() for r in caplog.records if "too many connections" in r.getMessage()]
    assert len(said) == 1, said  # once a minute, not once a refusal: anyone could fill the log
    assert said[0].startswith("web page: too many connections from 127.0.0.1")


def test_the_page_holds_at_most_max_connections() -> None:
    async def body(server: WebServer) -> None:
        async with contextlib.AsyncExitStack() as stack:
            for source in ("127.0.0.1", "127.0.0.1", "127.0.0.2", "127.0.0.3"):
                await stack.enter_async_context(held(server.port, source))
            await connected(server, 4)
            reason = refusal(await ask(server.port, "127.0.0.4"))
            assert reason == "the page holds 4 connections, its most: try again shortly"
        assert (await until_served(server.port, "127.0.0.4")).startswith(b"HTTP/1.1 200 OK")

    run(body, per_client=2, max_connections=4)


OUT_OF_DESCRIPTORS = textwrap.dedent(
    """
    import asyncio, logging, resource, sys
    from aiohttp import web
    from controller.web import WebServer

    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(message)s")
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    resource.setrlimit(resource.RLIMIT_NOFILE, (int(sys.argv[1]), hard))

    async def hello(request):
        return web.Response(text="hello")

    async def main():
        app = web.Application()
        app.router.add_get("/", hello)
        async with WebServer(app, port=0, max_connections=10_000, per_client=10_000) as server:
            print(server.port, flush=True)
            await asyncio.Event().wait()

    asyncio.run(main())
    """
)


def test_out_of_descriptors_the_page_says_so_once_and_serves_again() -> None:
    """The limits set high, a process allowed 64 descriptors: the connections beyond wait in
    the backlog, a line says why, and once they close the page answers again. Python 3.11's
    own server logged a traceback for each connection waiting, and again for each of those
    every second (CPython gh-151615)."""
    limit = 64
    assert resource.getrlimit(resource.RLIMIT_NOFILE)[0] > 4 * limit
    child = subprocess.Popen(
        [sys.executable, "-c", OUT_OF_DESCRIPTORS, str(limit)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=dict(os.environ, PYTHONUNBUFFERED="1"),
    )
    assert child.stdout is not None and child.stderr is not None
    try:
        port = int(child.stdout.readline())
        clients = [socket.create_connection(("127.0.0.1", port)) for _ in range(2 * limit)]
        # The server runs out, while the clients hold on: wait for its line, then give it
        # two retries' time in which the old server wrote thousands.
        line = child.stderr.readline()
        assert line == "WARNING web page: cannot accept a connection: Too many open files\n"
        time.sleep(2.5)
        for client in clients:
            client.close()
        deadline = time.monotonic() + ANSWER_S
        while True:
            with contextlib.suppress(OSError):
                with socket.create_connection(("127.0.0.1", port), timeout=ANSWER_S) as again:
                    again.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                    answer = b"".join(iter(lambda: again.recv(4096), b""))
                if answer.endswith(b"hello"):
                    break
            assert time.monotonic() < deadline, "the page did not serve again"
            time.sleep(0.05)
    finally:
        child.kill()
        _, rest = child.communicate()
    assert rest.count("\n") <= 2, rest[:2000]  # at most one more line, a minute on


def test_refusals_are_paced_so_a_flood_cannot_hold_the_loop() -> None:
    """A refusal costs the service's loop (some 200 us on a Pi Zero 2 W): past 20 in a
    tenth of a second the page accepts nothing until the tenth ends. A slower machine only
    takes longer, so the bound below holds however busy it is."""
    most, seconds = _REFUSALS_EACH

    async def body(server: WebServer) -> None:
        started = time.monotonic()
        for _ in range(5 * most):
            assert (await ask(server.port)).startswith(b"HTTP/1.1 429")
        assert time.monotonic() - started >= 4 * seconds
        assert server.refused == 5 * most

    run(body, per_client=0)
