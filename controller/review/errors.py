"""Exceptions of the post-game review and of the learner's aids."""

from __future__ import annotations

from hardware.board.errors import TabulaError

__all__ = ["AidForbiddenError", "ReviewError"]


class ReviewError(TabulaError):
    """Base class of the review's errors."""


class AidForbiddenError(ReviewError, PermissionError):
    """A hint or a review was asked for where the rules of play forbid aids (``recorder``)."""
