"""Exceptions of the referee."""

from __future__ import annotations

from hardware.board.errors import TabulaError

__all__ = ["InvalidObservationError", "RefereeError"]


class RefereeError(TabulaError):
    """Base class of the referee's errors."""


class InvalidObservationError(RefereeError, ValueError):
    """Cells that are not 28 locations of two non-negative counts (or None)."""
