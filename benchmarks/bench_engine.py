"""Hint latency of both GNU Backgammon engines, as the service would see it.

Target (issue 8): under 500 ms for a 0-ply hint; a deeper level is measured too
(``TABULA_BENCH_PLY``, default 2, or ``python -m benchmarks.bench_engine 3``). Each
figure is the wall time of one ``await engine.hint(...)`` from the event loop, child
process round trip included, over the positions of a seeded simulated game.
"""

from __future__ import annotations

import asyncio
import os
import random
import statistics
import sys
import time

from controller.engine import ENGINE_KINDS, Engine, make_engine
from controller.rules import START, Rules, Xgid
from controller.selfplay import GameStarted, Played, SimulatedPlayer, play_match

TARGET_MS = 500.0
POSITIONS = 40
DEEP_POSITIONS = 15


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


async def _main(deep: int) -> None:
    for kind in ENGINE_KINDS:
        engine = make_engine(kind, budget=120.0)
        print(f"{engine.name}:", flush=True)
        try:
            await _bench(engine, deep)
        finally:
            await engine.close()


def main(ply: int | None = None) -> None:
    deep = ply if ply is not None else int(os.environ.get("TABULA_BENCH_PLY", "2"))
    asyncio.run(_main(deep))


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else None)
