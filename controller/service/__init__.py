"""Tabula's board service: the referee's loop joining board, camera, buttons, LEDs, journal.

* :mod:`~controller.service.service` — :class:`Service`, the asyncio shell (a
  :class:`controller.status.BoardService`) around the pure match core
  (:mod:`controller.match`): the loop, the queue and the I/O.
* :mod:`~controller.service.teacher` — the learner's hints and verdicts on plays (the engine).
* :mod:`~controller.service.board_status` — the status the web view, the hub and MQTT show.
* :mod:`~controller.service.seating` — which side is player 0, proposed and confirmed at a
  match's start (the orientation itself is :mod:`controller.match.orientation`).
* :mod:`~controller.service.actions` — the web view's actions as inputs.
* :mod:`~controller.service.match_journal` — the journal opened, resumed, rotated, exported.
* :mod:`~controller.service.edges`, :mod:`~controller.service.camera` — what the service
  needs of the board link and the dice source; the camera's events as inputs.
* :mod:`~controller.service.setup_desk` — the set-up page's side of the board: the lamp and
  button tests between games (:mod:`~controller.service.bench`), the camera looked at and
  calibrated (:mod:`~controller.service.camera_bench`), the links in words.

The simulated table that ``tabula demo`` and the tests run it on is
:mod:`controller.simulated`.
"""

from controller.service.board_status import scene_text
from controller.service.errors import ServiceError
from controller.service.service import Service

__all__ = ["Service", "ServiceError", "scene_text"]
