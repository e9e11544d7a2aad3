"""Raw HTTP over real TCP from any loopback address (127.0.0.2, ... reach this machine too):
the bytes a test sends as they are, and all the server answers until it closes."""

from __future__ import annotations

import asyncio
import json

ANSWER_S = 60.0
"""How long an answer may take: a bound on a stalled server, never a measure of speed."""


async def connect(
    port: int, source: str = "127.0.0.1"
) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A connection from ``source`` to the server on 127.0.0.1:``port``."""
    return await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))


async def exchange(
    port: int, request: bytes, *, source: str = "127.0.0.1", half_close: bool = False
) -> bytes:
    """Send ``request`` from ``source`` (then end the sending side if ``half_close``);
    everything the server answers until it closes."""
    reader, writer = await connect(port, source)
    try:
        writer.write(request)
        if half_close:
            writer.write_eof()
        return await asyncio.wait_for(reader.read(), ANSWER_S)
    finally:
        writer.close()


def refusal(answer: bytes) -> str:
    """The reason a 429 answer gives (the page's refusal of a connection over its limits)."""
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 429 Too Many Requests\r\n"), answer
    reason: str = json.loads(body)["error"]
    return reason
