"""Tabula's board service: the referee's loop joining board, camera, buttons, LEDs, journal.

* :mod:`~controller.service.service` — :class:`Service`, the asyncio shell (a
  :class:`controller.status.BoardService`) around the pure match core
  (:mod:`controller.match`).
* :mod:`~controller.service.simulation`, :mod:`~controller.service.demo` — the simulated
  table (players, camera, pins) for ``tabula demo`` and the tests.
"""

from controller.service.errors import ServiceError
from controller.service.service import Service, scene_text

__all__ = ["Service", "ServiceError", "scene_text"]
