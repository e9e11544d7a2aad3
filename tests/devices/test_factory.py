"""Choosing gpiozero's pin factory by name."""

from __future__ import annotations

from importlib.metadata import entry_points
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from controller.config import PIN_FACTORY_NAMES
from controller.devices import (
    PIN_FACTORIES,
    GpioUnavailableError,
    PinFactoryError,
    make_pin_factory,
)


def test_mock_factory() -> None:
    factory = make_pin_factory("mock")
    try:
        assert type(factory) is MockFactory
    finally:
        factory.close()


def test_unknown_name_suggests_the_closest() -> None:
    with pytest.raises(
        PinFactoryError,
        match=r"^pin factory 'lgpi': expected one of lgpio, mock, native, pigpio, rpigpio "
        r"\(did you mean 'lgpio'\?\)$",
    ):
        make_pin_factory("lgpi")


def test_known_names_are_gpiozero_entry_points() -> None:
    installed = {ep.name for ep in entry_points(group="gpiozero_pin_factories")}
    assert set(PIN_FACTORIES) <= installed
    # The configuration checks the same names without importing gpiozero.
    assert PIN_FACTORY_NAMES == PIN_FACTORIES


@pytest.mark.skipif(Path("/dev/gpiochip0").exists(), reason="this machine has GPIO")
def test_lgpio_without_gpio_says_why() -> None:
    with pytest.raises(GpioUnavailableError, match=r"^pin factory 'lgpio' cannot start: "):
        make_pin_factory("lgpio")
