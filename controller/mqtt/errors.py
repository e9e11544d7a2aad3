"""The MQTT package's errors: bad topics and payloads (from another board, another version)."""

from __future__ import annotations

from hardware.board.errors import TabulaError

__all__ = ["MqttError", "PayloadError", "TopicError"]


class MqttError(TabulaError):
    """Root of the errors of :mod:`controller.mqtt`."""


class TopicError(MqttError, ValueError):
    """A topic that is not one of Tabula's (``<prefix>/<board-id>/status|events|online``)."""


class PayloadError(MqttError, ValueError):
    """A payload that is not the JSON of its topic, or of another version."""
