"""Hint latency of both GNU Backgammon engines, as the service would see it.

Target (issue 8): under 500 ms for a 0-ply hint; a deeper level is measured too
(``TABULA_BENCH_PLY``, default 2, or ``python -m benchmarks.bench_engine 3``). Each
figure is the wall time of one ``await engine.hint(...)`` from the event loop, child
process round trip included, over the positions of a seeded simulated game. Then the
hint through the running service: the Hint button's pin to the LEDs lit, against a raw
engine call of the same position in the same run (median, p99, ratio).
"""

from __future__ import annotations

import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from controller.engine import ENGINE_KINDS, Engine, EngineKind, make_engine
from controller.rules import START, Rules, Xgid
from controller.selfplay import GameStarted, Played, SimulatedPlayer, play_match

TARGET_MS = 500.0
POSITIONS = 40
DEEP_POSITIONS = 15
SERVICE_ROUNDS = 40


def _positions(count: int, seed: int = 1) -> list[tuple[Xgid, tuple[int, int]]]:
    """The first ``count`` (position, dice) of seeded simulated games."""
    rng = random.Random(seed)
    found: list[tuple[Xgid, tuple[int, int]]] = []
    while len(found) < count:
        board = START
        for event in play_match(Rules(match_length=1), rng, (SimulatedPlayer(rng),) * 2):
            if isinstance(event, GameStarted):
                board = START
            elif isinstance(event, Played):
                found.append((Xgid(board=board, turn=event.player), event.dice))
                board = event.board
    return found[:count]


def _summary(label: str, seconds: list[float], target: float | None = None) -> str:
    ms = sorted(1000 * s for s in seconds)
    p95 = statistics.quantiles(ms, n=20, method="inclusive")[18] if len(ms) > 1 else ms[0]
    verdict = "" if target is None else ("  (target met)" if p95 < target else "  (OVER TARGET)")
    return (
        f"  {label}: median {statistics.median(ms):.1f} ms, p95 {p95:.1f} ms, "
        f"max {ms[-1]:.1f} ms over {len(ms)}{verdict}"
    )


async def _bench(engine: Engine, deep: int) -> None:
    start = time.perf_counter()
    await engine.hint(Xgid(), (3, 1))
    print(f"  start and first hint: {1000 * (time.perf_counter() - start):.0f} ms")
    for ply, count in ((0, POSITIONS), (deep, DEEP_POSITIONS)):
        times = []
        for position, dice in _positions(count):
            start = time.perf_counter()
            await engine.hint(position, dice, ply=ply)
            times.append(time.perf_counter() - start)
        print(_summary(f"hint {ply}-ply", times, TARGET_MS if ply == 0 else None))
    cube_times = []
    for position, _ in _positions(10):  # the cube is centred: either player may double
        start = time.perf_counter()
        await engine.cube(position, ply=0)
        cube_times.append(time.perf_counter() - start)
    print(_summary("cube decision 0-ply", cube_times))


def _p99(ms: list[float]) -> float:
    return statistics.quantiles(ms, n=100, method="inclusive")[98] if len(ms) > 1 else ms[0]


async def _through_service(kind: EngineKind, rounds: int = SERVICE_ROUNDS) -> None:
    """Hint latency through the running service on the simulated board.

    From the Hint button's pin (gpiozero's MockFactory) to the LEDs showing the first
    checker of the best play (the LED back-end's scene), against a raw ``engine.hint``
    of the same position in the same run.
    """
    from controller.referee import Mode, cells_from_board
    from controller.service.demo import SimulatedBoard
    from controller.service.flow import Observed
    from controller.service.learner import SOURCE_LAMP
    from controller.service.simulation import button_presser
    from controller.status import EnterDice

    engine = make_engine(kind, budget=120.0)
    try:
        with tempfile.TemporaryDirectory() as folder:
            async with SimulatedBoard(
                Path(folder) / "bench.sqlite3", mode=Mode.LEARNER, rules=Rules(), engine=engine
            ) as table:
                service, leds = table.service, table.service.leds
                assert leds is not None
                await asyncio.to_thread(table.sim.board.set_board, START)
                cells = cells_from_board(START)
                while service.status().cells != cells:
                    await asyncio.sleep(0.005)
                await service.apply(EnterDice((3, 1)))
                await engine.hint(Xgid(dice=(3, 1)), (3, 1))  # started, as in play
                press = button_presser(table.buttons, table.factory, gap_s=0.0)
                through, raw = [], []
                for _ in range(rounds):
                    service._guide = None  # the LEDs back to the plain learner display
                    service.feed(Observed(cells))
                    while SOURCE_LAMP in leds.scene.lamps:
                        await asyncio.sleep(0.001)
                    await asyncio.sleep(0.02)  # past the button's debounce
                    start = time.perf_counter()
                    press("hint")
                    while SOURCE_LAMP not in leds.scene.lamps:
                        await asyncio.sleep(0.0005)
                    through.append(1000 * (time.perf_counter() - start))
                    start = time.perf_counter()
                    await engine.hint(Xgid(dice=(3, 1)), (3, 1))
                    raw.append(1000 * (time.perf_counter() - start))
    finally:
        await engine.close()
    med_through, med_raw = statistics.median(through), statistics.median(raw)
    print(
        f"  hint through the service (button -> LEDs), 0-ply: median {med_through:.1f} ms, "
        f"p99 {_p99(sorted(through)):.1f} ms over {rounds}; raw engine call: median "
        f"{med_raw:.1f} ms, p99 {_p99(sorted(raw)):.1f} ms; ratio of medians "
        f"{med_through / med_raw:.2f}"
    )


async def _main(deep: int) -> None:
    for kind in ENGINE_KINDS:
        engine = make_engine(kind, budget=120.0)
        print(f"{engine.name}:", flush=True)
        try:
            await _bench(engine, deep)
        finally:
            await engine.close()
        await _through_service(kind)


def main(ply: int | None = None) -> None:
    deep = ply if ply is not None else int(os.environ.get("TABULA_BENCH_PLY", "2"))
    asyncio.run(_main(deep))


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else None)
