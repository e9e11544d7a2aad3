"""Exceptions of the Pi's own devices (LEDs, buttons, buzzer).

Every class derives from :class:`DevicesError` (itself a
:class:`hardware.board.errors.TabulaError`) and from the builtin that fits.
"""

from __future__ import annotations

from hardware.board.errors import SceneError, TabulaError

__all__ = [
    "DeviceClosedError",
    "DevicesError",
    "GpioUnavailableError",
    "PinError",
    "PinFactoryError",
    "SceneError",
]


class DevicesError(TabulaError):
    """Base class of the errors of :mod:`controller.devices`."""


class PinFactoryError(DevicesError, ValueError):
    """A gpiozero pin factory name that no installed back-end answers to."""


class PinError(DevicesError, ValueError):
    """A pin assignment that cannot work: an unknown button, a missing pin."""


class GpioUnavailableError(DevicesError, OSError):
    """The chosen pin factory is installed but cannot reach the GPIO (not a Pi, no rights)."""


class DeviceClosedError(DevicesError, RuntimeError):
    """A device was used after its ``close()``."""
