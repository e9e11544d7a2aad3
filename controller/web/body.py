"""A request's JSON body, read within limits: a bad body is a 4xx that says why, never a 500.

Why one reader for every POST: aiohttp's ``request.json()`` lets through what breaks
later: nesting deeper than Python's recursion (``RecursionError``), a charset Python does
not know (``LookupError``), a body announced as gzip that is not (``RequestPayloadError``),
an integer of more than 4,300 digits (``ValueError``). Here each one is a
:class:`~controller.web.errors.BadRequestError` naming what is wrong, and nothing is read
beyond the limits:

* :data:`BODY_TIMEOUT_S` (30 s) for the whole body to arrive, else 408;
* :data:`MAX_BODY_BYTES` (64 KiB), after decompression: the biggest action is a few
  hundred bytes;
* :data:`MAX_DEPTH` arrays and objects inside one another: an action nests two;
* UTF-8 only (RFC 8259), no ``NaN`` nor ``Infinity``.
"""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any, Final

from aiohttp import web
from aiohttp.http_exceptions import HttpProcessingError
from aiohttp.web_protocol import RequestPayloadError

from controller.web.errors import BadRequestError
from hardware.board.errors import clipped_repr

__all__ = [
    "MAX_BODY_BYTES",
    "MAX_DEPTH",
    "aiohttp_refusal",
    "json_depth",
    "parse_json",
    "read_json",
]

MAX_BODY_BYTES: Final = 64 * 1024
"""The largest body taken, decompressed (the application's ``client_max_size``)."""
MAX_DEPTH: Final = 16
#: How long a request may take to send its whole body. A client that announces a body and
#: then sends nothing would otherwise hold its connection for ever; 64 KiB in this time
#: is 2 KiB a second, far below a phone on a club's Wi-Fi.
BODY_TIMEOUT_S = 30.0
"""How deep a body's arrays and objects may nest."""
_UTF8: Final = frozenset({"utf-8", "utf8", "us-ascii", "ascii"})
_TOKENS: Final = re.compile(r'"(?:[^"\\]|\\.)*"?|[\[\]{}]', re.DOTALL)
"""A string (to skip: its brackets are text), or a bracket. The closing quote is optional
so that an unterminated string ends the scan rather than restarting at every quote."""


def json_depth(text: str) -> int:
    """How deep the arrays and objects of JSON ``text`` nest, counted in one pass.

    Why not ``json.loads`` first: its decoder recurses, and a 64 KiB body can nest 32,000
    deep. Brackets inside strings do not count.

    >>> json_depth('{"a": [1, [2]], "b": "[[["}')
    3
    """
    depth = deepest = 0
    for token in _TOKENS.finditer(text):
        bracket = token.group()
        if bracket in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif bracket in "]}":
            depth -= 1
    return deepest


def aiohttp_refusal(error: BaseException | None) -> tuple[int, str] | None:
    """The 4xx status and one-line reason of a request aiohttp could not parse or decode.

    ``error`` is what aiohttp raised: an ``HttpProcessingError`` (a bad request line, a
    bad chunk), or a ``RequestPayloadError`` caused by one (a body that is not the gzip it
    says); None for anything else.
    """
    if isinstance(error, RequestPayloadError):
        error = error.__cause__
    if isinstance(error, HttpProcessingError) and 400 <= error.code < 500:
        return error.code, " ".join(str(error.message).split())  # its reasons span lines
    return None


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def parse_json(body: bytes) -> Any:
    """The JSON value of a request body, within :data:`MAX_DEPTH`.

    Raises:
        BadRequestError: (400) if the body is not UTF-8, nests too deep or is not JSON.
    """
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as error:
        raise BadRequestError(
            400, f"the body is not UTF-8: byte {clipped_repr(body[error.start : error.end])} "
            f"at {error.start}"
        ) from None  # fmt: skip
    depth = json_depth(text)
    if depth > MAX_DEPTH:
        raise BadRequestError(400, f"the body nests {depth} deep; at most {MAX_DEPTH}")
    try:
        return json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as error:
        raise BadRequestError(
            400, f"the body is not JSON: {error.msg} at line {error.lineno} column {error.colno}"
        ) from None
    except ValueError as error:  # NaN, or an integer too long to convert
        raise BadRequestError(400, f"the body is not JSON: {error}") from None


async def read_json(request: web.Request) -> Any:
    """The JSON value of ``request``'s body, decompressed, within the limits.

    Raises:
        BadRequestError: 408 if the body does not arrive within :data:`BODY_TIMEOUT_S`,
            413 if the body is over :data:`MAX_BODY_BYTES`, 400 if its
            charset is not UTF-8, it cannot be decoded (bad gzip or deflate, cut short) or
            :func:`parse_json` refuses it.
    """
    charset = request.charset
    if charset is not None and charset.lower() not in _UTF8:
        raise BadRequestError(400, f"the body is UTF-8 JSON, not charset {clipped_repr(charset)}")
    try:
        async with asyncio.timeout(BODY_TIMEOUT_S):
            body = await request.read()
    except TimeoutError:
        raise BadRequestError(
            408, f"the body did not arrive within {BODY_TIMEOUT_S:g} s"
        ) from None
    except web.HTTPRequestEntityTooLarge:
        raise BadRequestError(413, f"the body is over {MAX_BODY_BYTES} bytes") from None
    except RequestPayloadError as error:
        _, reason = aiohttp_refusal(error) or (400, str(error))
        raise BadRequestError(400, f"the body cannot be read: {clipped_repr(reason, 80)}") from None
    except ConnectionResetError:
        # The client closed before the whole body came: nobody reads the answer, but the
        # refusal is the same as for any body cut short.
        raise BadRequestError(400, "the body was cut short: the connection closed") from None
    return parse_json(body)
