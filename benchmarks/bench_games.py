"""Simulated games end to end, many of them: the issue's 200-game proof, with figures.

Run ``python -m benchmarks.bench_games [--games 200] [--boards 2]``. Each board is a whole
service on its own simulators (pty board, rendered rolls, MockFactory pins) with its own
simulated players, all in one asyncio loop; every match's journal is compared with what
its players did (:meth:`controller.service.demo.DemoResult.problems`): every roll, play,
illegal play accepted, cube action and result, every illegal play flagged and no legal one.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path

from controller.rules import Rules
from controller.service.demo import DemoResult, run_simulated


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
            f"board {board} match {match}: {result.counts.games} games, "
            f"{result.counts.turns} turns, {result.counts.illegal} illegal, "
            f"journal {problems or '= players'}",
            flush=True,
        )
    return results


async def _run(games: int, boards: int) -> None:
    start = time.monotonic()
    with tempfile.TemporaryDirectory() as folder:
        share = [games // boards + (index < games % boards) for index in range(boards)]
        batches = await asyncio.gather(
            *(_board(Path(folder), index, count) for index, count in enumerate(share))
        )
        results = [result for batch in batches for result in batch]
        problems = [problem for result in results for problem in result.problems()]
    seconds = time.monotonic() - start
    total = {
        name: sum(getattr(result.counts, name) for result in results)
        for name in ("games", "turns", "illegal", "accepted", "demanded", "cocked", "doubles",
                     "drops", "hits", "bar_entries", "bear_offs", "misread")
    }  # fmt: skip
    print(
        f"{total['games']} games on {boards} simulated boards in {seconds:.0f} s "
        f"({total['games'] / seconds * 60:.1f} games/min): {total['turns']} turns, "
        f"{total['hits']} hits, {total['bar_entries']} bar entries, {total['bear_offs']} "
        f"bear-offs, {total['doubles']} doubles ({total['drops']} dropped), "
        f"{total['illegal']} illegal plays ({total['accepted']} accepted, {total['demanded']} "
        f"demanded), {total['cocked']} cocked rolls rerolled, {total['misread']} flat rolls "
        f"called irregular by the camera (rolled again)"
    )
    print(f"journals equal to the players' games: {'all' if not problems else problems[:5]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--boards", type=int, default=2)
    args, _ = parser.parse_known_args()
    asyncio.run(_run(args.games, args.boards))


if __name__ == "__main__":
    main()
