"""Exceptions of the board service.

Every class derives from :class:`ServiceError` (itself a :class:`hardware.board.errors.TabulaError`)
and from the builtin that fits. What the match refuses is the match core's
:class:`controller.match.RefusedError`.
"""

from __future__ import annotations

from hardware.board.errors import TabulaError

__all__ = ["ServiceError", "first_error"]


class ServiceError(TabulaError):
    """Base class of the errors of :mod:`controller.service`."""


def first_error(error: BaseException) -> BaseException:
    """The first error inside (nested) exception groups: what a task of the loop raised.

    Why: a task failing ends the ``TaskGroup`` with an ``ExceptionGroup``; the command line
    shows the error itself (a :class:`~hardware.board.errors.TabulaError` gets a clear message).
    """
    while isinstance(error, BaseExceptionGroup) and error.exceptions:
        error = error.exceptions[0]
    return error
