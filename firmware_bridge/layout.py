"""The cells of the serial protocol, and the stable observation the bridge reports.

Why here: the sensor board sends one byte per physical location (``hardware/PROTOCOL.md``);
the locations themselves and their 26-integer layout are :mod:`hardware.board.geometry`'s.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from hardware.board.errors import LayoutError
from hardware.board.geometry import CHECKERS, LOCATIONS, Cell, board_from_cells, location_name

__all__ = [
    "UNKNOWN_CELL",
    "Observation",
    "decode_cell",
    "encode_cell",
    "observe",
]

#: The wire byte of an unknown cell.
UNKNOWN_CELL = 0xFF

_DECODED: tuple[Cell, ...] = tuple(
    None if byte == UNKNOWN_CELL else (byte & 0x0F, byte >> 4) for byte in range(256)
)


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

    >>> from hardware.board.geometry import cells_from_board
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
