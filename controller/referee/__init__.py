"""Tabula's referee: what the board shows during a turn, and what to do about it.

Pure (no I/O, no clocks, no threads): the asyncio service feeds it stable observations,
dice readings and button presses, and renders what it returns.

* :mod:`~controller.referee.cells` — the 28 observed locations and their numbering.
* :mod:`~controller.referee.judge` — the verdict on one observation (:class:`Judge`).
* :mod:`~controller.referee.turn` — the turn's state machine (:class:`TurnState`).
* :mod:`~controller.referee.display` — what the LEDs and the web view show, per mode.
"""

from controller.referee.cells import (
    BARS,
    LOCATIONS,
    TRAYS,
    Cell,
    Cells,
    Location,
    cells_from_board,
    check_cells,
    location_name,
    location_of,
    point_of,
)
from controller.referee.display import Display, Mode, render
from controller.referee.errors import InvalidObservationError, RefereeError
from controller.referee.judge import (
    Diagnosis,
    Judge,
    Tree,
    View,
    describe_dice,
    explaining_dice,
    judge,
)
from controller.referee.turn import (
    Button,
    DiceLifted,
    DiceSource,
    Doubled,
    Event,
    ManualDice,
    Phase,
    Press,
    Rolled,
    RollFault,
    RollUnreadable,
    Seen,
    TurnEnd,
    TurnState,
)
from controller.referee.verdict import Fault, Kind, Lifted, Verdict

__all__ = [
    "BARS",
    "LOCATIONS",
    "TRAYS",
    "Button",
    "Cell",
    "Cells",
    "Diagnosis",
    "DiceLifted",
    "DiceSource",
    "Display",
    "Doubled",
    "Event",
    "Fault",
    "InvalidObservationError",
    "Judge",
    "Kind",
    "Lifted",
    "Location",
    "ManualDice",
    "Mode",
    "Phase",
    "Press",
    "RefereeError",
    "RollFault",
    "RollUnreadable",
    "Rolled",
    "Seen",
    "Tree",
    "TurnEnd",
    "TurnState",
    "Verdict",
    "View",
    "cells_from_board",
    "check_cells",
    "describe_dice",
    "explaining_dice",
    "judge",
    "location_name",
    "location_of",
    "point_of",
    "render",
]
