"""The mover's view of the 28 observed locations, and the check of an observation's cells.

Why here: the locations are :mod:`hardware.board.geometry`'s, while the rules engine speaks the
mover's numbering, which depends on the variant. This module maps between them, so that a
verdict can name locations the LEDs light.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from controller.referee.errors import InvalidObservationError
from controller.rules import BACKGAMMON, Player, Variant
from hardware.board.geometry import (
    BARS,
    CHECKERS,
    LOCATIONS,
    TRAYS,
    Cell,
    Cells,
    Location,
    location_name,
)

__all__ = ["check_cells", "location_of", "point_of"]

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
