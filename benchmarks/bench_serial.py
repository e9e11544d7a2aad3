"""Serial-link figures: snapshots the bridge decodes per second, and the added latency.

1. Decoding: a stream of SNAPSHOT frames (with their CHANGEs and heartbeats, as the
   board sends them) through the bridge's whole receive path without I/O: frame
   decoder, message unpacking, the conversation state machine and the settler. One core,
   this process. Reference: the same stream through ``bytes.split`` alone, so that the
   ratio survives a busy machine. Target: >= 2,000 snapshots/s.
2. The same stream written into a pseudo-terminal and read by a live ``BoardLink``
   through pyserial (counts what the asyncio shell adds).
3. Latency: the simulator's matrix changes (a checker moved); the time until the stable
   observation reaches the host, minus the settle time. It includes the firmware's
   debouncing (``stable_scans`` x ``scan_period_ms``), the pty, decoding and the settle
   timer. Target: < 5 ms at the 99th percentile.

Run: ``python -m benchmarks.bench_serial``.
"""

from __future__ import annotations

import asyncio
import os
import statistics
import tempfile
import time
import tty
from collections import Counter
from pathlib import Path

from firmware_bridge import BoardLink, LinkState, Observation
from firmware_bridge.frames import Frame, FrameDecoder, encode_frame
from firmware_bridge.layout import board_from_cells, cells_from_board
from firmware_bridge.messages import (
    CellChange,
    Change,
    Heartbeat,
    Hello,
    Snapshot,
    SnapshotReason,
    pack,
    unpack,
)
from firmware_bridge.settle import Settler
from firmware_bridge.sync import BoardSync
from hardware.simulator import START, BoardSimulator

SNAPSHOTS = 20_000
LATENCY_SAMPLES = 200
SETTLE_S = 0.05


def _stream(count: int) -> tuple[bytes, Hello]:
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
    return b"".join(frames), hello


def bench_decoding() -> tuple[float, float]:
    """Snapshots per second through the pure receive path, and the reference ratio."""
    stream, _ = _stream(SNAPSHOTS)
    counters: Counter[str] = Counter()
    sync = BoardSync(counters)
    settler = Settler(SETTLE_S)
    decoder = FrameDecoder()
    sync.start(0.0)
    chunk = 4096
    started = time.perf_counter()
    for offset in range(0, len(stream), chunk):
        for item in decoder.feed(stream[offset : offset + chunk]):
            if isinstance(item, Frame):
                sync.receive(unpack(item), 0.0)
                if sync.cells is not None and sync.event is not None:
                    settler.update(sync.cells, sync.event, 0.0)
    elapsed = time.perf_counter() - started
    assert counters["snapshots"] == SNAPSHOTS, counters
    started = time.perf_counter()
    for offset in range(0, len(stream), chunk):
        stream[offset : offset + chunk].split(b"\x00")
    reference = time.perf_counter() - started
    return SNAPSHOTS / elapsed, elapsed / reference


async def _bench_pty() -> float:
    stream, _ = _stream(SNAPSHOTS)
    master, slave = os.openpty()
    tty.setraw(slave)
    path = os.ttyname(slave)
    try:
        async with BoardLink(path, settle_s=SETTLE_S, handshake_timeout_s=60) as link:
            await asyncio.sleep(0.2)  # the link is open and has asked for HELLO
            os.read(master, 4096)
            started = time.perf_counter()
            writer = asyncio.create_task(asyncio.to_thread(_write_all, master, stream))
            while link.counters.snapshots < SNAPSHOTS:
                await asyncio.sleep(0.005)
            elapsed = time.perf_counter() - started
            await writer
            return SNAPSHOTS / elapsed
    finally:
        os.close(master)
        os.close(slave)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view[:4096])
        view = view[written:]


async def _bench_latency() -> tuple[list[float], list[float]]:
    settings = {"scan_period_ms": 1, "stable_scans": 2, "heartbeat_ms": 200}
    arrivals: list[float] = []

    def tap(frame: Frame) -> None:
        if frame.type == 0x02:  # SNAPSHOT
            arrivals.append(time.perf_counter())

    with tempfile.TemporaryDirectory() as folder:
        sim = BoardSimulator(link=Path(folder) / "board", settings=settings, period_s=0.0005)
        with sim:
            async with BoardLink(sim.path, settle_s=SETTLE_S, on_frame=tap) as link:
                await link.wait_for(LinkState.LIVE, 5)
                updates = link.updates()
                samples = []
                host = []
                for index in range(LATENCY_SAMPLES + 1):
                    source, destination = (23, 19) if index % 2 else (19, 23)
                    if index == 0:
                        source, destination = 23, 19
                    changed = time.perf_counter()
                    sim.board.move(source, destination)
                    expected = board_from_cells(sim.truth())
                    while True:
                        update = await anext(updates)
                        if isinstance(update, Observation) and update.board == expected:
                            break
                    if index:
                        observed = time.perf_counter()
                        samples.append(observed - changed - SETTLE_S)
                        host.append(observed - arrivals[-1] - SETTLE_S)
                    await asyncio.sleep(0.01)
                return samples, host


def main() -> None:
    """Print the figures."""
    rate, ratio = bench_decoding()
    print(
        f"decode path: {rate:,.0f} snapshots/s on one core (target >= 2,000); "
        f"{ratio:.0f}x the time of bytes.split over the same stream"
    )
    pty_rate = asyncio.run(_bench_pty())
    print(f"over a pty into a live BoardLink: {pty_rate:,.0f} snapshots/s")
    samples, host = asyncio.run(_bench_latency())
    print(
        f"matrix change -> stable observation, minus the {SETTLE_S * 1000:.0f} ms settle time, "
        f"{len(samples)} moves: {_percentiles(samples)} (target p99 < 5 ms; includes the "
        "firmware's debouncing, 2 scans of 1 ms)"
    )
    print(
        f"  of which snapshot received -> observation, minus the settle time: {_percentiles(host)}"
    )


def _percentiles(samples: list[float]) -> str:
    ordered = sorted(samples)
    median = statistics.median(ordered) * 1000
    p99 = ordered[max(0, int(len(ordered) * 0.99) - 1)] * 1000
    return f"median {median:.2f} ms, p99 {p99:.2f} ms"


if __name__ == "__main__":
    main()
