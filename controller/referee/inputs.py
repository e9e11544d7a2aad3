"""What the board, the camera, the buttons and the web view tell the match: its inputs.

Why declared once, here: the service builds them, the match core
(:meth:`controller.match.Flow.on`) takes them, and the turn's state machine (:mod:`.turn`)
and each variant's turn rules answer them; the referee sits below the match, so both
import them from here. Each is validated on construction. None says who rolled: the turn
knows who throws next (:attr:`~controller.referee.TurnState.thrower`), and the opening
roll's dice come by side.
"""

from __future__ import annotations

from dataclasses import dataclass

from controller.controls import Button
from controller.referee.cells import check_cells
from controller.rules import Board, check_board, check_dice
from hardware.board.geometry import Cells

__all__ = [
    "BoardSeen",
    "ButtonPressed",
    "DiceCocked",
    "DiceEntered",
    "DiceLifted",
    "DiceRolled",
    "DiceUnreadable",
    "Input",
    "PositionCorrected",
    "Roll",
    "TurnInput",
]


@dataclass(frozen=True, slots=True)
class BoardSeen:
    """A settled observation of the board, in logical locations (orientation applied)."""

    cells: Cells

    def __post_init__(self) -> None:
        check_cells(self.cells)


@dataclass(frozen=True, slots=True)
class _Dice:
    """The field of an input that gives two dice, checked (a base, not an input)."""

    dice: tuple[int, int]

    def __post_init__(self) -> None:
        check_dice(self.dice)


@dataclass(frozen=True, slots=True)
class DiceRolled(_Dice):
    """The camera read a settled roll; when each player throws one die (the opening roll,
    Jacquet's primauté) ``dice`` is (player 0's die, player 1's die)."""


@dataclass(frozen=True, slots=True)
class DiceCocked:
    """A die is cocked, off the right-hand half, or on a checker: the roll is made again."""

    reason: str


@dataclass(frozen=True, slots=True)
class DiceUnreadable:
    """The camera saw a roll it cannot read: the dice must be entered."""


@dataclass(frozen=True, slots=True)
class DiceLifted:
    """The dice were picked up."""


@dataclass(frozen=True, slots=True)
class DiceEntered(_Dice):
    """Dice entered by hand (the web view); by side, as :class:`DiceRolled`'s, when each
    player throws one die."""


@dataclass(frozen=True, slots=True)
class ButtonPressed:
    """A button of the board, or the web view's action that acts as one."""

    button: Button


@dataclass(frozen=True, slots=True)
class PositionCorrected:
    """The referee sets the position (a knocked board), before the mover rolls."""

    board: Board

    def __post_init__(self) -> None:
        check_board(self.board)


Roll = DiceRolled | DiceCocked | DiceUnreadable
"""The camera's reading of a roll (read, cocked or unreadable), as opposed to dice lifted."""

TurnInput = BoardSeen | Roll | DiceLifted | DiceEntered | ButtonPressed
"""What a turn answers (:meth:`~controller.referee.TurnState.on`)."""

Input = TurnInput | PositionCorrected
"""Everything the match takes (:meth:`~controller.match.Flow.on`)."""
