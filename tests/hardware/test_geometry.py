"""The firmware's copy of the board's geometry agrees with :mod:`hardware.board.geometry`.

Why a copy: the firmware runs on MicroPython and imports nothing of the host's packages,
so its numbers are written twice; this test is what keeps them one.
"""

from __future__ import annotations

from firmware_bridge.layout import UNKNOWN_CELL
from hardware.board.geometry import BARS, CHECKERS, LOCATIONS, POINTS, TRAYS
from hardware.firmware import app, scanner
from hardware.firmware import pinmap as firmware_pinmap
from hardware.pinmap import load_pinmap, slots_per_location


def test_the_firmware_counts_the_same_locations_and_checkers() -> None:
    assert (app.LOCATIONS, app.LED_COUNT) == (LOCATIONS, LOCATIONS + 1)
    assert scanner.CHECKERS == CHECKERS
    assert scanner.UNKNOWN_CELL == UNKNOWN_CELL


def test_the_firmware_orders_the_locations_as_the_host() -> None:
    pins = load_pinmap()
    sensors = pins["sensors"]
    slots = firmware_pinmap.slots_per_location(pins)
    assert slots == slots_per_location(pins)
    assert len(slots) == LOCATIONS
    assert slots[:POINTS] == [sensors["point_slots"]] * POINTS
    assert [slots[bar] for bar in BARS] == [sensors["bar_slots"]] * 2
    assert [slots[tray] for tray in TRAYS] == [sensors["tray_slots"]] * 2
