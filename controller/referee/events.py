"""What a turn listens to: the camera's rolls, the board's observations, the buttons.

Why apart from :mod:`.turn`: these are the inputs the service (and a variant's turn)
hands to :meth:`~controller.referee.TurnState.on`, each validated on construction; the
state machine that answers them is :mod:`.turn`.
"""

from __future__ import annotations

from dataclasses import dataclass

from controller.controls import Button
from controller.referee.cells import check_cells
from controller.rules import Player, check_dice
from hardware.board.geometry import Cells

__all__ = [
    "DiceLifted",
    "Doubled",
    "Event",
    "ManualDice",
    "Press",
    "Primaute",
    "RollEvent",
    "RollFault",
    "RollUnreadable",
    "Rolled",
    "Seen",
]


@dataclass(frozen=True, slots=True)
class Rolled:
    """The camera read a settled roll on ``player``'s side."""

    player: Player
    dice: tuple[int, int]

    def __post_init__(self) -> None:
        check_dice(self.dice)


@dataclass(frozen=True, slots=True)
class RollFault:
    """A die is cocked, off the right-hand half, or on a checker: the roll must be made again."""

    player: Player
    reason: str


@dataclass(frozen=True, slots=True)
class RollUnreadable:
    """The camera saw a roll it cannot read."""

    player: Player


@dataclass(frozen=True, slots=True)
class ManualDice:
    """Dice entered with the buttons or the web view."""

    dice: tuple[int, int]

    def __post_init__(self) -> None:
        check_dice(self.dice)


@dataclass(frozen=True, slots=True)
class Primaute:
    """Jacquet's primauté (rule 2): player 0's die and player 1's die."""

    dice: tuple[int, int]

    def __post_init__(self) -> None:
        check_dice(self.dice)


@dataclass(frozen=True, slots=True)
class Seen:
    """A stable observation of the board (``firmware_bridge.Observation.cells``)."""

    cells: Cells

    def __post_init__(self) -> None:
        check_cells(self.cells)


@dataclass(frozen=True, slots=True)
class DiceLifted:
    """``player`` picked up their dice."""

    player: Player


@dataclass(frozen=True, slots=True)
class Doubled:
    """``player`` offered the cube."""

    player: Player


@dataclass(frozen=True, slots=True)
class Press:
    """A button was pressed."""

    button: Button


RollEvent = Rolled | RollFault | RollUnreadable
"""What the camera says of a roll."""

Event = (
    Rolled
    | RollFault
    | RollUnreadable
    | ManualDice
    | Seen
    | DiceLifted
    | Doubled
    | Press
    | Primaute
)
"""Everything a turn listens to."""
