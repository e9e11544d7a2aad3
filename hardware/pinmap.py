"""The board's pin map (``hardware/pinmap.toml``) as the host reads it.

Why a file, not prose: the firmware reads the same file on the board
(``hardware/firmware/pinmap.py``), so the host's simulator, the service's GPIO and the
board cannot disagree on slots, thresholds or pins.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import TYPE_CHECKING, cast

from firmware_bridge.errors import BridgeError
from hardware.firmware.pinmap import slots_per_location

if TYPE_CHECKING:
    from hardware.firmware.pinmap import Pinmap

__all__ = ["PINMAP_PATH", "PinmapError", "load_pinmap", "slots_per_location"]

#: The reference board's pin map, shipped with the package.
PINMAP_PATH = Path(__file__).with_name("pinmap.toml")

_REQUIRED = {
    "sensors": ("point_slots", "bar_slots", "tray_slots", "mux_channels"),
    "rp2040": ("mux_select", "mux_enable", "mux_adc", "mux_settle_us", "led_data", "led_count"),
    "hall": ("mid", "enter", "exit", "stack_enter", "stack_exit", "fault_low", "fault_high"),
    "firmware": ("scan_period_ms", "stable_scans", "heartbeat_ms", "ring_size"),
    "pi": ("button_done", "button_undo", "buzzer", "serial_device"),
}


class PinmapError(BridgeError, ValueError):
    """The pin map file is missing a key or has an impossible value."""


def load_pinmap(path: Path | None = None) -> Pinmap:
    """Read and check a pin map.

    Raises:
        PinmapError: if the file cannot be read or parsed, or misses a key, or the
            multiplexers cannot hold every slot.
    """
    path = path or PINMAP_PATH
    try:
        data = tomllib.loads(path.read_text())
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise PinmapError(f"pin map {str(path)!r}: {error}") from None
    for table, keys in _REQUIRED.items():
        for key in keys:
            if key not in data.get(table, {}):
                raise PinmapError(f"pin map {str(path)!r}: missing [{table}] {key}")
    pinmap = cast("Pinmap", data)  # its tables and keys checked above
    slots = sum(slots_per_location(pinmap))
    capacity = len(data["rp2040"]["mux_enable"]) * data["sensors"]["mux_channels"]
    if slots > capacity or len(data["rp2040"]["mux_adc"]) != len(data["rp2040"]["mux_enable"]):
        raise PinmapError(
            f"pin map {str(path)!r}: {slots} slots on {capacity} multiplexer inputs, "
            "with one ADC pin per multiplexer"
        )
    return pinmap
