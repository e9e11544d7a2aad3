"""GNU Backgammon's own move generator, reached through its PyPI bindings, as a test oracle."""

from __future__ import annotations

import platform
from typing import Any

import pytest

from controller.rules.board import Board, flip

if platform.machine() != "x86_64":  # the bindings ship x86-64 wheels only
    pytest.skip("GNU Backgammon's PyPI bindings exist for x86-64 only", allow_module_level=True)

import gnubg

_CUBE = gnubg.cubeinfo()
_ZERO_PLY = gnubg.evalcontext(0, 0, 1, 0, 0.0)

GnubgBoard = tuple[tuple[int, ...], tuple[int, ...]]


def gnubg_board(board: Board, player: int) -> GnubgBoard:
    """(opponent, player on roll), each from its own side, index 24 = bar."""
    view = board if player == 0 else flip(board)
    mine = (*tuple(max(view[point], 0) for point in range(1, 25)), view[25])
    theirs = (*tuple(max(-view[25 - point], 0) for point in range(1, 25)), -view[0])
    return theirs, mine


def best_moves(board: Board, player: int, dice: tuple[int, int]) -> list[dict[str, Any]]:
    """Every distinct legal play as GNU Backgammon finds it, scored at 0-ply."""
    return list(gnubg.findbestmoves(gnubg_board(board, player), _CUBE, _ZERO_PLY, dice))


def notation(board: Board, player: int, move: tuple[int, ...]) -> str:
    """GNU Backgammon's text for a move tuple (source, destination, ...)."""
    return str(gnubg.movetupletostring(move, gnubg_board(board, player)))
