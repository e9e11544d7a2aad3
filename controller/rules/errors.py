"""Exceptions of the rules engine."""

from __future__ import annotations

from hardware.board.errors import TabulaError

__all__ = [
    "IllegalActionError",
    "InvalidDiceError",
    "InvalidNotationError",
    "InvalidPositionError",
    "InvalidRulesError",
    "RulesError",
]


class RulesError(TabulaError):
    """Base class of the rules engine's errors."""


class InvalidPositionError(RulesError, ValueError):
    """A board that cannot occur: wrong length, more than 15 checkers, both colours on a point."""


class InvalidDiceError(RulesError, ValueError):
    """Dice that are not two numbers from 1 to 6."""


class InvalidNotationError(RulesError, ValueError):
    """A position ID, match ID, XGID or play that does not parse."""


class IllegalActionError(RulesError, ValueError):
    """An action that the rules forbid now (a double out of turn, a play that is not legal)."""


class InvalidRulesError(RulesError, ValueError):
    """Settings that contradict each other or the game (beavers in match play, a 0-point limit)."""
