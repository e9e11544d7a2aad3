"""The 28 physical locations of the board and their 26-integer layout.

Why here: the sensor board reports counts per physical location (24 points, 2 bars,
2 trays), while the rest of Tabula speaks the 26-integer layout of an XGID
(``shared/data/backgammon-golden/README.md``): ``board[1..24]`` the points, positive
for player 0 (colour A), negative for player 1 (colour B), ``board[25]`` player 0's bar,
``board[0]`` player 1's bar stored negative, borne-off checkers implied. The trays are
implied in the layout but observed physically, so their counts check the totals.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeAlias

from firmware_bridge.errors import LayoutError

__all__ = [
    "BAR_0",
    "BAR_1",
    "CHECKERS",
    "LOCATIONS",
    "TRAY_0",
    "TRAY_1",
    "UNKNOWN_CELL",
    "Cell",
    "Observation",
    "board_from_cells",
    "cells_from_board",
    "decode_cell",
    "encode_cell",
    "location_name",
    "observe",
]

#: A location's content: (colour A count, colour B count), or None when unknown.
Cell: TypeAlias = tuple[int, int] | None
#: Location index 0..27 (0..23 = points 1..24).
Location: TypeAlias = int

LOCATIONS = 28
BAR_0 = 24
BAR_1 = 25
TRAY_0 = 26
TRAY_1 = 27
CHECKERS = 15
#: The wire byte of an unknown cell.
UNKNOWN_CELL = 0xFF

_DECODED: tuple[Cell, ...] = tuple(
    None if byte == UNKNOWN_CELL else (byte & 0x0F, byte >> 4) for byte in range(256)
)


def location_name(location: Location) -> str:
    """A location's name for messages: ``point 7``, ``bar of player 0``, ``tray of player 1``.

    >>> location_name(6), location_name(25)
    ('point 7', 'bar of player 1')
    """
    if 0 <= location < 24:
        return f"point {location + 1}"
    if location in (BAR_0, BAR_1):
        return f"bar of player {location - BAR_0}"
    if location in (TRAY_0, TRAY_1):
        return f"tray of player {location - TRAY_0}"
    raise LayoutError(f"location {location!r}: expected 0..27")


def decode_cell(byte: int) -> Cell:
    """The cell a wire byte stands for (``0xFF`` unknown, else low nibble A, high nibble B)."""
    return _DECODED[byte]


def encode_cell(cell: Cell) -> int:
    """The wire byte of a cell.

    Raises:
        LayoutError: if a count is outside 0..15 or the cell is (15, 15).
    """
    if cell is None:
        return UNKNOWN_CELL
    a, b = cell
    if not (0 <= a <= CHECKERS and 0 <= b <= CHECKERS) or (a, b) == (CHECKERS, CHECKERS):
        raise LayoutError(f"cell {cell!r}: counts must be 0..15 and not both 15")
    return a | b << 4


def cells_from_board(board: Sequence[int]) -> tuple[Cell, ...]:
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
    for index in range(24):
        cell = cells[index]
        if cell is not None:
            board[index + 1] = cell[0] - cell[1]
    for cell in (cells[BAR_0], cells[BAR_1]):
        if cell is not None:
            board[25] += cell[0]
            board[0] -= cell[1]
    return tuple(board)


@dataclass(frozen=True, slots=True)
class Observation:
    """What the board stably shows: a position, and whether the sensors can be right.

    Attributes:
        board: the 26-integer layout (unknown locations counted as empty).
        inconsistent: totals are not 15 a side, a point holds both colours, or a location
            is unknown; :attr:`problems` says which.
        unknown: locations whose sensors could not be read.
        mixed: points (location indices) holding both colours; with right totals this is
            the moment of a hit, which the referee may allow.
        cells: the 28 cells as observed.
        event: the board's event number of this state.
        problems: one sentence per fault, for the status page.
    """

    board: tuple[int, ...]
    inconsistent: bool
    unknown: frozenset[int]
    mixed: frozenset[int]
    cells: tuple[Cell, ...]
    event: int = 0
    problems: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if len(self.board) != 26 or len(self.cells) != LOCATIONS:
            raise LayoutError(
                f"observation of {len(self.board)} board integers and {len(self.cells)} "
                "cells: expected 26 and 28"
            )


def observe(cells: Sequence[Cell], event: int = 0) -> Observation:
    """Turn 28 cells into an :class:`Observation`, naming everything that cannot be right.

    >>> from firmware_bridge.layout import cells_from_board, observe
    >>> observe(cells_from_board([0] * 26)).inconsistent
    False
    """
    board = board_from_cells(cells)
    unknown = frozenset(i for i, cell in enumerate(cells) if cell is None)
    mixed = frozenset(
        i for i, cell in enumerate(cells[:24]) if cell is not None and cell[0] and cell[1]
    )
    problems = [f"{location_name(i)} unknown" for i in sorted(unknown)]
    problems += [f"both colours on {location_name(i)}" for i in sorted(mixed)]
    if not unknown:
        total_a = sum(cell[0] for cell in cells if cell is not None)
        total_b = sum(cell[1] for cell in cells if cell is not None)
        if total_a != CHECKERS:
            problems.append(f"{total_a} checkers of player 0, expected {CHECKERS}")
        if total_b != CHECKERS:
            problems.append(f"{total_b} checkers of player 1, expected {CHECKERS}")
    return Observation(
        board=board,
        inconsistent=bool(problems),
        unknown=unknown,
        mixed=mixed,
        cells=tuple(cells),
        event=event,
        problems=tuple(problems),
    )
