"""Simulated games end to end, many of them: the issue's 200-game proof, with figures.

``python -m benchmarks games [--games 200] [--boards 2]``. Each board is a whole service
on its own simulators (pty board, rendered rolls, MockFactory pins) with its own simulated
players, all in one asyncio loop; every match's journal is compared with what its players
did (:meth:`controller.simulated.demo.DemoResult.problems`): every roll, play, illegal play
accepted, cube action and result, every illegal play flagged and no legal one. A journal
that differs is a miss. The figure is CPU time per game (every thread: service,
simulators, camera, players): the service busy. Reference: as many games played by
simulated players on the rules engine alone (:func:`controller.simulated.players.play_match`), the
least any game costs; the ratio is what a board, its sensors, camera and LEDs add around
the rules. The peak memory of the process (every board, in a process of their own) is
reported against its target.
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import multiprocessing
import os
import random
import resource
import tempfile
import time
from pathlib import Path

from benchmarks.measure import Row, count, timed_row
from controller.rules import Rules
from controller.simulated.demo import DemoResult, run_simulated
from controller.simulated.players import GameWon, SimulatedPlayer, play_match

SMALL = ("--games", "1", "--boards", "1")


def add_options(parser: argparse.ArgumentParser) -> None:
    """The benchmark's options."""
    parser.add_argument("--games", type=count, default=200, help="games in all")
    parser.add_argument("--boards", type=count, default=2, help="boards playing at once")


def _selfplay_seconds(games: int, seed: int) -> float:
    """CPU seconds of ``games`` 25-point-match games on the rules engine alone."""
    rng = random.Random(seed)
    players = (SimulatedPlayer(random.Random(seed + 1)), SimulatedPlayer(random.Random(seed + 2)))
    start = time.process_time()
    played = 0
    while played < games:
        for event in play_match(Rules(match_length=25), rng, players):
            played += isinstance(event, GameWon)
            if played == games:
                break
    return time.process_time() - start


async def _board(folder: Path, board: int, games: int) -> list[DemoResult]:
    results = []
    played = 0
    match = 0
    while played < games:
        match += 1
        seed = board * 1000 + match
        result = await run_simulated(
            folder / f"board-{board}-match-{match}.sqlite3",
            games=games - played,
            seed=seed,
            rules=Rules(match_length=25),
            illegal_rate=0.1,
            cocked_rate=0.1,
        )
        played += result.counts.games
        results.append(result)
        problems = result.problems()
        print(
            f"  board {board} match {match}: {result.counts.games} games, "
            f"{result.counts.turns} turns, {result.counts.illegal} illegal, "
            f"journal {problems or '= players'}",
            flush=True,
        )
    return results


async def _run(games: int, boards: int) -> list[Row]:
    start, cpu = time.monotonic(), time.process_time()
    with tempfile.TemporaryDirectory() as folder:
        share = [games // boards + (index < games % boards) for index in range(boards)]
        batches = await asyncio.gather(
            *(_board(Path(folder), index, count) for index, count in enumerate(share))
        )
        results = [result for batch in batches for result in batch]
        problems = [problem for result in results for problem in result.problems()]
    seconds, cpu = time.monotonic() - start, time.process_time() - cpu
    total = {
        name: sum(getattr(result.counts, name) for result in results)
        for name in ("games", "turns", "illegal", "accepted", "demanded", "cocked", "doubles",
                     "drops", "hits", "bar_entries", "bear_offs", "misread")
    }  # fmt: skip
    print(
        f"  {total['games']} games on {boards} simulated boards in {seconds:.0f} s "
        f"({total['games'] / seconds * 60:.1f} games/min): {total['turns']} turns, "
        f"{total['hits']} hits, {total['bar_entries']} bar entries, {total['bear_offs']} "
        f"bear-offs, {total['doubles']} doubles ({total['drops']} dropped), "
        f"{total['illegal']} illegal plays ({total['accepted']} accepted, {total['demanded']} "
        f"demanded), {total['cocked']} cocked rolls rerolled, {total['misread']} flat rolls "
        f"called irregular by the camera (rolled again)"
    )
    print(f"  journals equal to the players' games: {'all' if not problems else problems[:5]}")
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    arenas = os.environ.get(_ARENAS)
    setting = f", {_ARENAS}={arenas} as hardware/tabula.service runs it" if arenas else ""
    return [
        timed_row("simulated games on the whole service, per game", cpu,
                  _selfplay_seconds(total["games"], 1), unit="s", per=total["games"],
                  misses=len(problems), reference_name="as many games by simulated players "
                  "on the rules engine alone"),
        Row(f"peak RSS, {boards} boards and their simulators in one process{setting}", peak_mb,
            "MB", None, "", reason="memory, judged by its target (150 MB a board)", clock=None),
    ]  # fmt: skip


_ARENAS = "MALLOC_ARENA_MAX"
"""glibc's limit on its malloc arenas, read once as a process starts."""


def run(options: argparse.Namespace) -> list[Row]:
    """Measure and return the rows, in a process of their own: its peak RSS is the boards'
    alone, not also that of the benchmarks run before in this one (210.9 MB against 206.5
    for one board). Then once more with the service unit's two malloc arenas, for its
    peak RSS."""
    rows = _in_own_process(options.games, options.boards, arenas=None)
    return [*rows, _in_own_process(options.games, options.boards, arenas="2")[-1]]


def _in_own_process(games: int, boards: int, *, arenas: str | None) -> list[Row]:
    """The rows of a child process started with ``MALLOC_ARENA_MAX`` set to ``arenas``
    (unset for None); the child reads it from the environment it starts with."""
    before = os.environ.pop(_ARENAS, None)
    if arenas is not None:
        os.environ[_ARENAS] = arenas
    try:
        context = multiprocessing.get_context("spawn")
        with concurrent.futures.ProcessPoolExecutor(1, mp_context=context) as process:
            return process.submit(_measured, games, boards).result()
    finally:
        os.environ.pop(_ARENAS, None)
        if before is not None:
            os.environ[_ARENAS] = before


def _measured(games: int, boards: int) -> list[Row]:
    return asyncio.run(_run(games, boards))
