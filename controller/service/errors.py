"""Exceptions of the board service.

Every class derives from :class:`ServiceError` (itself a :class:`controller.errors.TabulaError`)
and from the builtin that fits.
"""

from __future__ import annotations

from controller.errors import TabulaError
from controller.status import ActionError

__all__ = ["RefusedError", "ServiceError", "first_error"]


class ServiceError(TabulaError):
    """Base class of the errors of :mod:`controller.service`."""


class RefusedError(ServiceError, ActionError):
    """An input or action the match refuses now (no double to answer...): nothing changes."""


def first_error(error: BaseException) -> BaseException:
    """The first error inside (nested) exception groups: what a task of the loop raised.

    Why: a task failing ends the ``TaskGroup`` with an ``ExceptionGroup``; the command line
    shows the error itself (a :class:`~controller.errors.TabulaError` gets a clear message).
    """
    while isinstance(error, BaseExceptionGroup) and error.exceptions:
        error = error.exceptions[0]
    return error
