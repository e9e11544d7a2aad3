"""Hint latency of both GNU Backgammon engines, as the service would see it.

Target (issue 8): under 500 ms for a 0-ply hint; a deeper level is measured too
(``--ply``, default 2). Each figure is the wall time of one ``await engine.hint(...)`` from
the event loop, child process round trip included, over the positions of seeded simulated
games. Each position is asked once: GNU Backgammon keeps its evaluations in a cache, so a
repeat would time the cache (the minimum of repeats holds for work without memory, as in
the other benchmarks). Reference, in turns with it, position by position: the raw
engine call, GNU Backgammon's ``findbestmoves`` at the same depth through its bindings in
this process (what both engines wrap, without the child, the probabilities and the
matching to Tabula's plays); a cube decision's is the raw cubeful evaluation of the same
position. The bindings install on x86-64 only: elsewhere the program's rows say so and
have no ratio. Then the hint through the running service: the Hint button's pin to the
LEDs lit, beside the same engine's ``hint`` of the same position (median, p99): the same
position each round, from the cache of both, so that the ratio is the service's own part.
"""

from __future__ import annotations

import argparse
import asyncio
import ctypes
import random
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from benchmarks.bench_rules import gnubg_bindings
from benchmarks.measure import Interleaved, Row, count, latency_rows, timed_row
from controller.engine import ENGINE_KINDS, Engine, configured_engine
from controller.rules import START, Rules, Xgid
from controller.rules.position_id import gnubg_board
from controller.simulated.players import GameStarted, Played, SimulatedPlayer, play_match

SMALL = ("--engines", "cli", "--positions", "2", "--deep-positions", "1", "--ply", "1",
         "--rounds", "2")  # fmt: skip

BUDGET_S = 120.0
"""How long one answer of an engine may take (a deep hint on a busy machine)."""


def add_options(parser: argparse.ArgumentParser) -> None:
    """The benchmark's options."""
    parser.add_argument("--engines", nargs="+", choices=ENGINE_KINDS, default=ENGINE_KINDS,
                        help="the engines measured")  # fmt: skip
    parser.add_argument("--positions", type=count, default=40, help="positions of 0-ply hints")
    parser.add_argument("--deep-positions", type=count, default=15,
                        help="positions of deeper hints")  # fmt: skip
    parser.add_argument("--ply", type=count, default=2, help="the deeper level")
    parser.add_argument("--rounds", type=count, default=40, help="hints through the service")


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


class RawEngine:
    """GNU Backgammon's own calls through its bindings, in this process: the reference.

    Each starts from an empty evaluation cache, as the engine does for a new position.
    """

    def __init__(self, gnubg: Any) -> None:
        self._gnubg = gnubg
        self._cube = gnubg.cubeinfo(1, -1, 0, 0, (0, 0), 0, 0)  # money, centred, as Xgid()
        self._cube["jacoby"] = 0
        self.forget = ctypes.CDLL(gnubg._gnubg.__file__).EvalCacheFlush

    def hint(self, position: Xgid, dice: tuple[int, int], ply: int) -> object:
        context = self._gnubg.evalcontext(1, ply, 1, 1, 0.0)
        board = gnubg_board(position.board, position.turn)
        return self._gnubg.findbestmoves(board, self._cube, context, dice)

    def cube(self, position: Xgid, ply: int) -> object:
        context = self._gnubg.evalcontext(1, ply, 1, 1, 0.0)
        return self._gnubg.evaluate(gnubg_board(position.board, position.turn), self._cube,
                                    context)  # fmt: skip


async def _per_position(
    items: list[Any],
    subject: Callable[[Any], Awaitable[object]],
    reference: Callable[[Any], object],
    raw: RawEngine | None,
) -> tuple[list[float], list[float]]:
    """Each item's wall time of ``await subject(item)`` and of ``reference(item)``, in turns."""
    ours: list[float] = []
    theirs: list[float] = []
    for item in items:
        pair = Interleaved("wall")
        with pair.subject():
            await subject(item)
        if raw is not None:
            raw.forget()
        with pair.reference():
            reference(item)
        ours.append(pair.best[0])
        theirs.append(pair.best[1])
    return ours, theirs


async def _engine_rows(
    engine: Engine, raw: RawEngine | None, reason: str | None, options: argparse.Namespace
) -> list[Row]:
    start = time.perf_counter()
    await engine.hint(Xgid(), (3, 1))
    print(f"  {engine.name}: started and first hint in {time.perf_counter() - start:.2f} s")
    name = "GNU Backgammon's findbestmoves, same depth, through its bindings in this process"
    rows = []
    for ply, number in ((0, options.positions), (options.ply, options.deep_positions)):

        async def hint(item: tuple[Xgid, tuple[int, int]], ply: int = ply) -> object:
            return await engine.hint(item[0], item[1], ply=ply)

        def raw_hint(item: tuple[Xgid, tuple[int, int]], ply: int = ply) -> object:
            return None if raw is None else raw.hint(item[0], item[1], ply)

        ours, theirs = await _per_position(_positions(number, seed=ply + 1), hint, raw_hint, raw)
        worst = max(range(number), key=ours.__getitem__)
        for label, figure, reference in (
            (f"mean of {number} positions", statistics.fmean(ours), statistics.fmean(theirs)),
            ("worst position", ours[worst], theirs[worst]),
        ):
            rows.append(timed_row(f"{engine.name}: hint {ply}-ply, {label}", figure,
                                  reference if raw else None, unit="ms", clock="wall",
                                  reference_name=name, reason=reason))  # fmt: skip

    async def cube(item: tuple[Xgid, tuple[int, int]]) -> object:
        return await engine.cube(item[0], ply=0)

    def raw_cube(item: tuple[Xgid, tuple[int, int]]) -> object:
        return None if raw is None else raw.cube(item[0], 0)

    positions = _positions(options.positions, seed=3)  # centred: either player may double
    ours, theirs = await _per_position(positions, cube, raw_cube, raw)
    rows.append(timed_row(
        f"{engine.name}: cube decision 0-ply, mean of {len(positions)} positions",
        statistics.fmean(ours), statistics.fmean(theirs) if raw else None, unit="ms",
        clock="wall", reason=reason, reference_name="GNU Backgammon's cubeful evaluation of "
        "the same position, 0-ply, through its bindings in this process",
    ))  # fmt: skip
    return rows


async def _through_service(engine: Engine, rounds: int) -> list[Row]:
    """Hint latency through the running service on the simulated board.

    From the Hint button's pin (gpiozero's MockFactory) to the LEDs showing the first
    checker of the best play (the LED back-end's scene), beside the same engine's
    ``hint`` of the same position, in turns.
    """
    from controller.match.learner import SOURCE_LAMP
    from controller.referee import BoardSeen, DiceEntered, Mode, cells_from_board
    from controller.simulated.demo import SimulatedBoard
    from controller.simulated.table import button_presser

    through: list[float] = []
    raw: list[float] = []
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
            await service.apply(DiceEntered((3, 1)))
            press = button_presser(table.buttons, table.factory, gap_s=0.0)
            for _ in range(rounds):
                service.teacher.guide = None  # the LEDs back to the plain learner display
                service.feed(BoardSeen(cells))
                while SOURCE_LAMP in leds.scene.lamps:
                    await asyncio.sleep(0.001)
                await asyncio.sleep(0.02)  # past the button's debounce
                start = time.perf_counter()
                press("hint")
                while SOURCE_LAMP not in leds.scene.lamps:
                    await asyncio.sleep(0.0005)
                through.append(time.perf_counter() - start)
                start = time.perf_counter()
                await engine.hint(Xgid(dice=(3, 1)), (3, 1))
                raw.append(time.perf_counter() - start)
    return latency_rows(
        f"{engine.name}: hint through the service (button -> LEDs), 0-ply", through, raw,
        reference_name="the same engine's hint of the same position, called directly",
    )  # fmt: skip


async def _run(options: argparse.Namespace) -> list[Row]:
    gnubg, reason = gnubg_bindings()
    raw = None if gnubg is None else RawEngine(gnubg)
    rows: list[Row] = []
    for kind in options.engines:
        choice = configured_engine(kind, budget=BUDGET_S)
        engine = choice.engine
        if engine is None:
            print(f"  {kind}: {choice.message}")
            continue
        try:
            rows += await _engine_rows(engine, raw, reason, options)
            rows += await _through_service(engine, options.rounds)
        finally:
            await engine.close()
    return rows


def run(options: argparse.Namespace) -> list[Row]:
    """Measure and return the rows."""
    return asyncio.run(_run(options))
