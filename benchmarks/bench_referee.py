"""The referee's cost per roll and per observation, over the golden cases.

What the service pays: a :class:`Judge` built once per roll, then a verdict for each
stable observation — a legal board (a dictionary look-up), a checker in hand (a scan of
the roll's positions) and an illegal board (the scan plus the diagnosis). The budget is
the LED latency target of issue 6 (20 ms p99 from a board change to the pins).
"""

from __future__ import annotations

import functools
import json
import random
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from controller.referee import Judge, cells_from_board
from controller.rules import BACKGAMMON, JACQUET, JACQUET_LUDII, Board, Variant, legal_results
from controller.selfplay import JacquetPlayed, play_jacquet_game

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


_Case = tuple[Board, int, tuple[int, int], Variant, "tuple[int, ...] | None", frozenset[Board]]
"""A roll to referee: board, player, dice, variant, numbers handed over, legal results."""


def _measure(rng: random.Random, cases: list[_Case]) -> None:
    build: list[float] = []
    legal: list[float] = []
    in_hand: list[float] = []
    illegal: list[float] = []
    for board, player, dice, variant, numbers, results in cases:
        judge = functools.partial(Judge, variant=variant, numbers=numbers)
        took, referee = _timed(judge, board, player, dice)
        build.append(took)
        result = rng.choice(sorted(results))
        cells = cells_from_board(result)
        legal.append(_timed(referee.verdict, cells)[0])
        lifted = list(cells_from_board(board))
        sources = [
            point
            for point in range(1, 26)
            if (cell := lifted[referee.locate(player, point)]) is not None and cell[player] > 0
        ]
        if sources:
            location = referee.locate(player, rng.choice(sources))
            count = lifted[location]
            assert count is not None
            lifted[location] = (count[0] - (player == 0), count[1] - (player == 1))
            in_hand.append(_timed(referee.verdict, tuple(lifted))[0])
        wrong = cells_from_board(_illegal(rng, result, player, results))
        illegal.append(_timed(referee.verdict, wrong)[0])
    _report("Judge (per roll)", build)
    _report("verdict, legal board", legal)
    _report("verdict, in hand", in_hand)
    _report("verdict, illegal", illegal)


def _jacquet_cases(variant: Variant, games: int) -> list[_Case]:
    """Every play of ``games`` random games of Jacquet, as the referee gets them."""
    cases: list[_Case] = []
    for seed in range(games):
        for item in play_jacquet_game(random.Random(seed), variant):
            if not isinstance(item, JacquetPlayed):
                continue
            turn = item.turn
            numbers = turn.numbers
            # The throw the numbers came from: a single number handed over had a partner.
            partner = numbers[-1] if len(numbers) > 1 else (1 if numbers[0] != 1 else 2)
            dice = (numbers[0], partner)
            part = None if variant.moves_of(dice) == numbers else numbers
            results = frozenset(play.result for play in turn.plays())
            cases.append((turn.board, turn.player, dice, variant, part, results))
    return cases


def main() -> None:
    rng = random.Random(6)
    lines = GOLDEN.open().read().splitlines()
    cases: list[_Case] = []
    for line in rng.sample(lines, CASES):
        case = json.loads(line)
        board, player, dice = tuple(case["board"]), case["player"], tuple(case["dice"])
        results = legal_results(board, player, dice)
        cases.append((board, player, (dice[0], dice[1]), BACKGAMMON, None, results))
    print(f"{CASES} golden cases (rolls), one of each observation per roll")
    _measure(rng, cases)
    for variant in (JACQUET, JACQUET_LUDII):
        jacquet = _jacquet_cases(variant, 5)
        print(f"{variant.name}: {len(jacquet)} plays of 5 random games")
        _measure(rng, jacquet)


if __name__ == "__main__":
    main()
