"""The hub's errors."""

from __future__ import annotations

from hardware.board.errors import TabulaError

__all__ = ["HubError", "ShardError"]


class HubError(TabulaError, RuntimeError):
    """The hub cannot run (its process did not start)."""


class ShardError(HubError, ValueError):
    """A shard that is not one of its hubs (``--shard``)."""
