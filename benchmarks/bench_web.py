"""The page's share of the service's one loop on a club's network: a refused connection, the
pace of refusals under one client's flood, and a status sent to many spectators.

Why: anyone on the network may open connections, and each refusal the page writes costs
the loop that also reads the sensor board and lights the LEDs (``controller/web/server.py``).
References, measured in the same run: a bare asyncio accept and close of the same
connections by the same client (the least any accept loop costs); the pacing's own bound;
and the status encoded once for each of its readers (what each stream did before the
fan-out kept the encoding).
"""

from __future__ import annotations

import argparse
import asyncio
import socket

from aiohttp import web

from benchmarks.measure import Interleaved, Row, best_of, count, timed_row
from controller.simulated.board_service import SelfPlayBoard
from controller.web import Fanout, WebServer
from controller.web.app import _status_bytes
from controller.web.server import _REFUSALS_EACH

SMALL = ("--connections", "40", "--streams", "10", "--repeats", "1")


def add_options(parser: argparse.ArgumentParser) -> None:
    """The benchmark's options."""
    parser.add_argument("--connections", type=count, default=400, help="connections a pass")
    parser.add_argument("--streams", type=count, default=100, help="spectators' streams")
    parser.add_argument("--repeats", type=count, default=3, help="interleaved repeats")


async def _connect_and_read(port: int, connections: int) -> None:
    """One client's flood: connect, read what the server says until it closes, again."""
    for _ in range(connections):
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        await reader.read()
        writer.close()
        await writer.wait_closed()


async def _refusal_rows(connections: int, repeats: int) -> list[Row]:
    page = WebServer(web.Application(), port=0, per_client=0)  # every connection refused
    listener = socket.create_server(("127.0.0.1", 0))
    listener.setblocking(False)
    loop = asyncio.get_running_loop()

    async def bare() -> None:
        while True:
            connection, _ = await loop.sock_accept(listener)
            connection.close()

    cpu, wall = Interleaved("cpu"), Interleaved("wall")
    await page.start()
    barely = asyncio.create_task(bare())
    try:
        for _ in range(repeats):
            with cpu.subject(), wall.subject():
                await _connect_and_read(page.port, connections)
            with cpu.reference(), wall.reference():
                await _connect_and_read(listener.getsockname()[1], connections)
    finally:
        barely.cancel()
        await page.close()
        listener.close()
    refused, accepted = cpu.best
    paced = connections / wall.best[0]
    most, seconds = _REFUSALS_EACH
    return [
        timed_row("a connection refused (429) by the page, client included, per connection",
                  refused, accepted, per=connections, reference_name="a bare asyncio accept "
                  "and close of the same connections, the same client"),
        Row("refusals a second under one client's flood (paced), wall", paced, "per s",
            most / seconds, "the pacing's bound (20 a tenth of a second)", clock="wall"),
    ]  # fmt: skip


def _status_row(streams: int, repeats: int) -> Row:
    board = SelfPlayBoard("bench-web", seed=5, match_length=3)
    status = board.status()
    board.close()

    def shared() -> None:
        fanout = Fanout(status)  # a new status: encoded once, then kept
        for _ in range(streams):
            fanout.encoded(status, _status_bytes)

    def each() -> None:
        for _ in range(streams):
            _status_bytes(status)

    once, every = best_of(shared, each, repeats=repeats)
    return timed_row(
        f"a status to {streams} spectators' streams, per status", once, every,
        reference_name="the status encoded by each stream for itself (before)",
    )  # fmt: skip


def run(options: argparse.Namespace) -> list[Row]:
    """Measure and return the rows."""
    rows = asyncio.run(_refusal_rows(options.connections, options.repeats))
    rows.append(_status_row(options.streams, options.repeats))
    return rows
