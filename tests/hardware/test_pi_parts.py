"""The bill of materials has the parts the Pi's pin map and the LED chain need."""

from __future__ import annotations

import csv
from pathlib import Path

from controller.config import BUTTON_PINS
from controller.devices import REGISTERS
from hardware.board.geometry import LOCATIONS
from hardware.pinmap import load_pinmap

BOM = Path(__file__).parents[2] / "hardware" / "bom.csv"


def _quantities() -> dict[str, int]:
    with BOM.open() as handle:
        return {row["part"]: int(row["qty"]) for row in csv.DictReader(handle)}


def test_one_push_button_per_button_pin() -> None:
    pins = load_pinmap()["pi"]
    wired = [name for name in BUTTON_PINS if f"button_{name}" in pins]
    assert _quantities()["12 mm tactile push button"] == len(wired) == len(BUTTON_PINS)


def test_the_shift_register_option() -> None:
    rows = _quantities()
    assert rows["74HC595"] == REGISTERS == 7
    assert rows["bicolour red/green LED 3 mm common cathode"] == LOCATIONS
    assert rows["470 ohm"] == 2 * LOCATIONS


def test_rgb_status_led() -> None:
    pins = load_pinmap()["pi"]
    assert {"status_led_red", "status_led_green", "status_led_blue"} <= set(pins)
    assert _quantities()["RGB LED 5 mm common cathode"] == 1
