"""The board's 28 physical locations, and how they map to the 26-integer layout.

Why one module: the sensor board reports counts per physical location, the referee names
locations in its verdicts and the LEDs light them; all of them must agree on which index
is which. The firmware keeps its own copy of the numbers it needs (it runs on MicroPython),
checked equal to these by ``tests/hardware/test_geometry.py``.

Locations: 0..23 are points 1..24 of the layout (player 0's numbering), 24 player 0's bar,
25 player 1's bar, 26 player 0's tray (borne off), 27 player 1's tray. A cell is
``(count of player 0, count of player 1)``, colours A and B, or ``None`` when the sensors
could not read it.

The layout is that of an XGID (``shared/data/backgammon-golden/README.md``):
``board[1..24]`` the points, positive for player 0, negative for player 1, ``board[25]``
player 0's bar, ``board[0]`` player 1's bar stored negative, borne-off checkers implied.
The trays are implied in the layout but observed physically, so their counts check the
totals.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, TypeAlias

from hardware.board.errors import LayoutError

__all__ = [
    "BARS",
    "CHECKERS",
    "LOCATIONS",
    "POINTS",
    "TRAYS",
    "Cell",
    "Cells",
    "Location",
    "board_from_cells",
    "cells_from_board",
    "location_name",
]

Cell: TypeAlias = tuple[int, int] | None
"""A location's content: (player 0's checkers, player 1's checkers), or None if unknown."""

Cells: TypeAlias = tuple[Cell, ...]
"""The 28 cells of one observation."""

Location: TypeAlias = int
"""A physical location, 0..27 (see the module docstring)."""

LOCATIONS: Final = 28
POINTS: Final = 24
"""Locations 0..23 are the points."""
BARS: Final = (24, 25)
"""The bar location of player 0 and of player 1."""
TRAYS: Final = (26, 27)
"""The tray location (borne-off checkers) of player 0 and of player 1."""
CHECKERS: Final = 15
"""Checkers a side."""


def location_name(location: Location) -> str:
    """A location as a message names it: ``point 7``, ``bar of player 1``, ``tray of player 0``.

    Raises:
        LayoutError: if ``location`` is not 0..27.

    >>> location_name(6), location_name(25)
    ('point 7', 'bar of player 1')
    """
    if 0 <= location < POINTS:
        return f"point {location + 1}"
    if location in BARS:
        return f"bar of player {BARS.index(location)}"
    if location in TRAYS:
        return f"tray of player {TRAYS.index(location)}"
    raise LayoutError(f"location {location!r}: expected 0..27")


def cells_from_board(board: Sequence[int]) -> Cells:
    """The 28 cells of a position in the 26-integer layout, borne-off checkers in the trays.

    Raises:
        LayoutError: if the board is not 26 integers with bars of the right sign and at
            most 15 checkers a side.

    >>> cells = cells_from_board([0, -2] + [0] * 22 + [2, 0])
    >>> cells[0], cells[23], cells[26], cells[27]
    ((0, 2), (2, 0), (13, 0), (0, 13))
    """
    if len(board) != 26 or not all(isinstance(v, int) for v in board):
        raise LayoutError(f"board {list(board)!r}: expected 26 integers")
    if board[0] > 0 or board[25] < 0:
        raise LayoutError(
            f"board {list(board)!r}: board[0] (player 1's bar) must be <= 0 "
            "and board[25] (player 0's bar) >= 0"
        )
    cells = [(v, 0) if v >= 0 else (0, -v) for v in board[1:25]]
    cells += [(board[25], 0), (0, -board[0])]
    total_a = sum(a for a, _ in cells)
    total_b = sum(b for _, b in cells)
    if total_a > CHECKERS or total_b > CHECKERS:
        raise LayoutError(
            f"board {list(board)!r}: {total_a} checkers for player 0 and {total_b} "
            f"for player 1, at most {CHECKERS} each"
        )
    cells += [(CHECKERS - total_a, 0), (0, CHECKERS - total_b)]
    return tuple(cells)


def board_from_cells(cells: Sequence[Cell]) -> tuple[int, ...]:
    """The 26-integer layout of 28 cells (unknown cells count as empty).

    A point holding both colours (a hit in progress) gets A minus B. Checkers on either
    half of the bar count for their colour's bar, as the bar is shared in play.

    Raises:
        LayoutError: if there are not 28 cells.
    """
    if len(cells) != LOCATIONS:
        raise LayoutError(f"{len(cells)} cells: expected {LOCATIONS}")
    board = [0] * 26
    for index in range(POINTS):
        cell = cells[index]
        if cell is not None:
            board[index + 1] = cell[0] - cell[1]
    for cell in (cells[BARS[0]], cells[BARS[1]]):
        if cell is not None:
            board[25] += cell[0]
            board[0] -= cell[1]
    return tuple(board)
