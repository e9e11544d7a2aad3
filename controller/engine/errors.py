"""Exceptions of the engine adapters: each names the engine and what it was asked."""

from __future__ import annotations

from hardware.board.errors import TabulaError

__all__ = [
    "EngineError",
    "EngineProtocolError",
    "EngineTimeoutError",
    "EngineUnavailableError",
]


class EngineError(TabulaError):
    """Base class of the engine adapters' errors."""


class EngineUnavailableError(EngineError, OSError):
    """No engine could be started: the program or the bindings are missing or broken."""


class EngineTimeoutError(EngineError, TimeoutError):
    """The engine gave no answer within its time budget; it has been stopped and restarts."""


class EngineProtocolError(EngineError, RuntimeError):
    """The engine answered something the adapter cannot read, or a play the rules reject."""
