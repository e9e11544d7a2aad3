"""GNU Backgammon's own move generator, reached through its PyPI bindings, as a test oracle."""

from __future__ import annotations

import platform
from typing import Any

import pytest

from controller.rules.board import Board

if platform.machine() != "x86_64":  # the bindings ship x86-64 wheels only
    pytest.skip("GNU Backgammon's PyPI bindings exist for x86-64 only", allow_module_level=True)

import gnubg

from controller.rules.position_id import gnubg_board

_CUBE = gnubg.cubeinfo()
_ZERO_PLY = gnubg.evalcontext(0, 0, 1, 0, 0.0)


def best_moves(board: Board, player: int, dice: tuple[int, int]) -> list[dict[str, Any]]:
    """Every distinct legal play as GNU Backgammon finds it, scored at 0-ply."""
    return list(gnubg.findbestmoves(gnubg_board(board, player), _CUBE, _ZERO_PLY, dice))


def notation(board: Board, player: int, move: tuple[int, ...]) -> str:
    """GNU Backgammon's text for a move tuple (source, destination, ...)."""
    return str(gnubg.movetupletostring(move, gnubg_board(board, player)))
