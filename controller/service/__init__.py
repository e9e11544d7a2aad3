"""Tabula's board service: the referee's loop joining board, camera, buttons, LEDs, journal.

* :mod:`~controller.service.service` — :class:`Service`, the asyncio shell (a
  :class:`controller.status.BoardService`) around the pure match core
  (:mod:`controller.match`).

The simulated table that ``tabula demo`` and the tests run it on is
:mod:`controller.simulated`.
"""

from controller.service.errors import ServiceError
from controller.service.service import Service, scene_text

__all__ = ["Service", "ServiceError", "scene_text"]
