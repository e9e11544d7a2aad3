"""Helpers of the referee's tests: boards by hand, and a hand that lifts and puts checkers."""

from __future__ import annotations

from controller.referee import Cell, Cells, cells_from_board
from controller.rules import Board
from tests.rules.test_plays import board_of

__all__ = ["board_of", "cells", "lift", "put"]


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
