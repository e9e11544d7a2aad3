"""Helpers of the referee's tests: boards by hand, and a hand that lifts and puts checkers."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

from controller.referee import Cell, Cells, Judge, Kind, Location, cells_from_board
from controller.rules import Board, Move, PlayTree
from tests.rules.test_plays import board_of

__all__ = [
    "OPPONENT_AT_START",
    "PARTIAL_13_8",
    "PLAY_24_13",
    "board_of",
    "cells",
    "ends_complete",
    "lift",
    "lift_for",
    "put",
    "random_steps",
]

OPPONENT_AT_START = {1: 2, 12: 5, 17: 3, 19: 5}
"""Player 1's checkers at the start, in player 0's numbering."""
PLAY_24_13 = board_of({24: 1, 13: 6, 8: 3, 6: 5}, OPPONENT_AT_START)
"""6-5 played 24/13 from the start by player 0."""
PARTIAL_13_8 = board_of({24: 2, 13: 4, 8: 4, 6: 5}, OPPONENT_AT_START)
"""Only the 5 of a 6-5 played (13/8) from the start by player 0."""


def cells(board: Board) -> Cells:
    return cells_from_board(board)


def _change(observed: Cells, location: int, player: int, delta: int) -> Cells:
    cell = observed[location]
    assert cell is not None
    counts = list(cell)
    counts[player] += delta
    assert counts[player] >= 0, f"no checker of player {player} on location {location}"
    changed: list[Cell] = list(observed)
    changed[location] = (counts[0], counts[1])
    return tuple(changed)


def lift(observed: Cells, location: int, player: int) -> Cells:
    """``observed`` with one checker of ``player`` lifted from ``location``."""
    return _change(observed, location, player, -1)


def put(observed: Cells, location: int, player: int) -> Cells:
    """``observed`` with one checker of ``player`` put down on ``location``."""
    return _change(observed, location, player, +1)


def lift_for(
    referee: Judge,
    current: Board,
    move: Move,
    locate: Callable[[int, int], Location],
    context: str,
) -> Cells:
    """Lift the checker ``move`` plays from ``current``: in hand, its target offered."""
    player = referee.player
    source, target = locate(player, move.source), locate(player, move.destination)
    in_hand = lift(cells_from_board(current), source, player)
    verdict = referee.verdict(in_hand)
    assert verdict.kind is Kind.IN_HAND, f"{verdict} lifting {move} {context}"
    reachable = {checker.source for checker in verdict.lifted}
    reachable |= {place for checker in verdict.lifted for place in checker.destinations}
    assert target in reachable, f"{move} not offered by {verdict} {context}"
    return in_hand


def ends_complete(referee: Judge, tree: PlayTree, current: Board, context: str) -> None:
    """The walk ended on ``current``: a complete play, the tree's, final as it stands."""
    verdict = referee.verdict(cells_from_board(current))
    assert verdict.kind is Kind.COMPLETE, f"{verdict} at the end {context}"
    assert verdict.play == tree.play_for(current)
    assert referee.final_verdict(cells_from_board(current)) == verdict


def random_steps(
    tree: PlayTree, board: Board, rng: random.Random
) -> Iterator[tuple[Board, Move, Board]]:
    """A random legal play made one step at a time: (before, move, after) per step.

    It may stop early on a complete play; the last ``after`` (or ``board``) is where it ends.
    """
    current = board
    while True:
        steps = tree.next_steps(current)
        if not steps or (tree.play_for(current) is not None and rng.random() < 0.3):
            return
        move = rng.choice(sorted(steps))
        yield current, move, steps[move]
        current = steps[move]
