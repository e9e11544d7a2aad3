"""The hub's errors."""

from __future__ import annotations

from hardware.board.errors import TabulaError

__all__ = ["HubError"]


class HubError(TabulaError, RuntimeError):
    """The hub cannot run (its process did not start)."""
