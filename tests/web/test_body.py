"""Bad request bodies over real HTTP: each a 4xx with a one-line reason, the board unchanged.

Whatever the body (too deep, too big, not gzip though announced so, in an unknown charset,
cut short), the answer is a JSON ``{"error": ...}`` naming what is wrong, the board does not
change, and the server logs no traceback.
"""

from __future__ import annotations

import asyncio
import gzip
import json
import logging
import zlib
from collections.abc import Awaitable, Callable

import aiohttp
import pytest

from controller.simulated.board_service import SelfPlayBoard
from controller.web import WebServer, create_app
from controller.web.body import MAX_BODY_BYTES, MAX_DEPTH, json_depth
from tests.web.raw_http import exchange

TOKEN = "referee-token-0123456789"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
FLY = json.dumps({"action": "fly"}).encode()
"""A body that reaches the action parser, which refuses it by name."""


def run(body: Callable[[SelfPlayBoard, WebServer], Awaitable[None]]) -> None:
    async def main() -> None:
        board = SelfPlayBoard("hall-1", seed=5, match_length=3)
        async with WebServer(create_app(board, token=TOKEN), port=0) as server:
            await body(board, server)
        board.close()

    asyncio.run(main())


def post_bytes(body: bytes, headers: str = "") -> bytes:
    head = (
        f"POST /api/action HTTP/1.1\r\nHost: board\r\nAuthorization: Bearer {TOKEN}\r\n"
        f"Content-Type: application/json\r\n{headers}"
    )
    return head.encode() + b"\r\n" + body


STATUS = b"GET /api/status HTTP/1.1\r\nHost: board\r\nConnection: close\r\n\r\n"
CONTINUE = b"HTTP/1.1 100 Continue\r\n\r\n"


def nested(depth: int, inner: str = "1") -> bytes:
    return ("[" * depth + inner + "]" * depth).encode()


CASES = [
    # (id, body, extra headers, status, start of the reason)
    ("deep-array", nested(3000), {}, 400, "the body nests 3000 deep; at most 16"),
    ("deep-object", b'{"a":' * 3000 + b"1" + b"}" * 3000, {}, 400, "the body nests 3000 deep"),
    ("one-too-deep", nested(MAX_DEPTH + 1), {}, 400, "the body nests 17 deep; at most 16"),
    ("deepest-taken", b'{"action": ' + nested(MAX_DEPTH - 1) + b"}", {}, 400, "unknown action"),
    ("brackets-in-text", b'{"action": "fly", "x": "' + b"[" * 500 + b'"}', {}, 400,
     "unknown action 'fly'"),
    ("over-64KiB", b" " * (MAX_BODY_BYTES + 1), {}, 413, "the body is over 65536 bytes"),
    ("gzip-bomb", gzip.compress(b" " * 50_000_000), {"Content-Encoding": "gzip"}, 413,
     "the body is over 65536 bytes"),
    ("gzip", gzip.compress(FLY), {"Content-Encoding": "gzip"}, 400, "unknown action 'fly'"),
    ("not-gzip", FLY, {"Content-Encoding": "gzip"}, 400,
     "the body cannot be read: 'Can not decode content-encoding: gzip'"),
    ("not-deflate", FLY, {"Content-Encoding": "deflate"}, 400,
     "the body cannot be read: 'Can not decode content-encoding: deflate'"),
    ("deflate", zlib.compress(FLY), {"Content-Encoding": "deflate"}, 400, "unknown action 'fly'"),
    ("unknown-charset", FLY, {"Content-Type": "application/json; charset=nonsense"}, 400,
     "the body is UTF-8 JSON, not charset 'nonsense'"),
    ("latin-1", FLY, {"Content-Type": "application/json; charset=latin-1"}, 400,
     "the body is UTF-8 JSON, not charset 'latin-1'"),
    ("utf-8", FLY, {"Content-Type": "application/json; charset=UTF-8"}, 400,
     "unknown action 'fly'"),
    ("not-utf-8", b'{"action": "\xff"}', {}, 400, "the body is not UTF-8: byte b'\\xff' at 12"),
    ("NaN", b'{"action": NaN}', {}, 400, "the body is not JSON: NaN is not a JSON number"),
    ("5000-digits", b'{"action": ' + b"9" * 5000 + b"}", {}, 400,
     "the body is not JSON: Exceeds the limit (4300 digits)"),
    ("not-json", b"{nope", {}, 400, "the body is not JSON: Expecting property name enclosed"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("body", "headers", "code", "reason"),
    [case[1:] for case in CASES],
    ids=[case[0] for case in CASES],
)
def test_a_bad_body_is_a_4xx_naming_the_problem(
    body: bytes,
    headers: dict[str, str],
    code: int,
    reason: str,
    caplog: pytest.LogCaptureFixture,
) -> None:
    async def check(board: SelfPlayBoard, server: WebServer) -> None:
        before = board.status()
        async with (
            aiohttp.ClientSession() as session,
            session.post(
                server.url + "api/action",
                data=body,
                headers={"Content-Type": "application/json", **AUTH, **headers},
            ) as response,
        ):
            answer = await response.json()
            assert (response.status, answer["error"][: len(reason)]) == (code, reason), answer
        assert "\n" not in answer["error"] and len(answer["error"]) < 250
        assert board.status() == before

    run(check)
    assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []


def test_the_connection_closes_after_a_body_that_cannot_be_decoded() -> None:
    """The body's stream broke: the answer says so, rather than keep a dead connection."""

    async def check(board: SelfPlayBoard, server: WebServer) -> None:
        bad = post_bytes(FLY, f"Content-Length: {len(FLY)}\r\nContent-Encoding: gzip\r\n")
        answer = await exchange(server.port, bad + STATUS)
        assert answer.startswith(b"HTTP/1.1 400 Bad Request\r\n")
        assert b"\r\nConnection: close\r\n" in answer
        assert answer.count(b"HTTP/1.1 ") == 1
        # Refused before its body is read (405: not a POST route), likewise.
        not_here = bad.replace(b"POST /api/action", b"POST /api/status")
        answer = await exchange(server.port, not_here + STATUS)
        assert answer.startswith(b"HTTP/1.1 405 Method Not Allowed\r\n")
        assert b"\r\nConnection: close\r\n" in answer
        # A body that decodes keeps the connection for the next request.
        request = post_bytes(FLY, f"Content-Length: {len(FLY)}\r\n") + STATUS
        answer = await exchange(server.port, request)
        assert answer.count(b"HTTP/1.1 400 ") == answer.count(b"HTTP/1.1 200 ") == 1

    run(check)


def test_a_body_cut_short_logs_no_traceback(caplog: pytest.LogCaptureFixture) -> None:
    async def check(board: SelfPlayBoard, server: WebServer) -> None:
        before = board.status()
        cut = post_bytes(FLY[:5], f"Content-Length: {len(FLY)}\r\n")
        assert await exchange(server.port, cut, half_close=True) == b""  # nobody to answer
        waiting = post_bytes(FLY[:5], f"Content-Length: {len(FLY)}\r\nExpect: 100-continue\r\n")
        assert await exchange(server.port, waiting, half_close=True) in (b"", CONTINUE)
        chunked = post_bytes(b"10\r\nabc", "Transfer-Encoding: chunked\r\n")
        assert await exchange(server.port, chunked, half_close=True) == b""
        assert (await exchange(server.port, STATUS)).startswith(b"HTTP/1.1 200 OK\r\n")
        assert board.status() == before

    with caplog.at_level(logging.DEBUG):
        run(check)
    assert [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR] == []


@pytest.mark.parametrize(
    "request_line",
    [b"GET /\xff\xfe HTTP/1.1", b"GET /static/\xc3\xa9.js HTTP/1.1", b"FLY\x00 / HTTP/1.1"],
)
def test_a_request_aiohttp_cannot_parse_is_one_warning_line(
    request_line: bytes, caplog: pytest.LogCaptureFixture
) -> None:
    async def check(board: SelfPlayBoard, server: WebServer) -> None:
        answer = await exchange(server.port, request_line + b"\r\nHost: board\r\n\r\n")
        assert answer.startswith(b"HTTP/1.0 400 Bad Request\r\n")

    with caplog.at_level(logging.DEBUG):
        run(check)
    logged = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert [(r.levelname, r.exc_info) for r in logged] == [("WARNING", None)]
    assert logged[0].getMessage().startswith("Error handling request from 127.0.0.1: 400 ")


def test_json_depth_counts_brackets_outside_strings_in_one_pass() -> None:
    assert json_depth("1") == 0
    assert json_depth('{"a": [1, {"b": []}]}') == 4
    assert json_depth('["]]]]", "\\"[[[[", []]') == 2
    assert json_depth('"' + "\\[" * 30_000) == 0  # an unterminated string: one token
    assert json_depth("[" * 100_000) == 100_000


def test_a_body_announced_and_never_sent_gets_a_408(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without a bound, a client could hold a connection (and its task) for ever."""
    monkeypatch.setattr("controller.web.body.BODY_TIMEOUT_S", 0.5)

    async def body(board: SelfPlayBoard, server: WebServer) -> None:
        before = board.status()
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        try:
            writer.write(post_bytes(b'{"act', "Content-Length: 100\r\n"))
            await writer.drain()
            answer = await asyncio.wait_for(reader.read(), 60)  # the server answers and closes
        finally:
            writer.close()
        head, _, text = answer.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 408 "), answer
        assert json.loads(text) == {"error": "the body did not arrive within 0.5 s"}
        assert board.status() == before

    run(body)
