"""Errors of the serial link to the sensor board.

Every class derives from :class:`BridgeError` (itself a
:class:`hardware.board.errors.TabulaError`) and from the builtin that fits, so callers catch
either "anything the bridge refused" or the usual builtin.
"""

from __future__ import annotations

from hardware.board.errors import TabulaError

__all__ = [
    "BridgeError",
    "DiagnosticsUnsupportedError",
    "FrameError",
    "IncompatibleProtocolError",
    "LinkClosedError",
    "MessageError",
    "RawSetError",
]


class BridgeError(TabulaError):
    """Base class of the errors of :mod:`firmware_bridge`."""


class FrameError(BridgeError, ValueError):
    """A chunk of bytes between two delimiters is not a valid frame (COBS, length or CRC).

    Attributes:
        reason: ``"oversize"``, ``"cobs"``, ``"length"`` or ``"crc"``, for the counters.
    """

    def __init__(self, message: str, reason: str = "invalid") -> None:
        super().__init__(message)
        self.reason = reason


class MessageError(BridgeError, ValueError):
    """A frame with a good CRC carries a payload its type cannot have."""


class IncompatibleProtocolError(BridgeError, ConnectionError):
    """The board speaks a protocol major version this host does not."""


class LinkClosedError(BridgeError, RuntimeError):
    """The link was used after :meth:`BoardLink.close`."""


class DiagnosticsUnsupportedError(BridgeError, ConnectionError):
    """The board's firmware does not send raw readings (it speaks protocol 1.0): a board
    that cannot answer, not code left unwritten."""


class RawSetError(BridgeError, ValueError):
    """A set of raw readings came short, corrupt or mixed with another set."""
