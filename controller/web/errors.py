"""The web view's errors."""

from __future__ import annotations

from hardware.board.errors import TabulaError

__all__ = ["BadRequestError", "WebError"]


class WebError(TabulaError, OSError):
    """The page cannot be served (its address is taken or not the machine's)."""


class BadRequestError(TabulaError, ValueError):
    """A request refused as it stands: :attr:`status` is its 4xx, the message says why."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
