"""Exceptions of the board service.

Every class derives from :class:`ServiceError` (itself a :class:`hardware.board.errors.TabulaError`)
and from the builtin that fits. What the match refuses is the match core's
:class:`controller.match.RefusedError`.
"""

from __future__ import annotations

from hardware.board.errors import TabulaError

__all__ = ["ServiceError"]


class ServiceError(TabulaError):
    """Base class of the errors of :mod:`controller.service`."""
