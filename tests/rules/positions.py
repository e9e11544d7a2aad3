"""Position generators shared by the rules tests: random games, bear-offs, bar fights."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from controller.rules.board import START, Board, flip
from controller.rules.plays import legal_results

GOLDEN = Path(__file__).parent.parent / "data" / "backgammon-golden" / "cases.jsonl"

Case = tuple[Board, int, tuple[int, int]]


def golden_cases() -> list[dict[str, Any]]:
    """The 5,000 golden cases, each a dict as in the file."""
    with GOLDEN.open() as lines:
        return [json.loads(line) for line in lines]


def roll(rng: random.Random) -> tuple[int, int]:
    return rng.randint(1, 6), rng.randint(1, 6)


def playout_cases(rng: random.Random, games: int) -> Iterator[Case]:
    """Every turn of ``games`` random legal games from the start."""
    for _ in range(games):
        board, player = START, rng.randint(0, 1)
        while True:
            dice = roll(rng)
            yield board, player, dice
            board = rng.choice(sorted(legal_results(board, player, dice)))
            if min(n for n in board if n) >= 0 or max(n for n in board if n) <= 0:
                break
            player = 1 - player


def _spread(rng: random.Random, checkers: int, points: list[int]) -> list[int]:
    counts = [0] * 26
    for _ in range(checkers):
        counts[rng.choice(points)] += 1
    return counts


def bearoff_case(rng: random.Random) -> Case:
    """Both sides bearing off, no contact; player 0 to move, seen from either side."""
    mine = _spread(rng, rng.randint(1, 15), [1, 2, 3, 4, 5, 6])
    theirs = _spread(rng, rng.randint(1, 15), [19, 20, 21, 22, 23, 24])
    board = tuple(m - t for m, t in zip(mine, theirs, strict=True))
    return _either_side(rng, board)


def contact_bearoff_case(rng: random.Random) -> Case:
    """The mover bears off while opposing checkers stand in its home or on the bar."""
    mine = _spread(rng, rng.randint(3, 15), [1, 2, 3, 4, 5, 6])
    board = list(mine)
    opponents = rng.randint(1, 4)
    for _ in range(opponents):
        point = rng.choice([0, 1, 2, 3, 4, 5, 6])
        if point == 0 or board[point] <= 0:
            board[point] -= 1
    rest = 15 - (-sum(n for n in board if n < 0))
    for point in rng.sample(range(7, 25), 4):
        take = rng.randint(0, rest)
        board[point] -= take
        rest -= take
    return _either_side(rng, tuple(board))


def bar_case(rng: random.Random) -> Case:
    """One to four checkers on the bar against a home board of zero to six points."""
    board = [0] * 26
    board[25] = rng.randint(1, 4)
    made = rng.sample(range(19, 25), rng.randint(0, 6))
    for point in made:
        board[point] = -2
    blots = [p for p in range(19, 25) if p not in made]
    for point in rng.sample(blots, min(len(blots), rng.randint(0, 2))):
        board[point] = -1
    left = 15 + sum(n for n in board if n < 0)
    while left > 0:
        point = rng.randint(1, 18)
        board[point] -= 1
        left -= 1
    mine = 15 - board[25]
    while mine > 0:
        point = rng.randint(1, 24)
        if board[point] >= 0:
            board[point] += 1
            mine -= 1
    return _either_side(rng, tuple(board))


def _either_side(rng: random.Random, board: Board) -> Case:
    if rng.random() < 0.5:
        return board, 0, roll(rng)
    return flip(board), 1, roll(rng)
