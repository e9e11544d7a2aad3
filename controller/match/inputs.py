"""The match core's inputs: what the board, the camera, the buttons and the web view tell
:meth:`controller.match.Flow.on`.

Why apart: the service builds them and the flow and each variant's turns read them; one
module declares them once for all three.
"""

from __future__ import annotations

from dataclasses import dataclass

from controller.referee import Button, Cells
from controller.rules import Board

__all__ = [
    "CameraLifted",
    "CameraReading",
    "CameraRoll",
    "CameraRollFault",
    "CameraUnreadable",
    "DiceEntered",
    "Input",
    "KeyPressed",
    "Observed",
    "PositionSet",
]


@dataclass(frozen=True, slots=True)
class CameraRoll:
    """The camera read a settled roll; ``dice`` is (player 0's die, player 1's die) by side."""

    dice: tuple[int, int]


@dataclass(frozen=True, slots=True)
class CameraRollFault:
    """The camera saw an irregular roll (cocked, off the right-hand half...)."""

    reason: str


@dataclass(frozen=True, slots=True)
class CameraUnreadable:
    """The camera cannot read the dice: they must be entered."""


@dataclass(frozen=True, slots=True)
class CameraLifted:
    """The dice were picked up."""


@dataclass(frozen=True, slots=True)
class KeyPressed:
    """A button (or the web view's equivalent action)."""

    key: Button


@dataclass(frozen=True, slots=True)
class DiceEntered:
    """Dice entered by hand (buttons or web view)."""

    dice: tuple[int, int]


@dataclass(frozen=True, slots=True)
class PositionSet:
    """The referee corrects the position (a knocked board), before the mover rolls."""

    board: Board


@dataclass(frozen=True, slots=True)
class Observed:
    """A settled observation, already in logical locations (orientation applied)."""

    cells: Cells


Input = (
    CameraRoll
    | CameraRollFault
    | CameraUnreadable
    | CameraLifted
    | KeyPressed
    | DiceEntered
    | PositionSet
    | Observed
)

CameraReading = CameraRoll | CameraRollFault | CameraUnreadable
"""The camera's reading of a roll (read, irregular or unreadable), as opposed to dice lifted."""
