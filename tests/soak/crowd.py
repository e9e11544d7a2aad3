"""A club's crowd at the board's page while a match is played: spectators follow it, the
referee acts, and one client opens connections as fast as it can and holds them.

A real board service playing itself (:class:`~controller.simulated.board_service.SelfPlayBoard`)
behind its real page, with the page's own limits, on 127.0.0.1; every client speaks raw
HTTP from its own loopback address (127.0.1.N for the spectators, 127.0.0.2 for the
referee, 127.0.0.9 for the crowd's nuisance), which Linux routes to this machine. The
nuisance opens ``--attack`` connections, each one of: nothing sent, half a request head, an
event stream it never reads, or a whole request; it holds every one the page takes.

It passes when:

* every spectator's stream went on to the match's last status, its numbers in order;
* every request of the referee was answered (a status, and an action refused 400 by
  name), none refused for the nuisance's connections;
* the page never held more than its limit, nor more than its per-address limit from the
  nuisance, and refused the rest with a 429;
* nothing logged a traceback, and the page logged its refusals in a line or two, not one a
  connection.

``python -m tests.soak crowd [--spectators 100] [--attack 2000] [--length 3] [--seed 1]``
prints the figures and exits 1 on any failure; the suite runs 5 spectators and 60
connections over a one-point match.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import random
import sys
import time
from dataclasses import dataclass, field

from controller.simulated.board_service import SelfPlayBoard
from controller.web import WebServer, create_app
from controller.web.server import MAX_CONNECTIONS, PER_CLIENT
from tests.web.raw_http import ANSWER_S, connect, exchange

TOKEN = "crowd-token-0123456789abcdef"
REFEREE = "127.0.0.2"
NUISANCE = "127.0.0.9"
_KINDS = ("nothing", "half a head", "an unread stream", "a whole request")


@dataclass(slots=True)
class CrowdReport:
    """What the crowd did and what it found."""

    spectators: int = 0
    final_seq: int = 0
    statuses_seen: list[int] = field(default_factory=list)
    referee_answers: int = 0
    opened: int = 0
    refused: int = 0
    held_most: int = 0
    page_most: int = 0
    refusal_lines: int = 0
    seconds: float = 0.0
    failures: list[str] = field(default_factory=list)

    def figures(self) -> str:
        seen = self.statuses_seen or [0]
        return (
            f"{self.spectators} spectators followed the match to its last event "
            f"({self.final_seq}) in {self.seconds:.1f} s ({min(seen)} to {max(seen)} statuses "
            f"each); the referee had "
            f"{self.referee_answers} answers; the nuisance opened {self.opened} connections: "
            f"{self.refused} refused, {self.held_most} held at most; the page held "
            f"{self.page_most} at most; {self.refusal_lines} refusal line(s) logged"
        )


class _Log(logging.Handler):
    """Tracebacks anywhere, and the page's refusal lines."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.tracebacks: list[str] = []
        self.refusals = 0

    def emit(self, record: logging.LogRecord) -> None:
        if record.exc_info or record.levelno >= logging.ERROR:
            self.tracebacks.append(f"{record.name}: {record.getMessage()[:200]}")
        elif record.getMessage().startswith("web page: "):
            self.refusals += 1


def _request(method: str, path: str, body: bytes = b"") -> bytes:
    head = (
        f"{method} {path} HTTP/1.1\r\nHost: board\r\nConnection: close\r\n"
        f"Authorization: Bearer {TOKEN}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    )
    return head.encode() + body


async def _spectate(port: int, source: str, board: SelfPlayBoard, seen: list[int]) -> None:
    """Follow the stream until it shows the finished match's last status."""
    reader, writer = await connect(port, source)
    try:
        writer.write(b"GET /api/stream HTTP/1.1\r\nHost: board\r\n\r\n")
        while True:
            line = await asyncio.wait_for(reader.readline(), ANSWER_S)
            if not line:
                raise ConnectionError(f"the stream to {source} ended at {seen[-1:]}")
            if line.startswith(b"data: "):
                seen.append(json.loads(line[len(b"data: ") :])["seq"])
                if board.finished and seen[-1] == board.seq:
                    return
    finally:
        writer.close()


async def _referee(port: int, board: SelfPlayBoard, report: CrowdReport) -> None:
    """Ask for the status and send an action the page refuses by name, until the end."""
    fly = _request("POST", "/api/action", json.dumps({"action": "fly"}).encode())
    while not board.finished:
        status = await exchange(port, _request("GET", "/api/status"), source=REFEREE)
        refused = await exchange(port, fly, source=REFEREE)
        for answer, expected in ((status, b"HTTP/1.1 200 "), (refused, b"HTTP/1.1 400 ")):
            if not answer.startswith(expected):
                report.failures.append(f"the referee was answered {answer[:80]!r}")
                return
        report.referee_answers += 2
        await asyncio.sleep(0.01)


async def _nuisance(port: int, connections: int, rng: random.Random,
                    held: list[asyncio.StreamWriter]) -> None:  # fmt: skip
    """Open ``connections`` connections as fast as it can, and keep every one."""
    for _ in range(connections):
        _, writer = await connect(port, NUISANCE)
        held.append(writer)
        kind = rng.choice(_KINDS)
        if kind == "half a head":
            writer.write(b"GET /api/status HTTP/1.1\r\nHo")
        elif kind == "an unread stream":
            writer.write(b"GET /api/stream HTTP/1.1\r\nHost: board\r\n\r\n")
        elif kind == "a whole request":
            writer.write(b"GET /api/status HTTP/1.1\r\nHost: board\r\n\r\n")
        await asyncio.sleep(0)


async def crowd(spectators: int, attack: int, length: int, seed: int) -> CrowdReport:
    """Play a match of ``length`` points before the crowd; the report of what it saw."""
    report = CrowdReport(spectators=spectators)
    log = _Log()
    logging.getLogger().addHandler(log)
    board = SelfPlayBoard("club-1", seed=seed, match_length=length)
    held: list[asyncio.StreamWriter] = []
    started = time.monotonic()
    try:
        await board.start()
        async with WebServer(create_app(board, token=TOKEN), port=0) as page:
            seen: list[list[int]] = [[] for _ in range(spectators)]
            following = [
                asyncio.create_task(_spectate(page.port, f"127.0.1.{n + 1}", board, seen[n]))
                for n in range(spectators)
            ]
            async with asyncio.timeout(ANSWER_S):  # a bound on a page that stalls
                while page.connections < spectators:  # every spectator has its stream
                    await asyncio.sleep(0.01)
            nuisance = asyncio.create_task(_nuisance(page.port, attack, random.Random(seed), held))
            referee = asyncio.create_task(_referee(page.port, board, report))

            async def watch() -> None:
                while True:
                    report.page_most = max(report.page_most, page.connections)
                    report.held_most = max(report.held_most, page.connections_from(NUISANCE))
                    await asyncio.sleep(0.005)

            watcher = asyncio.create_task(watch())
            await nuisance  # the crowd in place, the match is played before it
            await board.play()
            report.final_seq = board.seq
            report.opened, report.refused = len(held), page.refused
            outcomes = await asyncio.gather(*following, referee, return_exceptions=True)
            watcher.cancel()
            for outcome in outcomes:
                if isinstance(outcome, BaseException):
                    report.failures.append(f"{type(outcome).__name__}: {outcome}")
            report.statuses_seen = [len(each) for each in seen]
            for n, each in enumerate(seen):
                if each != sorted(each):
                    report.failures.append(f"spectator {n + 1} saw the events out of order")
    finally:
        for writer in held:
            writer.close()
        board.close()
        logging.getLogger().removeHandler(log)
    report.seconds = time.monotonic() - started
    report.refusal_lines = log.refusals
    report.failures += [f"logged: {line}" for line in log.tracebacks]
    if report.page_most > MAX_CONNECTIONS or report.held_most > PER_CLIENT:
        report.failures.append("the page held more connections than its limits")
    if attack > PER_CLIENT and not report.refused:
        report.failures.append("none of the nuisance's connections was refused")
    if report.refused > attack:
        report.failures.append("connections refused that the nuisance did not open")
    if report.refusal_lines > 2:
        report.failures.append(f"{report.refusal_lines} refusal lines: one a minute at most")
    return report


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.soak crowd")
    parser.add_argument("--spectators", type=int, default=100, help="streams followed")
    parser.add_argument("--attack", type=int, default=2000, help="the nuisance's connections")
    parser.add_argument("--length", type=int, default=3, help="points of the match")
    parser.add_argument("--seed", type=int, default=1, help="the match's and nuisance's seed")
    options = parser.parse_args(argv)
    if options.spectators + PER_CLIENT + 2 > MAX_CONNECTIONS:
        parser.error(f"at most {MAX_CONNECTIONS - PER_CLIENT - 2} spectators: the page's limit")
    report = asyncio.run(crowd(options.spectators, options.attack, options.length, options.seed))
    print(report.figures())
    for failure in report.failures:
        print(f"FAILED: {failure}")
    return 1 if report.failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
