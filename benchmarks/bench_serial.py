"""Serial link: snapshots the bridge decodes, through a pty too, and the latency it adds.

1. Decoding: a stream of SNAPSHOT frames (with their CHANGEs and heartbeats, as the board
   sends them) through the bridge's whole receive path without I/O: frame decoder,
   message unpacking, the conversation and the settler. Reference: ``bytes.split(b"\\0")``
   over the same bytes in the same chunks, the least any decoder must do. Target: >= 2,000
   snapshots/s (500 us a snapshot).
2. The same stream written into a pseudo-terminal and read by a live ``BoardLink`` through
   pyserial, from the moment the link has asked for HELLO (read through the event loop,
   never by blocking it). Reference: the same bytes through a pty read with
   ``loop.add_reader`` and split on ``b"\\0"``. Snapshots the link never counted are misses.
3. Latency: a checker moved on the simulated board, until the stable observation reaches
   the host, minus the settle time (wall time: the firmware runs in its own thread). It
   includes the firmware's debouncing (``stable_scans`` x ``scan_period_ms``), the pty,
   decoding and the settle timer. Target: p99 under 5 ms. Reference: the same move until
   its SNAPSHOT frame arrives (the wire alone); a move with no observation within the
   bound is a miss, counted at the bound.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import tempfile
import time
import tty
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from benchmarks.measure import Interleaved, Row, best_of, count, latency_rows, timed_row
from firmware_bridge import BoardLink, LinkState, Observation, SerialPort
from firmware_bridge.frames import Frame, FrameDecoder, encode_frame
from firmware_bridge.messages import (
    CellChange,
    Change,
    Heartbeat,
    Hello,
    MessageType,
    Snapshot,
    SnapshotReason,
    pack,
    unpack,
)
from firmware_bridge.settle import Settler
from firmware_bridge.sync import BoardSync
from hardware.board.geometry import board_from_cells, cells_from_board
from hardware.simulator import START, BoardSimulator

SMALL = ("--snapshots", "200", "--moves", "3", "--repeats", "1")

SETTLE_S = 0.05
CHUNK = 4096
LATENCY_FIRMWARE = {"scan_period_ms": 1, "stable_scans": 2, "heartbeat_ms": 200}
BOUND_S = 60.0
"""The longest wait for the link (its HELLO request, a pass of the stream)."""
STALL_S = 5.0
"""How long the link may count no snapshot once the whole stream is written."""


def add_options(parser: argparse.ArgumentParser) -> None:
    """The benchmark's options."""
    parser.add_argument("--snapshots", type=count, default=20_000, help="snapshots a stream")
    parser.add_argument("--moves", type=count, default=200, help="moves timed for latency")
    parser.add_argument("--repeats", type=count, default=5, help="interleaved repeats")


def stream(count: int) -> bytes:
    """HELLO, then per event a CHANGE and its SNAPSHOT, a heartbeat every 10 events."""
    hello = Hello(1, 0, 0b1111, 7, 0, 500, 64, (5,) * 28, "bench")
    frames = [encode_frame(pack(hello, 0))]
    a = cells_from_board(START)
    moved = list(START)
    moved[24], moved[20] = 1, 1
    b = cells_from_board(moved)
    seq = 1
    for event in range(1, count + 1):
        before, after = (a, b) if event % 2 else (b, a)
        changes = tuple(
            CellChange(i, x, y)
            for i, (x, y) in enumerate(zip(before, after, strict=True))
            if x != y
        )
        for message in (
            Change(event, event, changes),
            Snapshot(event, SnapshotReason.CHANGE, after),
        ):
            frames.append(encode_frame(pack(message, seq & 0xFFFF)))
            seq += 1
        if event % 10 == 0:
            frames.append(encode_frame(pack(Heartbeat(event, 7, event, 0), seq & 0xFFFF)))
            seq += 1
    return b"".join(frames)


def _chunks(data: bytes) -> Iterator[bytes]:
    return (data[offset : offset + CHUNK] for offset in range(0, len(data), CHUNK))


def decoded(data: bytes) -> int:
    """Snapshots counted when ``data`` goes through the bridge's receive path."""
    counters: Counter[str] = Counter()
    sync = BoardSync(counters)
    settler = Settler(SETTLE_S)
    decoder = FrameDecoder()
    sync.start(0.0)
    for chunk in _chunks(data):
        for item in decoder.feed(chunk):
            if isinstance(item, Frame):
                sync.receive(unpack(item), 0.0)
                if sync.cells is not None and sync.event is not None:
                    settler.update(sync.cells, sync.event, 0.0)
    return counters["snapshots"]


def _split(data: bytes) -> None:
    for chunk in _chunks(data):
        chunk.split(b"\x00")


def decoding_row(snapshots: int, repeats: int) -> Row:
    """CPU time a snapshot through the pure receive path, beside ``bytes.split``."""
    data = stream(snapshots)
    ours, reference = best_of(lambda: decoded(data), lambda: _split(data), repeats=repeats)
    return timed_row(
        "decode path (frames, messages, sync, settler), per snapshot", ours, reference,
        per=snapshots, misses=snapshots - decoded(data),
        reference_name='bytes.split(b"\\0") over the same bytes in the same chunks',
    )  # fmt: skip


@contextlib.contextmanager
def _pty() -> Iterator[tuple[int, int]]:
    """A raw pseudo-terminal: its master and slave descriptors, closed after."""
    master, slave = os.openpty()
    try:
        tty.setraw(slave)
        yield master, slave
    finally:
        os.close(master)
        os.close(slave)


class _Reader:
    """Everything that arrives on a descriptor, read through the loop and split in frames.

    The benchmark must never block the loop that runs the link: a blocking read there
    waits for a request that only the blocked loop could send.
    """

    def __init__(self, fd: int) -> None:
        self._fd = fd
        self._decoder = FrameDecoder()
        self.delimiters = 0
        self.types: Counter[int] = Counter()
        self.changed = asyncio.Event()

    def __enter__(self) -> _Reader:
        asyncio.get_running_loop().add_reader(self._fd, self._readable)
        return self

    def __exit__(self, *exc: object) -> None:
        asyncio.get_running_loop().remove_reader(self._fd)

    def _readable(self) -> None:
        try:
            data = os.read(self._fd, 65536)
        except OSError:  # the other end closed: nothing more will come
            asyncio.get_running_loop().remove_reader(self._fd)
            return
        self.delimiters += data.count(b"\x00")
        for item in self._decoder.feed(data):
            if isinstance(item, Frame):
                self.types[item.type] += 1
        self.changed.set()

    async def until(self, done: Callable[[], bool], what: str, bound_s: float) -> None:
        """Wait until ``done()`` after something arrived.

        Raises:
            TimeoutError: naming ``what`` after ``bound_s`` seconds.
        """
        try:
            async with asyncio.timeout(bound_s):
                while not done():
                    self.changed.clear()
                    await self.changed.wait()
        except TimeoutError:
            raise TimeoutError(f"{what}: nothing after {bound_s:.0f} s") from None


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view[:CHUNK])
        view = view[written:]


async def _through_link(
    data: bytes,
    snapshots: int,
    pair: Interleaved,
    open_serial: Callable[[str, int], SerialPort] | None,
    bound_s: float,
) -> int:
    """One pass of ``data`` into a live BoardLink over a pty; the snapshots it missed."""
    options: dict[str, Any] = {} if open_serial is None else {"open_serial": open_serial}
    with _pty() as (master, slave), _Reader(master) as board_side:
        async with BoardLink(os.ttyname(slave), settle_s=SETTLE_S, handshake_timeout_s=bound_s,
                             **options) as link:  # fmt: skip
            await board_side.until(lambda: board_side.types[MessageType.HELLO_REQUEST] > 0,
                                   "the link's HELLO request", bound_s)  # fmt: skip
            with pair.subject():
                writer = asyncio.create_task(asyncio.to_thread(_write_all, master, data))
                seen, since = 0, time.monotonic()
                while (counted := link.counters.snapshots) < snapshots:
                    if counted != seen:
                        seen, since = counted, time.monotonic()
                    elif writer.done() and time.monotonic() - since > STALL_S:
                        break
                    await asyncio.sleep(0.005)
                await writer
    return snapshots - counted


async def _raw(data: bytes, pair: Interleaved, bound_s: float) -> None:
    """One pass of ``data`` through a pty, read by the loop and split: the reference."""
    frames = data.count(b"\x00")
    with _pty() as (master, slave), _Reader(slave) as host_side, pair.reference():
        writer = asyncio.create_task(asyncio.to_thread(_write_all, master, data))
        await host_side.until(lambda: host_side.delimiters >= frames, "the raw pty", bound_s)
        await writer


async def pty_row(
    snapshots: int,
    repeats: int,
    *,
    open_serial: Callable[[str, int], SerialPort] | None = None,
    bound_s: float = BOUND_S,
) -> Row:
    """CPU time a snapshot over a pty into a live BoardLink, beside a raw read of the pty.

    Args:
        snapshots: snapshots in the stream.
        repeats: passes of each, taken in turns.
        open_serial: how the link opens its port (default: the link's own, pyserial).
        bound_s: the longest wait for the link's HELLO request, and for a whole pass.

    Raises:
        TimeoutError: if the link never asks for HELLO, or a pass takes over ``bound_s``.
    """
    data = stream(snapshots)
    pair = Interleaved()
    misses = 0
    for _ in range(repeats):
        async with asyncio.timeout(bound_s):
            misses += await _through_link(data, snapshots, pair, open_serial, bound_s)
            await _raw(data, pair, bound_s)
    ours, reference = pair.best
    return timed_row(
        "over a pty into a live BoardLink, per snapshot", ours, reference, per=snapshots,
        misses=misses, reference_name='the same bytes through a pty, read by the loop and '
        'split on b"\\0"',
    )  # fmt: skip


class LinkLatency:
    """A simulated board and a bare BoardLink: a checker moved, until its observation.

    Also the reference of the board service's latency: the link alone, without the referee
    and the LEDs, on the service's firmware settings. Use as an async context manager.
    """

    def __init__(self, *, settings: dict[str, int], settle_s: float, period_s: float) -> None:
        self.settings = settings
        self.settle_s = settle_s
        self.period_s = period_s
        self._stack = contextlib.AsyncExitStack()
        self._frames: list[float] = []
        self._observed: list[tuple[float, tuple[int, ...]]] = []
        self._arrived = asyncio.Event()
        self._moves = 0

    async def __aenter__(self) -> LinkLatency:
        stack = self._stack
        folder = stack.enter_context(tempfile.TemporaryDirectory())
        self._sim = stack.enter_context(
            BoardSimulator(link=Path(folder) / "board", settings=self.settings,
                           period_s=self.period_s)
        )  # fmt: skip
        link = await stack.enter_async_context(
            BoardLink(self._sim.path, settle_s=self.settle_s, on_frame=self._tap)
        )
        await link.wait_for(LinkState.LIVE, BOUND_S)
        follower = asyncio.create_task(self._follow(link), name="latency-follower")
        stack.callback(follower.cancel)
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self._stack.aclose()

    def _tap(self, frame: Frame) -> None:
        if frame.type == MessageType.SNAPSHOT:
            self._frames.append(time.perf_counter())

    async def _follow(self, link: BoardLink) -> None:
        async for update in link.updates():
            if isinstance(update, Observation):
                self._observed.append((time.perf_counter(), update.board))
                self._arrived.set()

    async def move(self, bound_s: float) -> tuple[float, float] | None:
        """Move a checker; seconds until its observation (minus the settle time) and until
        its SNAPSHOT frame; None if no observation came within ``bound_s``."""
        source, destination = (23, 19) if self._moves % 2 == 0 else (19, 23)
        self._moves += 1
        seen = len(self._observed)
        changed = time.perf_counter()
        self._sim.board.move(source, destination)
        expected = board_from_cells(self._sim.truth())
        try:
            async with asyncio.timeout(bound_s):
                while not any(board == expected for _, board in self._observed[seen:]):
                    self._arrived.clear()
                    await self._arrived.wait()
        except TimeoutError:
            return None
        observed = next(at for at, board in self._observed[seen:] if board == expected)
        frame = max((at for at in self._frames if changed <= at <= observed), default=observed)
        return observed - changed - self.settle_s, frame - changed


async def _latency(moves: int, bound_s: float = 2.0) -> list[Row]:
    samples: list[float] = []
    wire: list[float] = []
    misses = 0
    async with LinkLatency(settings=LATENCY_FIRMWARE, settle_s=SETTLE_S,
                           period_s=0.0005) as latency:  # fmt: skip
        await latency.move(bound_s)  # a warm-up
        for _ in range(moves):
            sample = await latency.move(bound_s)
            if sample is None:
                misses += 1
            observed, frame = sample or (bound_s, bound_s)
            samples.append(observed)
            wire.append(frame)
            await asyncio.sleep(0.01)
    return latency_rows(
        "matrix change -> stable observation, minus settle", samples, wire, misses=misses,
        reference_name="the same move until its SNAPSHOT frame reaches the host (the wire)",
    )  # fmt: skip


def run(options: argparse.Namespace) -> list[Row]:
    """Measure and return the rows."""
    rows = [decoding_row(options.snapshots, options.repeats)]
    rows.append(asyncio.run(pty_row(options.snapshots, options.repeats)))
    return rows + asyncio.run(_latency(options.moves))
