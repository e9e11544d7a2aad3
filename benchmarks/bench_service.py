"""Board service: latency from a checker lifted on the simulated board to the LED pins, CPU
and memory idle.

``python -m benchmarks service [--changes N] [--idle-s S]``. The whole service
runs as in ``tabula demo``: the board simulator's firmware on a pty, the real bridge, the
referee in learner mode (a lifted checker lights its destinations), the shift-register
LEDs on gpiozero's MockFactory. Latency (wall time) is from the simulator's ``lift`` or
``place`` call to the latch pin's rising edge that shows the new scene (MockPin's own time
stamps), minus the link's settle time; target: p99 under 20 ms. Every change is counted: one
whose LEDs did not change within the bound is a miss, counted at the bound. Reference,
change by change in turns: a bare link on its own simulator with the same firmware
settings, a move until its stable observation, minus the same settle time; the ratio is
what the referee and the LEDs add. CPU is the process's minus the simulator's firmware
thread (``/proc/self/task``), as a share of one core; RSS target: under 150 MB. Once
settled, the start-up is frozen out of the garbage collector's full passes, as ``tabula
run`` does once ready; after the play, a full pass (wall time: the event loop stands still)
is timed beside the same pass with nothing frozen. The service busy, playing games, is the
``games`` benchmark.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import random
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

from benchmarks.bench_serial import LinkLatency
from benchmarks.measure import Row, count, duration, latency_rows, timed_row
from controller.referee import DiceEntered, Mode
from controller.service.memory import freeze_start_up
from controller.simulated.demo import FAST_FIRMWARE, SimulatedBoard

SMALL = ("--changes", "4", "--idle-s", "0.5")

BOUND_S = 2.0
"""How long a change may take to reach the LEDs before it counts as a miss."""

_TICK = os.sysconf("SC_CLK_TCK")


def add_options(parser: argparse.ArgumentParser) -> None:
    """The benchmark's options."""
    parser.add_argument("--changes", type=count, default=200, help="board changes timed")
    parser.add_argument("--idle-s", type=duration, default=5.0, help="seconds measured idle")


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


async def _until(done: Callable[[], bool], bound_s: float = BOUND_S) -> bool:
    """Poll ``done()`` until it holds (True) or ``bound_s`` passed (False)."""
    deadline = time.monotonic() + bound_s
    while not done():
        if time.monotonic() > deadline:
            return False
        await asyncio.sleep(0.0005)
    return True


async def change_latency(table: SimulatedBoard, lift: bool) -> float | None:
    """Lift (or put back) a checker of point 8; seconds until the LED latch showed the new
    scene, minus the settle time; None if the LEDs did not change within the bound."""
    latch = table.factory.pin(table.gpio.pins.shift_latch)
    leds = table.service.leds
    assert leds is not None
    before = leds.scene
    latch.clear_states()  # its time stamps count from here
    if lift:
        table.sim.board.lift(7)  # a checker of point 8 in hand: its destinations light
    else:
        table.sim.board.place(7, 0)  # put back: dark again

    def rises() -> list[int]:
        states = latch.states
        return [i for i in range(1, len(states)) if states[i].state and not states[i - 1].state]

    if not await _until(lambda: leds.scene != before and bool(rises())):
        return None
    states = list(latch.states)
    shown: float = sum(state.timestamp for state in states[1 : rises()[-1] + 1])
    return shown - table.settle_s


async def latency(table: SimulatedBoard, changes: int, rng: random.Random) -> list[Row]:
    """Median and p99 of ``changes`` lifts and puts back, beside a bare link's moves.

    Raises:
        TimeoutError: if the service does not start the turn of the opening roll.
    """
    table.service.feed(DiceEntered((3, 1)))  # opening roll: player 0 plays 3-1 from the start
    if not await _until(lambda: table.service.status().phase == "moving", 10.0):
        raise TimeoutError(f"the service did not start the turn: {table.service.status()!r}")
    samples: list[float] = []
    bare: list[float] = []
    misses = 0
    async with LinkLatency(settings=FAST_FIRMWARE, settle_s=table.settle_s,
                           period_s=0.001) as link:  # fmt: skip
        await link.move(BOUND_S)  # a warm-up
        for index in range(changes):
            sample = await change_latency(table, lift=index % 2 == 0)
            misses += sample is None
            samples.append(BOUND_S if sample is None else sample)
            await asyncio.sleep(rng.uniform(0.03, 0.06))
            reference = await link.move(BOUND_S)
            bare.append(BOUND_S if reference is None else reference[0])
    return latency_rows(
        "board change -> LED latch, minus settle", samples, bare, misses=misses,
        reference_name="a bare link on its own simulator (same firmware settings): a move "
        "until its stable observation, minus settle",
    )  # fmt: skip


def _full_collection(frozen: int, repeats: int = 5) -> Row:
    """The garbage collector's full pass in the service after the latency's play, with the
    start-up frozen (:func:`~controller.service.memory.freeze_start_up`, ``frozen``
    objects) beside the same pass with nothing frozen: wall time, during which the event
    loop stands still (the best of ``repeats`` each)."""

    def one_pass() -> float:
        start = time.perf_counter()
        gc.collect()
        return time.perf_counter() - start

    gc.collect()  # the play's garbage, freed before either is timed
    kept_out = min(one_pass() for _ in range(repeats))
    gc.unfreeze()
    walked = min(one_pass() for _ in range(repeats))
    return timed_row(
        "full garbage collection after the play, start-up frozen", kept_out, walked,
        unit="ms", clock="wall", reference_name=f"the same pass with nothing frozen (the "
        f"{frozen:,} objects of start-up walked too)",
    )  # fmt: skip


async def _run(changes: int, idle_s: float) -> list[Row]:
    rng = random.Random(1)
    with tempfile.TemporaryDirectory() as folder:
        journal = Path(folder) / "latency.sqlite3"
        async with SimulatedBoard(journal, seed=1, mode=Mode.LEARNER) as table:
            await asyncio.sleep(1.0)  # the service settles in (first camera frames, LEDs)
            frozen = freeze_start_up()  # as `tabula run` does once ready
            cpu, wall, threads = _service_cpu(table), time.monotonic(), _threads_cpu()
            await asyncio.sleep(idle_s)
            seconds = time.monotonic() - wall
            idle = (_service_cpu(table) - cpu) / seconds
            after = _threads_cpu()
            shares = {
                kind: (after.get(kind, 0.0) - threads.get(kind, 0.0)) / seconds * 100
                for kind in after
            }
            idle_rss = _rss_mb()
            rows = await latency(table, changes, rng)
            rows.append(_full_collection(frozen))
        print(
            f"  idle: the loop {shares.get('loop', 0):.1f}% of a core, worker threads "
            f"{shares.get('workers', 0):.1f}% = the camera's frames at "
            f"{1 / table.camera_period_s:.0f} fps, other {shares.get('other', 0):.1f}%; the "
            f"simulated board's firmware {shares.get('simulator', 0):.1f}% not counted"
        )
    return [
        *rows,
        Row("idle CPU, share of one core (the camera at its frame rate)", idle * 100, "%",
            None, "", reason="a share of a core, judged by its target: no other program "
            "idles the same way", clock=None),
        Row("idle RSS with the simulators (target < 150 MB)", idle_rss, "MB", None, "",
            reason="memory, judged by its target", clock=None),
    ]  # fmt: skip


def run(options: argparse.Namespace) -> list[Row]:
    """Measure and return the rows."""
    return asyncio.run(_run(options.changes, options.idle_s))
