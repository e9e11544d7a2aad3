"""The board's pin map (``hardware/pinmap.toml``) as the host reads it.

Why a file, not prose: the firmware reads the same file on the board
(``hardware/firmware/pinmap.py``), so the host's simulator, the service's GPIO and the
board cannot disagree on slots, thresholds or pins.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, cast

from firmware_bridge.errors import BridgeError
from hardware.board import toml_text
from hardware.board.json_types import is_integer
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


_LISTS = frozenset({"mux_select", "mux_enable", "mux_adc"})
"""The ``[rp2040]`` keys whose values are lists of pins."""


def _expected(table: str, key: str, value: object) -> str | None:
    """What the value of ``[table] key`` must be, if ``value`` is not that; else None."""
    if table == "pi":  # pins, and the serial device's path
        return None if is_integer(value) or isinstance(value, str) else "a pin or a path"
    if key in _LISTS:
        ok = isinstance(value, list) and bool(value) and all(map(is_integer, value))
        return None if ok else "a list of pins"
    return None if is_integer(value) else "an integer"


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
        data = toml_text.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:  # ValueError: not UTF-8, or not TOML
        raise PinmapError(f"pin map {str(path)!r}: {error}") from None
    for table, keys in _REQUIRED.items():
        section = data.get(table, {})
        if not isinstance(section, dict):
            raise PinmapError(f"pin map {str(path)!r}: [{table}] is not a table")
        for key in keys:
            if key not in section:
                raise PinmapError(f"pin map {str(path)!r}: missing [{table}] {key}")
        for key, value in section.items():
            expected = _expected(table, key, value)
            if expected:
                raise PinmapError(
                    f"pin map {str(path)!r}: [{table}] {key} is {expected}, got {value!r}"
                )
    pinmap = cast("Pinmap", data)  # its tables, keys and values checked above
    slots = sum(slots_per_location(pinmap))
    rp2040 = pinmap["rp2040"]
    capacity = len(rp2040["mux_enable"]) * pinmap["sensors"]["mux_channels"]
    if slots > capacity or len(rp2040["mux_adc"]) != len(rp2040["mux_enable"]):
        raise PinmapError(
            f"pin map {str(path)!r}: {slots} slots on {capacity} multiplexer inputs, "
            "with one ADC pin per multiplexer"
        )
    return pinmap
