"""GNU Backgammon Position ID: a board as 14 base64 characters, read and written.

The ID is the base64 text of the 80-bit position key (GNU Backgammon manual, "A technical
description of the Position ID"): for each player in turn, for each of their points from
their own ace point to their 24 point and then their bar, as many 1 bits as they have
checkers there followed by a 0 bit; padded with 0 bits to 80, packed little-endian (the
first bit is the least significant bit of the first byte), then base64 by 6-bit groups
from the most significant bit, the last 4 padding bits dropped.

Which player comes first: the manual's prose starts with the player on roll, but GNU
Backgammon itself (``PositionKey`` over ``anBoard[0]`` then ``anBoard[1]``, where
``anBoard[1]`` is the player on roll, and every ID it displays or reads) writes the
**opponent first and the player on roll second**. We follow the program: the differential
tests compare every bit with it (``gnubg.position_id``, ``gnubg.position_from_id`` and its
XGID import), and a checker on the bar of the player on roll lands in the second half
(``4HPwATDgc/ABUA``).
"""

from __future__ import annotations

from typing import Final

from controller.rules.board import CHECKERS, Board, Player, check_board
from controller.rules.errors import InvalidNotationError, InvalidPositionError
from controller.rules.idcodec import KeyTextError, key_from_text, text_from_key
from hardware.board.json_types import is_integer

__all__ = [
    "GnubgBoard",
    "board_from_position_id",
    "gnubg_board",
    "position_id",
]

_KEY_BYTES: Final = 10
_KEY_BITS: Final = 80


def _check_player(player: object) -> Player:
    if not is_integer(player) or player not in (0, 1):
        raise InvalidPositionError(f"the player on roll is 0 or 1, got {player!r}")
    return player


GnubgBoard = tuple[tuple[int, ...], tuple[int, ...]]
"""A board as GNU Backgammon holds it (its ``TanBoard``): two sides of 25 counts."""


def gnubg_board(board: Board, player_on_roll: Player) -> GnubgBoard:
    """``board`` as GNU Backgammon holds it, and its Python bindings take it: the
    opponent's side, then the side of the player on roll, each their checkers on their
    points 1..24 (from their own ace point) and then their bar. The Position ID is these
    counts, in this order."""
    return _side(board, 1 - player_on_roll), _side(board, player_on_roll)


def _side(board: Board, player: Player) -> tuple[int, ...]:
    """``player``'s checkers on their points 1..24 (from their own ace point) and bar."""
    if player == 0:
        return (*(max(board[point], 0) for point in range(1, 25)), board[25])
    return (*(max(-board[25 - point], 0) for point in range(1, 25)), -board[0])


def position_id(board: Board, player_on_roll: Player) -> str:
    """The GNU Backgammon Position ID of ``board`` with ``player_on_roll`` to play.

    Raises:
        InvalidPositionError: for an impossible board or a player that is not 0 or 1.

    >>> from controller.rules.board import START
    >>> position_id(START, 0)
    '4HPwATDgc/ABMA'
    """
    board = check_board(board)
    player_on_roll = _check_player(player_on_roll)
    bits = 0
    position = 0
    for side in gnubg_board(board, player_on_roll):
        for count in side:
            bits |= ((1 << count) - 1) << position
            position += count + 1
    return text_from_key(bits, _KEY_BYTES)


def board_from_position_id(text: str, player_on_roll: Player) -> Board:
    """The board a GNU Backgammon Position ID encodes, ``player_on_roll`` being to play.

    Raises:
        InvalidNotationError: naming the ID and what is wrong with it.
        InvalidPositionError: for a player that is not 0 or 1.
    """
    player_on_roll = _check_player(player_on_roll)

    def fail(reason: str) -> InvalidNotationError:
        return InvalidNotationError(f"invalid position ID {text!r}: {reason}")

    if not isinstance(text, str):
        raise fail("a position ID is a string")
    try:
        bits = key_from_text(text, _KEY_BYTES)
    except KeyTextError as error:
        raise fail(str(error)) from None

    sides: list[list[int]] = []
    position = 0
    names = ("the opponent", "the player on roll")
    for name in names:
        side = []
        for _ in range(25):
            count = 0
            while position < _KEY_BITS and bits >> position & 1:
                count += 1
                position += 1
            if position >= _KEY_BITS:
                raise fail("the key ends before its 50 point separators")
            position += 1
            side.append(count)
        total = sum(side)
        if total > CHECKERS:
            raise fail(f"{name} has {total} checkers, more than {CHECKERS}")
        sides.append(side)
    if bits >> position:
        raise fail("bits are set after the last point separator")

    cells = [0] * 26
    for player, side in zip((1 - player_on_roll, player_on_roll), sides, strict=True):
        for point, count in enumerate(side[:24], start=1):
            if not count:
                continue
            index = point if player == 0 else 25 - point
            if cells[index]:
                raise fail(f"both players have checkers on point {index} of player 0")
            cells[index] = count if player == 0 else -count
        if player == 0:
            cells[25] = side[24]
        else:
            cells[0] = -side[24]
    return tuple(cells)
