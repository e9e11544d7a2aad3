"""The referee's cost per roll and per observation, over the golden cases.

What the service pays: a :class:`Judge` built once per roll, then a verdict for each
stable observation — a legal board (a dictionary look-up), a checker in hand (a scan of
the roll's positions) and an illegal board (the scan plus the diagnosis). The budget is
the LED latency target of issue 6 (20 ms p99 from a board change to the pins).
"""

from __future__ import annotations

import json
import random
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from controller.referee import Judge, cells_from_board, location_of
from controller.rules import Board, legal_results

GOLDEN = Path(__file__).parent.parent / "tests" / "data" / "backgammon-golden" / "cases.jsonl"
CASES = 1000
T = TypeVar("T")


def _timed(function: Callable[..., T], *args: object) -> tuple[float, T]:
    """Milliseconds that ``function(*args)`` took, and its result."""
    start = time.perf_counter()
    result = function(*args)
    return (time.perf_counter() - start) * 1000, result


def _report(name: str, samples: list[float]) -> None:
    samples.sort()
    p99 = samples[int(len(samples) * 0.99)]
    print(
        f"{name:>22}: median {statistics.median(samples):6.2f} ms, p99 {p99:6.2f} ms, "
        f"max {samples[-1]:6.2f} ms over {len(samples)}"
    )


def _illegal(rng: random.Random, result: Board, player: int, results: frozenset[Board]) -> Board:
    """``result`` with one of the mover's checkers moved to a point it may not reach."""
    sign = 1 if player == 0 else -1
    for _ in range(20):
        board = list(result)
        mine = [index for index in range(26) if board[index] * sign > 0]
        free = [index for index in range(1, 25) if board[index] * sign >= 0]
        if not mine:
            break
        board[rng.choice(mine)] -= sign
        board[rng.choice(free)] += sign
        if tuple(board) not in results:
            return tuple(board)
    return result


def main() -> None:
    rng = random.Random(6)
    lines = GOLDEN.open().read().splitlines()
    cases = [json.loads(line) for line in rng.sample(lines, CASES)]
    build: list[float] = []
    legal: list[float] = []
    in_hand: list[float] = []
    illegal: list[float] = []
    for case in cases:
        board, player, dice = tuple(case["board"]), case["player"], tuple(case["dice"])
        took, referee = _timed(Judge, board, player, dice)
        build.append(took)
        results = legal_results(board, player, dice)
        result = rng.choice(sorted(results))
        cells = cells_from_board(result)
        legal.append(_timed(referee.verdict, cells)[0])
        lifted = list(cells_from_board(board))
        sources = [
            point
            for point in range(1, 26)
            if (cell := lifted[location_of(player, point)]) is not None and cell[player] > 0
        ]
        if sources:
            location = location_of(player, rng.choice(sources))
            count = lifted[location]
            assert count is not None
            lifted[location] = (count[0] - (player == 0), count[1] - (player == 1))
            in_hand.append(_timed(referee.verdict, tuple(lifted))[0])
        wrong = cells_from_board(_illegal(rng, result, player, results))
        illegal.append(_timed(referee.verdict, wrong)[0])
    print(f"{CASES} golden cases (rolls), one of each observation per roll")
    _report("Judge (per roll)", build)
    _report("verdict, legal board", legal)
    _report("verdict, in hand", in_hand)
    _report("verdict, illegal", illegal)


if __name__ == "__main__":
    main()
