"""Board service: latency from a checker lifted on the simulated board to the LED pins, CPU
and memory idle and busy, and simulated games per minute.

Run ``python -m benchmarks.bench_service [--changes N] [--games N]``. The whole service
runs as in ``tabula demo``: the board simulator's firmware on a pty, the real bridge, the
referee in learner mode (a lifted checker lights its destinations), the shift-register
LEDs on gpiozero's MockFactory. Latency is from the simulator's ``lift``/``place`` call to
the latch pin's rising edge (MockPin's own time stamps), minus the link's settle time;
targets: p99 under 20 ms, RSS under 150 MB. CPU is the process's minus the simulator's
firmware thread (``/proc/self/task``), as a share of one core.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from controller.referee import Mode
from controller.rules import Rules
from controller.service.demo import SimulatedBoard
from controller.service.flow import DiceEntered

_TICK = os.sysconf("SC_CLK_TCK")


def _cpu_s(tid: int | None = None) -> float:
    path = f"/proc/self/task/{tid}/stat" if tid else "/proc/self/stat"
    fields = Path(path).read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / _TICK


def _rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def _threads_cpu() -> dict[str, float]:
    """CPU seconds per kind of thread: the loop, the worker threads (camera frames, journal
    commits), the simulated board's firmware, the rest (gpiozero's mock pins)."""
    import threading

    names = {thread.native_id: thread.name for thread in threading.enumerate()}
    kinds: dict[str, float] = {}
    for tid in os.listdir("/proc/self/task"):
        name = names.get(int(tid), "other")
        kind = (
            "loop" if name == "MainThread"
            else "workers" if name.startswith("asyncio_")
            else "simulator" if name == "board-simulator"
            else "other"
        )  # fmt: skip
        kinds[kind] = kinds.get(kind, 0.0) + _cpu_s(int(tid))
    return kinds


def _service_cpu(table: SimulatedBoard) -> float:
    thread = table.sim._thread  # the firmware's thread: the simulated board, not the service
    tid = thread.native_id if thread is not None else None
    return _cpu_s() - (_cpu_s(tid) if tid else 0.0)


async def _latency(table: SimulatedBoard, changes: int, rng: random.Random) -> list[float]:
    latch = table.factory.pin(table.gpio.pins.shift_latch)
    board = table.sim.board
    table.service.feed(DiceEntered((3, 1)))  # opening roll: player 0 plays 3-1 from the start
    await _until(lambda: table.service.status().phase == "moving")
    await asyncio.sleep(0.2)
    samples: list[float] = []
    for index in range(changes):
        latch.clear_states()
        base = time.monotonic()
        edges = 0
        start = time.monotonic()
        if index % 2 == 0:
            board.lift(7)  # a checker of point 8 in hand: its destinations light
        else:
            board.place(7, 0)  # put back: dark again
        deadline = start + 2.0
        while time.monotonic() < deadline:
            states = list(latch.states)
            rises = [i for i, s in enumerate(states) if i and s.state and not states[i - 1].state]
            if rises:
                edges = rises[0]
                break
            await asyncio.sleep(0.0005)
        if not edges:
            continue
        at = base + sum(state.timestamp for state in states[1 : edges + 1])
        samples.append((at - start - table.settle_s) * 1000)
        await asyncio.sleep(rng.uniform(0.03, 0.06))
    return samples


async def _until(predicate: Any, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise TimeoutError("the service did not get there")
        await asyncio.sleep(0.005)


async def _run(changes: int, games: int) -> None:
    rng = random.Random(1)
    with tempfile.TemporaryDirectory() as folder:
        journal = Path(folder) / "latency.sqlite3"
        async with SimulatedBoard(journal, seed=1, mode=Mode.LEARNER) as table:
            await asyncio.sleep(1.0)
            cpu, wall, threads = _service_cpu(table), time.monotonic(), _threads_cpu()
            await asyncio.sleep(5.0)
            seconds = time.monotonic() - wall
            idle = (_service_cpu(table) - cpu) / seconds
            after = _threads_cpu()
            shares = {
                kind: (after.get(kind, 0.0) - threads.get(kind, 0.0)) / seconds * 100
                for kind in after
            }
            idle_rss = _rss_mb()
            samples = await _latency(table, changes, rng)
        samples.sort()
        p99 = samples[min(len(samples) - 1, int(len(samples) * 0.99))]
        print(
            f"board change -> LED latch, minus settle ({table.settle_s * 1000:.0f} ms), "
            f"{len(samples)} changes: median {statistics.median(samples):.1f} ms, "
            f"p99 {p99:.1f} ms, max {samples[-1]:.1f} ms (target p99 < 20 ms)"
        )
        print(
            f"idle: CPU {idle * 100:.1f}% of a core (the loop {shares.get('loop', 0):.1f}%, "
            f"worker threads {shares.get('workers', 0):.1f}% = the camera's frames at "
            f"{1 / table.camera_period_s:.0f} fps, other {shares.get('other', 0):.1f}%; the "
            f"simulated board's firmware {shares.get('simulator', 0):.1f}% not counted), "
            f"RSS {idle_rss:.0f} MB with the simulators (target < 150 MB)"
        )
        journal = Path(folder) / "games.sqlite3"
        async with SimulatedBoard(journal, seed=2, rules=Rules(match_length=25)) as table:
            driver = table.driver(random.Random(2))
            cpu, wall = _service_cpu(table), time.monotonic()
            await driver.play(games)
            seconds = time.monotonic() - wall
            busy = (_service_cpu(table) - cpu) / seconds
            counts = driver.counts
        print(
            f"busy ({counts.games} games, {counts.turns} turns in {seconds:.0f} s, "
            f"{counts.games / seconds * 60:.1f} games/min, {counts.illegal} illegal plays, "
            f"{counts.cocked} cocked rolls): CPU {busy * 100:.0f}% of a core with the players "
            f"and camera, RSS {_rss_mb():.0f} MB"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--changes", type=int, default=200)
    parser.add_argument("--games", type=int, default=3)
    args, _ = parser.parse_known_args()
    asyncio.run(_run(args.changes, args.games))


if __name__ == "__main__":
    main()
