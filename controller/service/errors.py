"""Exceptions of the board service.

Every class derives from :class:`ServiceError` (itself a :class:`hardware.board.errors.TabulaError`)
and from the builtin that fits.
"""

from __future__ import annotations

from controller.status import ActionError
from hardware.board.errors import TabulaError

__all__ = ["RefusedError", "ServiceError"]


class ServiceError(TabulaError):
    """Base class of the errors of :mod:`controller.service`."""


class RefusedError(ServiceError, ActionError):
    """An input or action the match refuses now (no double to answer...): nothing changes."""
