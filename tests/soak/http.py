"""Fuzzed HTTP against the board's page and the hub: no 5xx, nothing changed without the token.

A real board service (:class:`~controller.service.Service` with its SQLite journal, the
starting position seen on the board, no hardware) behind its real aiohttp page, and a hub
following it through a private Mosquitto broker, both on 127.0.0.1. A seeded generator
(stdlib ``random``) writes raw HTTP requests, one connection each: every route with any
method, odd paths (long, unicode, ``..``, percent-encoding), query strings, headers,
content types, content encodings (right or wrong), framings (chunked, a body cut short),
no token, a wrong one or the right one, and bodies from valid actions to garbage, huge or
deeply nested JSON. After each request:

* no answer is a 5xx, and a request that is whole gets an answer (a body cut short on
  purpose may get none); an answer that keeps the connection open really does (the next
  request on it is answered);
* a refusal of ours (JSON ``{"error": ...}``) is one line of at most 300 characters;
* a request to the board without the right token changed neither its status nor its
  journal, and no request to the hub changed the hub's boards;
* no traceback was logged anywhere, and no error by the pages (the service's own errors,
  refusals it logs, are counted apart).

``python -m tests.soak http [--requests 2000] [--seed 1]`` prints the figures and exits 1
on any failure; the suite runs 150 requests a target.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gzip
import json
import logging
import random
import sqlite3
import sys
import tempfile
import time
import zlib
from collections import Counter
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from controller.config import MqttConfig
from controller.hub import Hub
from controller.mqtt import MqttPublisher
from controller.mqtt.mosquitto import Mosquitto
from controller.referee import BoardSeen, cells_from_board
from controller.rules import START, Rules
from controller.service import Service
from controller.service.service import open_journal
from controller.service.setup_desk import BoardSetup
from controller.status import ACTIONS, RESIGN_KINDS, RULE_OPTIONS
from controller.web import WebServer, add_setup_routes, create_app

TOKEN = "fuzz-token-0123456789abcdef"
BOARD_ROUTES = (
    "/", "/static/{name}", "/api/status", "/api/stream", "/api/action", "/api/action",
    "/api/action", "/api/export/{fmt}", "/api/review/{fmt}", "/setup", "/api/setup/state",
    "/api/setup/lamp", "/api/setup/buttons", "/api/setup/sensors", "/api/setup/camera",
    "/api/setup/calibrate",
)  # fmt: skip
HUB_ROUTES = ("/", "/static/{name}", "/api/boards", "/api/summary", "/api/stream")
NAMES = ("board.js", "page.js", "hub.js", "style.css", "index.html", "hub.html", "x.svg")
FORMATS = ("mat", "sgf", "jsonl", "txt", "html", "text", "json", "pdf")
METHODS = (
    "GET", "GET", "GET", "POST", "POST", "POST", "HEAD", "PUT", "DELETE", "OPTIONS",
    "PATCH", "TRACE", "get", "FLY", "CONNECT",
)  # fmt: skip
CONTENT_TYPES = (
    None, "application/json", "application/json", "application/json; charset=utf-8",
    "application/json; charset=latin-1", "application/json; charset=nonsense", "text/plain",
    "multipart/form-data", "multipart/form-data; boundary=x",
    "application/x-www-form-urlencoded", "application/json; charset=", ";;;", "\u00e9/\u00e9",
)  # fmt: skip
MAX_REASON = 300
"""The longest refusal reason accepted (the echo of the input is 40 characters)."""
TIMEOUT_S = 60.0
"""How long one exchange may take before it counts as unanswered (a stalled server)."""


@dataclass(slots=True)
class Request:
    """One request as bytes on the wire, and what its answer must show."""

    raw: bytes
    what: str
    """A short description for the report."""
    authorized: bool
    """It carries the right token: it may change the board."""
    cut_short: bool = False
    """Its body is shorter than announced and the client stops writing: no answer owed."""
    follow_up: bool = True
    """A next request on the connection is owed an answer if this one's keeps it: the body
    is exactly what it announces, no CONNECT tunnel follows, and no expectation that
    aiohttp refuses (417) before the application sees the request."""
    head: bool = False
    keep_alive: bool = False


@dataclass(slots=True)
class Answer:
    """An answer as read off the wire (its body left unread for HEAD and streams)."""

    status: int
    headers: dict[str, str]
    body: bytes
    version: str = "HTTP/1.1"

    @property
    def keeps_connection(self) -> bool:
        """Whether the server said it keeps the connection for another request."""
        return self.version == "HTTP/1.1" and self.headers.get("connection", "").lower() != "close"


@dataclass(slots=True)
class FuzzReport:
    """What one target answered to the fuzzed requests."""

    target: str
    sent: int = 0
    statuses: Counter[int] = field(default_factory=Counter)
    server_errors: list[str] = field(default_factory=list)
    unanswered: list[str] = field(default_factory=list)
    cut_short: int = 0
    follow_ups: int = 0
    """Answers that kept the connection open, and answered the next request on it."""
    bad_reasons: list[str] = field(default_factory=list)
    without_token: int = 0
    changed_without_token: list[str] = field(default_factory=list)
    changed_with_token: int = 0
    longest_reason: int = 0
    seconds: float = 0.0

    @property
    def failures(self) -> list[str]:
        return (
            self.server_errors + self.unanswered + self.bad_reasons + (self.changed_without_token)
        )

    def figures(self) -> str:
        histogram = ", ".join(f"{code}: {n}" for code, n in sorted(self.statuses.items()))
        fives = sum(n for code, n in self.statuses.items() if code >= 500)
        return (
            f"{self.target}: {self.sent} requests in {self.seconds:.1f} s; statuses {histogram}; "
            f"5xx: {fives}; unanswered: {len(self.unanswered)} (cut short on purpose, no answer "
            f"owed: {self.cut_short}); kept-alive connections that answered the next request: "
            f"{self.follow_ups}; state changes without the token: "
            f"{len(self.changed_without_token)} of {self.without_token} requests (with it: "
            f"{self.changed_with_token}); refusals over {MAX_REASON} characters or multi-line: "
            f"{len(self.bad_reasons)} (longest {self.longest_reason})"
        )


_HTTP_LOGGERS = ("aiohttp", "asyncio", "controller.web", "controller.hub")


class _Faults(logging.Handler):
    """The records a request must not cause: a traceback anywhere, an error of the pages.

    Errors the service logs without a traceback are kept apart: they are its own
    (refusals it found late), not the pages'.
    """

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.tracebacks: list[str] = []
        self.service_errors: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        line = f"{record.name}: {record.getMessage()[:200]}"
        if record.exc_info or (
            record.levelno >= logging.ERROR and record.name.startswith(_HTTP_LOGGERS)
        ):
            self.tracebacks.append(line)
        elif record.levelno >= logging.ERROR:
            self.service_errors.append(line)


@dataclass(slots=True)
class FuzzResult:
    board: FuzzReport
    hub: FuzzReport
    tracebacks: list[str]
    """Tracebacks logged anywhere, and errors logged by the pages: failures."""
    service_errors: list[str]
    """Errors the service logged without a traceback (reported, not failures)."""

    @property
    def failures(self) -> list[str]:
        return self.board.failures + self.hub.failures + self.tracebacks


# The generator.


def _json_value(rng: random.Random, depth: int = 0) -> Any:
    kind = rng.randrange(9 if depth < 4 else 6)
    scalars: list[Any] = [
        None, True, False, 0, -1, 7, 65, 10**100, 1.5, 1e308, "",
        "x" * rng.choice((1, 40, 300, 5000)), "\u00e9\u2603\U0001f3b2", "Ann", "single",
    ]  # fmt: skip
    if kind < 6:
        return rng.choice(scalars)
    if kind < 8:
        return [_json_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    keys = ("action", "dice", "board", "length", "names", "reason", "swap", "player", "kind")
    return {rng.choice(keys): _json_value(rng, depth + 1) for _ in range(rng.randrange(4))}


def _action(rng: random.Random) -> dict[str, Any]:
    """An action the parser takes (the board may still refuse it now), or one field off."""
    name = rng.choice(list(ACTIONS))
    body: dict[str, Any] = {"action": name}
    if name == "enter-dice":
        body["dice"] = [rng.randint(1, 6), rng.randint(1, 6)]
    elif name == "correct-position":
        body["board"] = list(START) if rng.random() < 0.5 else [0] * 26
    elif name == "new-match":
        body["length"] = rng.choice((0, 1, 3, 5, 64))
        if rng.random() < 0.5:
            body["names"] = rng.choice((["Ann", "Bob"], ["Cy", "Di"], ["Ann", "Ann"]))
        for option in rng.sample(RULE_OPTIONS, rng.randrange(2)):
            body[option] = rng.random() < 0.5
    elif name == "new-game":
        body["reason"] = rng.choice(("knocked board", "restarted by the referee"))
    elif name == "orientation":
        body["swap"] = rng.random() < 0.5
    elif name == "resign":
        body["player"] = rng.randrange(2)
        body["kind"] = rng.choice(RESIGN_KINDS)
    if rng.random() < 0.3:
        body[rng.choice([*body, "extra"])] = _json_value(rng)
    return body


_BOMB: dict[int, bytes] = {}


def _body(rng: random.Random) -> bytes:
    """A request body, from a valid action to garbage."""
    kind = rng.randrange(12)
    if kind < 4:
        return json.dumps(_action(rng)).encode()
    if kind == 4:
        return json.dumps(_json_value(rng)).encode()
    if kind == 5:
        depth = rng.choice((15, 16, 17, 100, 1000, 30_000, 40_000))
        opener, closer = rng.choice(((b"[", b"]"), (b'{"a":', b"}")))
        return opener * depth + b"1" + closer * depth
    if kind == 6:
        return b" " * rng.choice((65_536, 65_537, 200_000))
    if kind == 7:
        return rng.randbytes(rng.randrange(1, 300))
    if kind == 8:
        return rng.choice((b"", b"{", b"null", b'{"action": NaN}', b'"accept"', b"[]"))
    if kind == 9:
        return b'{"action": "new-match", "length": ' + b"9" * rng.choice((4000, 5000)) + b"}"
    if kind == 10:
        return b'{"action": "' + bytes([rng.randrange(128, 256)]) + b'"}'
    return json.dumps({"action": "new-game", "reason": "\u00e9" * rng.randrange(300)}).encode()


def _segment(rng: random.Random, valid: tuple[str, ...]) -> str:
    """A path segment: a known one, or something odd."""
    return rng.choice((
        rng.choice(valid), rng.choice(valid), "..", "%2e%2e%2fapp.py", "..%2f..%2fetc%2fpasswd",
        "a" * rng.choice((255, 256, 5000)) + ".js", "%C3%A9" * 300 + ".css", "%00.js", "%zz",
        "%", "\u00e9.js", "board.js%00", "BOARD.JS", ".js", "", "board.js/", "%2F",
        "".join(rng.choice("abc.%/-_~!$&'()*+,;=:@") for _ in range(rng.randrange(1, 30))),
    ))  # fmt: skip


def _path(rng: random.Random, routes: tuple[str, ...]) -> str:
    if rng.random() < 0.1:
        path = "/" + "/".join(_segment(rng, NAMES) for _ in range(rng.randrange(1, 5)))
    else:
        path = rng.choice(routes)
        path = path.replace("{name}", _segment(rng, NAMES)).replace("{fmt}", _segment(rng, FORMATS))
    if rng.random() < 0.2:
        pairs = [
            f"{_segment(rng, ('a', 'token'))}={_segment(rng, ('1', TOKEN))}"
            for _ in range(rng.randrange(1, 4))
        ]
        path += "?" + "&".join(pairs)
    return path


def _token(rng: random.Random) -> tuple[str | None, bool]:
    """An Authorization header (or none) and whether it is the right token."""
    roll = rng.random()
    if roll < 0.35:
        return f"Bearer {TOKEN}", True
    return rng.choice((
        None, None, "Bearer wrong-token-0123456789", f"Bearer {TOKEN}x", f"bearer {TOKEN}",
        f"Bearer {TOKEN[:-1]}", "Bearer ", f"Basic {TOKEN}", f"Bearer  {TOKEN}",
        f"Bearer {TOKEN}\u00e9", "Bearer " + "x" * 5000, TOKEN,
    )), False  # fmt: skip


def _encoded(rng: random.Random, body: bytes) -> tuple[bytes, str | None]:
    """The body as sent and its Content-Encoding (right, wrong or unknown)."""
    roll = rng.randrange(14)
    if roll == 0:
        if 1 not in _BOMB:
            _BOMB[1] = gzip.compress(b" " * 50_000_000)
        return _BOMB[1], "gzip"
    choices: list[tuple[bytes, str]] = [
        (gzip.compress(body), "gzip"), (body, "gzip"), (gzip.compress(body)[:-6], "gzip"),
        (zlib.compress(body), "deflate"), (body, "deflate"), (body, "br"), (body, "identity"),
        (body, "zzz"), (gzip.compress(body), "gzip, deflate"), (body, ""),
    ]  # fmt: skip
    if roll <= len(choices):
        return choices[roll - 1]
    return body, None


def _chunked(rng: random.Random, body: bytes) -> bytes:
    """``body`` in chunks, or chunks that break the framing."""
    if rng.random() < 0.7:
        size = rng.randrange(1, 64)
        chunks = [body[i : i + size] for i in range(0, len(body), size)]
        return b"".join(b"%x\r\n%s\r\n" % (len(c), c) for c in chunks) + b"0\r\n\r\n"
    return rng.choice((b"zz\r\nabc\r\n0\r\n\r\n", b"5\r\nabc\r\n0\r\n\r\n", b"-1\r\n\r\n"))


def _well_formed_action(rng: random.Random) -> Request:
    """An action as the page posts it, with the right token or without."""
    authorized = rng.random() < 0.7
    body = json.dumps(_action(rng)).encode()
    headers = f"Authorization: Bearer {TOKEN}\r\n" if authorized else ""
    keep_alive = rng.random() < 0.5
    headers += "" if keep_alive else "Connection: close\r\n"
    raw = (
        f"POST /api/action HTTP/1.1\r\nHost: board\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n{headers}\r\n"
    ).encode() + body
    what = f"POST /api/action token={'right' if authorized else None} body={body[:60]!r}"
    return Request(raw, what, authorized, keep_alive=keep_alive)


def make_request(rng: random.Random, routes: tuple[str, ...]) -> Request:
    """One random request to a page with ``routes``."""
    if "/api/action" in routes and rng.random() < 0.25:
        return _well_formed_action(rng)
    method = rng.choice(METHODS)
    path = _path(rng, routes)
    if method == "POST" and rng.random() < 0.5:
        path = "/api/action"
    authorization, authorized = _token(rng)
    headers: list[tuple[str, str]] = []
    if rng.random() < 0.97:
        headers.append(("Host", rng.choice(("board", "127.0.0.1", "\u00e9", "x" * 300))))
    if authorization is not None:
        headers.append(("Authorization", authorization))
    content_type = rng.choice(CONTENT_TYPES)
    if content_type is not None:
        headers.append(("Content-Type", content_type))
    for _ in range(rng.choice((0, 0, 0, 1, 3))):
        name = rng.choice(("X-Fuzz", "Accept", "Cookie", "Expect", "Range", "\u00e9", "X y"))
        value = rng.choice(("100-continue", "*/*", "bytes=0-1", "\u00e9", "v" * 9000, "a\tb"))
        headers.append((name, value))
    keep_alive = rng.random() < 0.3
    if not keep_alive:
        headers.append(("Connection", "close"))
    with_body = method in ("POST", "PUT", "PATCH") or rng.random() < 0.05
    # aiohttp refuses an expectation it does not know (417) before the application.
    refused_early = any(name == "Expect" and value != "100-continue" for name, value in headers)
    body, cut_short, follow_up = b"", False, not refused_early
    if with_body:
        body, encoding = _encoded(rng, _body(rng))
        if encoding is not None:
            headers.append(("Content-Encoding", encoding))
        framing = rng.randrange(10)
        if framing == 0:
            headers.append(("Transfer-Encoding", "chunked"))
            body = _chunked(rng, body)
            follow_up = False
        elif framing == 1 and body:
            headers.append(("Content-Length", str(len(body) + rng.randrange(1, 100))))
            cut_short = True
        elif framing == 2:
            headers.append(("Content-Length", str(max(0, len(body) - rng.randrange(1, 10)))))
            follow_up = False
        elif framing == 3:
            follow_up = follow_up and not body  # no length: the body is the next request
        else:
            headers.append(("Content-Length", str(len(body))))
    if method == "CONNECT" and body:
        follow_up = False  # a CONNECT has no body: what follows its head is the tunnel's
    head = f"{method} {path} HTTP/1.1\r\n" + "".join(f"{k}: {v}\r\n" for k, v in headers)
    raw = head.encode("utf-8", "surrogateescape") + b"\r\n" + body
    what = f"{method} {path[:60]!r} token={'right' if authorized else authorization!r:.20}"
    what += f" body={body[:40]!r}"
    return Request(raw, what, authorized, cut_short, follow_up, method == "HEAD", keep_alive)


# The exchange.


async def _read_answer(reader: asyncio.StreamReader, *, head: bool) -> Answer | None:
    """The next final answer on the connection (1xx skipped), None if it closes first."""
    while True:
        try:
            raw = await reader.readuntil(b"\r\n\r\n")
        except (asyncio.IncompleteReadError, ConnectionError):
            return None
        lines = raw.decode("latin-1").split("\r\n")
        version, status = lines[0].split()[0], int(lines[0].split()[1])
        headers = {}
        for line in filter(None, lines[1:]):
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        if status < 200:
            continue
        length = headers.get("content-length")
        if head or length is None:  # a HEAD answer, or a stream: its headers are enough
            return Answer(status, headers, b"", version)
        try:
            return Answer(status, headers, await reader.readexactly(int(length)), version)
        except (asyncio.IncompleteReadError, ConnectionError):
            return None


async def exchange(
    port: int, request: Request, follow_up_path: str
) -> tuple[Answer | None, Answer | None]:
    """Send ``request`` on a new connection; its answer, and the follow-up's if it kept it."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(request.raw)
        if request.cut_short:
            writer.write_eof()
        with contextlib.suppress(ConnectionError):
            await writer.drain()
        answer = await _read_answer(reader, head=request.head)
        follow_up = None
        kept = answer is not None and answer.keeps_connection
        streaming = answer is not None and "content-length" not in answer.headers
        if (
            kept
            and request.keep_alive
            and request.follow_up
            and not request.cut_short
            and not streaming
        ):
            writer.write(f"GET {follow_up_path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
            follow_up = await _read_answer(reader, head=False)
            if follow_up is None:
                follow_up = Answer(0, {}, b"")  # promised to keep the connection, closed it
        return answer, follow_up
    finally:
        writer.close()
        with contextlib.suppress(ConnectionError):
            await writer.wait_closed()


# The targets.


def _journal_count(path: Path) -> int:
    with contextlib.closing(sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)) as db:
        (count,) = db.execute("SELECT COUNT(*) FROM events").fetchone()
        return int(count)


def _check(
    report: FuzzReport, request: Request, answers: tuple[Answer | None, Answer | None]
) -> None:
    answer, follow_up = answers
    report.sent += 1
    if answer is None:
        if request.cut_short:
            report.cut_short += 1
        else:
            report.unanswered.append(f"no answer to {request.what}")
        return
    report.statuses[answer.status] += 1
    if answer.status >= 500:
        report.server_errors.append(f"{answer.status} to {request.what}: {answer.body[:200]!r}")
    if follow_up is not None:
        if follow_up.status == 200:
            report.follow_ups += 1
        else:
            report.unanswered.append(
                f"kept the connection after {request.what} but answered {follow_up.status}"
            )
    is_json = answer.headers.get("content-type", "").startswith("application/json")
    if is_json and answer.status >= 400 and not request.head:
        reason = json.loads(answer.body)["error"]
        report.longest_reason = max(report.longest_reason, len(reason))
        if len(reason) > MAX_REASON or "\n" in reason:
            report.bad_reasons.append(f"{answer.status} {reason[:100]!r}... to {request.what}")


async def fuzz_target(
    target: str,
    port: int,
    routes: tuple[str, ...],
    state: Callable[[], object],
    *,
    follow_up: str,
    requests: int,
    rng: random.Random,
    deadline: float,
) -> FuzzReport:
    """Send ``requests`` random requests to ``port``; ``state()`` moves only with the token.

    ``follow_up`` is the path asked for next on a connection the answer kept open.
    """
    report = FuzzReport(target)
    start = time.monotonic()
    for _ in range(requests):
        if time.monotonic() > deadline:
            report.unanswered.append(f"stopped at the deadline after {report.sent} requests")
            break
        request = make_request(rng, routes)
        before = state()
        try:
            answers = await asyncio.wait_for(exchange(port, request, follow_up), TIMEOUT_S)
        except TimeoutError:
            answers = (None, None)
            request.cut_short = False  # a stalled server, whatever was sent
        _check(report, request, answers)
        after = state()
        if before != after:
            if request.authorized:
                report.changed_with_token += 1
            else:
                report.changed_without_token.append(f"changed by {request.what}")
        report.without_token += not request.authorized
    report.seconds = time.monotonic() - start
    return report


@contextlib.asynccontextmanager
async def hall(folder: Path) -> AsyncIterator[tuple[Service, WebServer, Hub, Path]]:
    """A board service with its page, publishing to a Mosquitto broker that a hub follows."""
    journal_path = folder / "match.sqlite3"
    with Mosquitto(folder / "broker") as broker, open_journal(journal_path) as journal:
        service = Service("fuzz-1", journal, names=("Ann", "Bob"), rules=Rules(3))
        hub = Hub(MqttConfig(broker.url, "hub"), folder / "archive", port=0)
        publisher = MqttPublisher(service, MqttConfig(broker.url, "fuzz-1"), backoff=(0.1, 1.0))
        tasks = [
            asyncio.create_task(service.run(), name="service"),
            asyncio.create_task(hub.run(), name="hub"),
            asyncio.create_task(publisher.run(), name="publisher"),
        ]
        try:
            app = create_app(service, token=TOKEN)
            add_setup_routes(app, BoardSetup(service))  # no camera, no sensor board here
            async with WebServer(app, port=0) as page:
                service.feed(BoardSeen(cells_from_board(START)))
                await asyncio.wait_for(hub.ready.wait(), 30)
                yield service, page, hub, journal_path
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)


async def _hub_follows(hub: Hub, service: Service, timeout: float = 60.0) -> None:
    """Wait until the hub shows the board's latest status."""
    deadline = time.monotonic() + timeout
    while True:
        view = hub.state.boards.get(service.board_id)
        shown = None if view is None or view.status is None else view.status.to_json()
        if json.dumps(shown) == json.dumps(service.status().to_json()):
            return
        if time.monotonic() > deadline:
            raise TimeoutError(f"the hub did not show the board's status within {timeout} s")
        await asyncio.sleep(0.02)


async def fuzz(requests: int, seed: int, folder: Path, *, budget_s: float) -> FuzzResult:
    """Fuzz the board's page then the hub's, ``requests`` each, within ``budget_s``."""
    rng = random.Random(seed)
    deadline = time.monotonic() + budget_s
    faults = _Faults()
    logging.getLogger().addHandler(faults)
    try:
        async with hall(folder) as (service, page, hub, journal_path):
            await _hub_follows(hub, service)

            def board_state() -> object:
                return service.status(), _journal_count(journal_path)

            board = await fuzz_target(
                "board", page.port, BOARD_ROUTES, board_state, follow_up="/api/status",
                requests=requests, rng=rng, deadline=deadline,
            )  # fmt: skip
            await _hub_follows(hub, service)

            def hub_state() -> object:
                views = {key: view.to_json() for key, view in hub.state.boards.items()}
                return hub.state.summary(), views

            hall_page = await fuzz_target(
                "hub", hub.web.port, HUB_ROUTES, hub_state, follow_up="/api/boards",
                requests=requests, rng=rng, deadline=deadline,
            )  # fmt: skip
    finally:
        logging.getLogger().removeHandler(faults)
    return FuzzResult(board, hall_page, faults.tracebacks, faults.service_errors)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.soak http", description=__doc__)
    parser.add_argument("--requests", type=int, default=2000, help="requests a target")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--budget", type=float, default=3600.0, help="seconds at most")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        result = asyncio.run(fuzz(args.requests, args.seed, Path(folder), budget_s=args.budget))
    print(result.board.figures())
    print(result.hub.figures())
    print(f"tracebacks logged: {len(result.tracebacks)}")
    errors = Counter(line.split(": ", 2)[1][:60] for line in result.service_errors)
    print(f"errors the service logged (its own, not failures): {dict(errors)}")
    for failure in result.failures[:20]:
        print("FAIL", failure)
    return 1 if result.failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
