"""Tabula's board service: the referee's loop joining board, camera, buttons, LEDs, journal.

* :mod:`~controller.service.flow` — the match's flow, pure (opening, cube, turns, game end).
* :mod:`~controller.service.service` — :class:`Service`, the asyncio shell (a
  :class:`controller.status.BoardService`): the loop, the queue and the I/O.
* :mod:`~controller.service.teacher` — the learner's hints and verdicts on plays (the engine).
* :mod:`~controller.service.board_status` — the status the web view, the hub and MQTT show.
* :mod:`~controller.service.seating`, :mod:`~controller.service.orientation` — which side is
  player 0, proposed and confirmed at a match's start.
* :mod:`~controller.service.actions` — the web view's actions as inputs.
* :mod:`~controller.service.match_journal` — the journal opened, resumed, rotated, exported.
* :mod:`~controller.service.edges`, :mod:`~controller.service.camera` — what the service
  needs of the board link and the dice source; the camera's events as inputs.
* :mod:`~controller.service.simulation`, :mod:`~controller.service.demo` — the simulated
  table (players, camera, pins) for ``tabula demo`` and the tests.
"""

from controller.service.board_status import scene_text
from controller.service.errors import RefusedError, ServiceError
from controller.service.flow import Flow
from controller.service.orientation import logical_cells, mirror, physical_scene
from controller.service.service import Service

__all__ = [
    "Flow",
    "RefusedError",
    "Service",
    "ServiceError",
    "logical_cells",
    "mirror",
    "physical_scene",
    "scene_text",
]
