"""Tabula's referee: what the board shows during a turn, and what to do about it.

Pure (no I/O, no clocks, no threads): the asyncio service feeds it stable observations,
dice readings and button presses, and renders what it returns.

* :mod:`~controller.referee.cells` — the mover's numbering of the 28 locations
  (:mod:`hardware.board.geometry`'s, re-exported here).
* :mod:`~controller.referee.judge` — the verdict on one observation (:class:`Judge`).
* :mod:`~controller.referee.inputs` — what the board, camera, buttons and web view tell the
  match and its turns, each declared once (the board seen, the dice, a button...).
* :mod:`~controller.referee.turn` — the turn's state machine (:class:`TurnState`), which
  asks its variant's :class:`TurnRules` (:mod:`~controller.referee.turn_rules`) wherever
  variants differ.
* :mod:`~controller.referee.jacquet_turn` — Jacquet de Versailles' turn rules.
* :mod:`~controller.referee.display` — what the LEDs and the web view show, per mode.

Backgammon by default; Jacquet de Versailles (both rulesets) through the ``variant`` of
:class:`Judge`, :func:`location_of` and :func:`point_of`, and :func:`jacquet_state` for
its turn flow (numbers handed over, the Decline button of rule 11, the primauté, a game
ending mid-turn).
"""

from controller.controls import Button, Mode
from controller.referee._wording import describe_dice
from controller.referee.cells import check_cells, location_of, point_of
from controller.referee.display import Display, render
from controller.referee.errors import InvalidObservationError, RefereeError
from controller.referee.inputs import (
    BoardSeen,
    ButtonPressed,
    DiceCocked,
    DiceEntered,
    DiceLifted,
    DiceRolled,
    DiceUnreadable,
    Input,
    PositionCorrected,
    Roll,
    TurnInput,
)
from controller.referee.jacquet_turn import jacquet_state, jacquet_turn_of
from controller.referee.judge import (
    Diagnosis,
    Judge,
    Tree,
    View,
    explaining_dice,
    judge,
)
from controller.referee.turn import DiceSource, Phase, TurnState
from controller.referee.turn_rules import TurnEnd, TurnRules
from controller.referee.verdict import Fault, Kind, Lifted, Verdict
from hardware.board.geometry import (
    BARS,
    LOCATIONS,
    TRAYS,
    Cell,
    Cells,
    Location,
    cells_from_board,
    location_name,
)

__all__ = [
    "BARS",
    "LOCATIONS",
    "TRAYS",
    "BoardSeen",
    "Button",
    "ButtonPressed",
    "Cell",
    "Cells",
    "Diagnosis",
    "DiceCocked",
    "DiceEntered",
    "DiceLifted",
    "DiceRolled",
    "DiceSource",
    "DiceUnreadable",
    "Display",
    "Fault",
    "Input",
    "InvalidObservationError",
    "Judge",
    "Kind",
    "Lifted",
    "Location",
    "Mode",
    "Phase",
    "PositionCorrected",
    "RefereeError",
    "Roll",
    "Tree",
    "TurnEnd",
    "TurnInput",
    "TurnRules",
    "TurnState",
    "Verdict",
    "View",
    "cells_from_board",
    "check_cells",
    "describe_dice",
    "explaining_dice",
    "jacquet_state",
    "jacquet_turn_of",
    "judge",
    "location_name",
    "location_of",
    "point_of",
    "render",
]
