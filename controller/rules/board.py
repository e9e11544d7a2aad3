"""The 26-integer board layout shared by every part of Tabula, and checks on it.

The layout is the one of an XGID's position characters and of the golden cases
(``data/backgammon-golden``): ``board[1..24]`` are points 1..24 numbered from player 0's
side, positive counts are player 0's checkers and negative counts player 1's;
``board[25]`` is player 0's bar (>= 0) and ``board[0]`` player 1's bar (<= 0).
Borne-off checkers are implied: 15 minus those on the board and the bar.
Player 0 moves from 24 towards 1 and bears off from points 1..6; player 1 moves the
other way and bears off from 19..24.
"""

from __future__ import annotations

from operator import neg
from typing import Final, TypeAlias

from controller.rules.errors import InvalidPositionError

__all__ = [
    "CHECKERS",
    "NACKGAMMON_START",
    "START",
    "Board",
    "Player",
    "board_problems",
    "borne_off",
    "check_board",
    "flip",
    "pip_counts",
]

Board: TypeAlias = tuple[int, ...]
"""26 signed counts, see the module docstring."""

Player: TypeAlias = int
"""0 or 1; player 0 owns the positive counts."""

CHECKERS: Final = 15
"""Checkers of each player."""

START: Final[Board] = (
    0, -2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2, 0,
)  # fmt: skip
"""The backgammon starting position."""

NACKGAMMON_START: Final[Board] = (
    0, -2, -2, 0, 0, 0, 4, 0, 3, 0, 0, 0, -4, 4, 0, 0, 0, -3, 0, -4, 0, 0, 0, 2, 2, 0,
)  # fmt: skip
"""Nackgammon's start: two more back checkers on the 23 point, one fewer on the 13 and the 6."""


def board_problems(board: object) -> list[str]:
    """Every reason why ``board`` is not a possible board, or an empty list.

    Legality is a query (as python-chess's ``status()``): callers that must refuse a board
    use :func:`check_board`, which raises with these texts. Every query of the rules runs
    it, so a possible board passes in a few C-level passes.
    """
    if not isinstance(board, (tuple, list)) or len(board) != 26:
        return [f"a board is 26 integers, got {board!r}"]
    if set(map(type, board)) != _INTEGERS:
        return [f"a board holds integers only, got {board!r}"]
    counts = _on_board(board)
    if board[25] >= 0 and board[0] <= 0 and max(counts) <= CHECKERS:
        return []
    problems = []
    if board[25] < 0:
        problems.append(f"player 0's bar (index 25) cannot be negative, got {board[25]}")
    if board[0] > 0:
        problems.append(f"player 1's bar (index 0) cannot be positive, got {board[0]}")
    for player, count in enumerate(counts):
        if count > CHECKERS:
            problems.append(f"player {player} has {count} checkers on the board, more than 15")
    return problems


_INTEGERS: Final = frozenset({int})


def _on_board(board: Board | list[int]) -> tuple[int, int]:
    """Checkers each player has on the board and the bar."""
    net, total = sum(board), sum(map(abs, board))  # C-level passes: this runs on every query
    return (total + net) // 2, (total - net) // 2


def check_board(board: object) -> Board:
    """Return ``board`` as a tuple if it is a possible board.

    Raises:
        InvalidPositionError: naming every problem found.
    """
    problems = board_problems(board)
    if problems:
        raise InvalidPositionError("; ".join(problems))
    assert isinstance(board, (tuple, list))
    return tuple(board)


def flip(board: Board) -> Board:
    """The same board seen from the other player's side (player 1 becomes player 0)."""
    return tuple(map(neg, reversed(board)))


def borne_off(board: Board) -> tuple[int, int]:
    """Checkers each player has borne off."""
    player0, player1 = _on_board(board)
    return CHECKERS - player0, CHECKERS - player1


def pip_counts(board: Board) -> tuple[int, int]:
    """Pips each player still has to travel to bear off every checker.

    >>> pip_counts(START)
    (167, 167)
    """
    player0 = sum(point * board[point] for point in range(1, 26) if board[point] > 0)
    player1 = sum((25 - point) * -board[point] for point in range(25) if board[point] < 0)
    return player0, player1
