"""The web view's errors."""

from __future__ import annotations

from controller.errors import TabulaError

__all__ = ["WebError"]


class WebError(TabulaError, OSError):
    """The page cannot be served (its address is taken or not the machine's)."""
