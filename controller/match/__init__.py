"""Tabula's match core, pure: the match's flow, its variants' turns, the board's orientation,
the learner's lamps and the cube the camera sees.

Why one package: what happens on a roll, a button or a board change is decided here, with
no clock, device or journal; the service (:mod:`controller.service`) feeds the inputs in
and journals the events that come out.

* :mod:`~controller.match.flow` — :class:`Flow` (opening, cube, turns, game end).
* its inputs (what the board, camera, buttons and web view tell it) are declared once,
  below it, in :mod:`controller.referee.inputs`, which the referee's turns answer too.
* :mod:`~controller.match.events` — what the flow records, event by event, and
  :mod:`~controller.match.event_json` its JSON form: the journal's events, which
  :mod:`controller.record` stores and exports.
* :mod:`~controller.match.fold` — the one fold of an event into the match's
  :class:`MatchSnapshot`: the live flow folds the events it records through it, and
  :mod:`~controller.match.replay` folds a journal's into games, scores and the state a
  match resumes from (:class:`Replayer`).
* :mod:`~controller.match.jacquet` — Jacquet de Versailles' turns, hooked into the flow
  (:mod:`~controller.match.variant_turns`),
  and :mod:`~controller.match.jacquet_replay`, its games replayed: importing them here
  registers their hooks, so any import of the core lets a Jacquet flow or replay find them.
* :mod:`~controller.match.orientation` — which side is player 0.
* :mod:`~controller.match.learner` — the learner's lamps and hint steps.
* :mod:`~controller.match.cube_seen` — the cube the camera sees against the referee's.
"""

from controller.match.errors import ActionError, InvalidEventError, RecordError, RefusedError
from controller.match.flow import Flow
from controller.match.jacquet import JacquetTurns
from controller.match.jacquet_replay import JacquetReplay
from controller.match.orientation import Orientation, logical_cells, mirror, physical_scene
from controller.match.replay import GameRecord, MatchRecord, Replayer, replay
from controller.match.snapshot import MatchSnapshot
from controller.match.variant_turns import VariantTurns

__all__ = [
    "ActionError",
    "Flow",
    "GameRecord",
    "InvalidEventError",
    "JacquetReplay",
    "JacquetTurns",
    "MatchRecord",
    "MatchSnapshot",
    "Orientation",
    "RecordError",
    "RefusedError",
    "Replayer",
    "VariantTurns",
    "logical_cells",
    "mirror",
    "physical_scene",
    "replay",
]
