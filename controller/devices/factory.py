"""Choosing gpiozero's pin factory by name, once, from the configuration.

Why not ``GPIOZERO_PIN_FACTORY`` alone: the service reads its back-ends from its TOML
file, and a wrong name or a Pi without GPIO access must stop it with a message naming
the setting, not with gpiozero's silent fall-back from one factory to the next.
"""

from __future__ import annotations

import difflib
from importlib.metadata import EntryPoint, entry_points
from typing import Protocol

from controller.devices.errors import GpioUnavailableError, PinFactoryError

__all__ = ["PIN_FACTORIES", "PinFactory", "make_pin_factory"]

#: gpiozero's own factories: ``lgpio`` is the one for a Raspberry Pi (``pip install
#: lgpio`` or Debian's ``python3-lgpio``), ``mock`` the simulated pins of the demo.
PIN_FACTORIES = ("lgpio", "rpigpio", "pigpio", "native", "mock")


class PinFactory(Protocol):
    """What the devices need of a gpiozero pin factory (``gpiozero.Factory``).

    Why a protocol: gpiozero ships no types, and the devices only hand the factory on to
    gpiozero's own classes; this names the part of its interface Tabula relies on.
    """

    def pin(self, name: int | str) -> object:
        """The factory's pin of that name (a BCM number, or ``GPIO17``...)."""

    def close(self) -> None:
        """Release every pin the factory opened."""


def _installed() -> dict[str, EntryPoint]:
    return {ep.name: ep for ep in entry_points(group="gpiozero_pin_factories")}


def make_pin_factory(name: str) -> PinFactory:
    """A new gpiozero pin factory of that name (``lgpio``, ``mock``...).

    Raises:
        PinFactoryError: if no installed factory has that name.
        GpioUnavailableError: if the factory's library is missing or cannot reach the
            GPIO (not a Pi, no access to ``/dev/gpiochip*``).
    """
    installed = _installed()
    if name not in installed:
        close = difflib.get_close_matches(name, list(installed), n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise PinFactoryError(
            f"pin factory {name!r}: expected one of {', '.join(sorted(installed))}{hint}"
        )
    try:
        factory: PinFactory = installed[name].load()()
    except Exception as error:
        # gpiozero's factories raise whatever their library does (ImportError,
        # lgpio.error, PinUnknownPi...): the caller only needs to know it cannot run.
        raise GpioUnavailableError(
            f"pin factory {name!r} cannot start: {type(error).__name__}: {error}"
        ) from error
    return factory
