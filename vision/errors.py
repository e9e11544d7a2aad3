"""Errors of the dice reader: a missing camera, an unreadable image, a failed calibration,
a missing model file."""

from __future__ import annotations

from hardware.board.errors import TabulaError

__all__ = ["CalibrationError", "CameraError", "ImageError", "ModelError", "VisionError"]


class VisionError(TabulaError):
    """Base class of the errors raised by :mod:`vision`."""


class CameraError(VisionError, OSError):
    """A frame source cannot be opened or stopped giving frames (camera unplugged)."""


class ImageError(VisionError, ValueError):
    """An image file cannot be decoded, or a frame has the wrong shape or type."""


class CalibrationError(VisionError, ValueError):
    """The board markers were not found, or a stored calibration is malformed."""


class ModelError(VisionError, FileNotFoundError):
    """A learned model of the dice reader is unknown or its file is missing."""
