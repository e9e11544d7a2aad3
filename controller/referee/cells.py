"""The 28 observed locations of the board and the mover's view of them.

Why here: the sensor board reports per physical location (24 points, two bars, two trays)
how many checkers of each colour it senses, while the rules engine speaks the 26-integer
layout and the mover's numbering. This module is the one place that maps between them,
so that a verdict can name locations the LEDs light.

Location indices (those of ``firmware_bridge``'s ``Observation.cells``): 0..23 are points
1..24 of the layout (player 0's numbering), 24 player 0's bar, 25 player 1's bar, 26 player
0's tray (borne off), 27 player 1's tray. A cell is ``(count of player 0, count of player 1)``
or ``None`` when the sensors could not read it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, TypeAlias

from controller.referee.errors import InvalidObservationError
from controller.rules import BACKGAMMON, CHECKERS, Board, Player, Variant, check_board

__all__ = [
    "BARS",
    "LOCATIONS",
    "TRAYS",
    "Cell",
    "Cells",
    "Location",
    "cells_from_board",
    "check_cells",
    "location_name",
    "location_of",
    "point_of",
]

Cell: TypeAlias = tuple[int, int] | None
"""A location's content: (player 0's checkers, player 1's checkers), or None if unknown."""

Cells: TypeAlias = tuple[Cell, ...]
"""The 28 cells of one observation."""

Location: TypeAlias = int
"""A physical location, 0..27 (see the module docstring)."""

LOCATIONS: Final = 28
BARS: Final = (24, 25)
"""The bar location of player 0 and of player 1."""
TRAYS: Final = (26, 27)
"""The tray location (borne-off checkers) of player 0 and of player 1."""

_BAR_POINT: Final = 25
_OFF_POINT: Final = 0


def location_of(player: Player, point: int, variant: Variant = BACKGAMMON) -> Location:
    """The location of ``point`` in ``player``'s numbering (25 the bar, 0 off the board).

    The numbering follows ``player``'s track under ``variant``: in Jacquet de Versailles
    player 1 runs layout points 12 to 1, then 24 to 13 (``JACQUET.md``).

    >>> location_of(0, 24), location_of(1, 24), location_of(1, 25), location_of(0, 0)
    (23, 0, 25, 26)
    >>> from controller.rules import JACQUET
    >>> location_of(1, 24, JACQUET), location_of(1, 13, JACQUET), location_of(1, 12, JACQUET)
    (11, 0, 23)
    """
    if point == _BAR_POINT:
        return BARS[player]
    if point == _OFF_POINT:
        return TRAYS[player]
    return variant.tracks[player][point] - 1


def point_of(player: Player, location: Location, variant: Variant = BACKGAMMON) -> int | None:
    """The point of ``location`` in ``player``'s numbering, or None for the other's bar or tray.

    The inverse of :func:`location_of`.

    >>> point_of(0, 23), point_of(1, 0), point_of(1, 27), point_of(1, 24)
    (24, 24, 0, None)
    >>> from controller.rules import JACQUET
    >>> point_of(1, 11, JACQUET), point_of(1, 12, JACQUET), point_of(0, 23, JACQUET)
    (24, 1, 24)
    """
    if location < 24:
        return variant.tracks[player].index(location + 1, 1, 25)
    if location == BARS[player]:
        return _BAR_POINT
    if location == TRAYS[player]:
        return _OFF_POINT
    return None


def location_name(location: Location) -> str:
    """A location as a message names it: ``point 7``, ``bar of player 1``, ``tray of player 0``.

    >>> location_name(6), location_name(25)
    ('point 7', 'bar of player 1')
    """
    if location < 24:
        return f"point {location + 1}"
    if location in BARS:
        return f"bar of player {BARS.index(location)}"
    return f"tray of player {TRAYS.index(location)}"


def cells_from_board(board: Board) -> Cells:
    """The 28 cells a board shows, borne-off checkers in the trays (for tests and simulators).

    Raises:
        InvalidPositionError: if ``board`` is not a possible board.

    >>> cells = cells_from_board((0, -2) + (0,) * 22 + (2, 0))
    >>> cells[0], cells[23], cells[26], cells[27]
    ((0, 2), (2, 0), (13, 0), (0, 13))
    """
    board = check_board(board)
    cells: list[Cell] = [(n, 0) if n >= 0 else (0, -n) for n in board[1:25]]
    cells += [(board[25], 0), (0, -board[0])]
    cells += [
        (CHECKERS - sum(cell[0] for cell in cells if cell), 0),
        (0, CHECKERS - sum(cell[1] for cell in cells if cell)),
    ]
    return tuple(cells)


def check_cells(cells: Sequence[Cell]) -> Cells:
    """Return ``cells`` as a tuple if it is 28 cells of two counts from 0 to 15 (or None).

    Raises:
        InvalidObservationError: naming the first bad cell.
    """
    if len(cells) != LOCATIONS:
        raise InvalidObservationError(f"{len(cells)} cells: expected {LOCATIONS}")
    for location, cell in enumerate(cells):
        if cell is None:
            continue
        if (
            not isinstance(cell, tuple)
            or len(cell) != 2
            or not all(type(n) is int and 0 <= n <= CHECKERS for n in cell)
        ):
            raise InvalidObservationError(
                f"cell {cell!r} of {location_name(location)}: expected two counts 0..15 or None"
            )
    return tuple(cells)
