"""Each sensor slot's health, judged from a few raw sets: ok, dead, noisy, stuck or open.

Why pure and here: ``tabula doctor`` and the set-up page ask the same question of the same
readings, and a hobbyist needs one line per bad slot that says what to check. The numbers
are the board's own (:class:`~firmware_bridge.messages.HallThresholds`, sent with every
set), so the host judges a slot as the firmware classifies it:

- **dead**: every reading below ``fault_low`` (no signal) or above ``fault_high`` (at the
  rail), which the firmware calls a fault;
- **open**: readings jumping across the range (some outside the working range and some
  inside, or a spread over half of it): a floating input;
- **noisy**: readings spread over more than the hysteresis band (``enter - exit``), so the
  slot's class can flicker;
- **stuck**: given the checkers that lie on the board, a slot that reads a checker where
  none is, or none where one is;
- **ok**: none of these.

Take the sets while nobody touches the board (:meth:`BoardLink.read_raw_sets`); noise
is random, so the more sets the surer: in ten sets, the simulator's noisy slot (+-4000
counts) fails to spread over the 1500 tolerated less than once in 400,000 times.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from firmware_bridge.diagnostics import RawSet
from firmware_bridge.errors import RawSetError
from firmware_bridge.messages import HallThresholds
from hardware.board.errors import LayoutError
from hardware.board.geometry import LOCATIONS, Cell, location_name

__all__ = [
    "NOISE_SETS",
    "SLOT_FAULTS",
    "Health",
    "SlotHealth",
    "classify_slots",
    "describe_slot",
    "parse_slot",
    "slot_label",
]

_ORDINALS = (
    "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth",
    "tenth", "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth",
)  # fmt: skip


class Health(StrEnum):
    """A slot's verdict."""

    OK = "ok"
    DEAD = "dead"
    NOISY = "noisy"
    STUCK = "stuck"
    OPEN = "open"


#: The verdicts that are faults, as the board simulator can break a slot with them.
SLOT_FAULTS: tuple[str, ...] = tuple(health.value for health in Health if health is not Health.OK)


def slot_label(location: int, slot: int) -> str:
    """A slot as a person names it: location 1..28 / sensor 1.., counted from the edge.

    >>> slot_label(12, 1)
    '13/2'
    """
    return f"{location + 1}/{slot + 1}"


def describe_slot(location: int, slot: int) -> str:
    """A slot with its place in words.

    >>> describe_slot(12, 1)
    'slot 13/2 (point 13, second sensor)'
    """
    ordinal = _ORDINALS[slot] if slot < len(_ORDINALS) else f"#{slot + 1}"
    return f"slot {slot_label(location, slot)} ({location_name(location)}, {ordinal} sensor)"


def parse_slot(text: str, layout: Sequence[int]) -> tuple[int, int]:
    """The (location, slot) indices of a label such as ``13/2``, checked against ``layout``.

    Raises:
        LayoutError: if ``text`` is not LOCATION/SENSOR or names no slot of ``layout``.

    >>> parse_slot("13/2", [5] * 24 + [4, 4, 15, 15])
    (12, 1)
    """
    location_text, slash, slot_text = text.partition("/")
    if not (slash and location_text.isdigit() and slot_text.isdigit()):
        raise LayoutError(
            f"slot {text!r}: expected LOCATION/SENSOR, e.g. 13/2 (point 13, second sensor)"
        )
    location, slot = int(location_text) - 1, int(slot_text) - 1
    if not 0 <= location < min(LOCATIONS, len(layout)):
        raise LayoutError(f"slot {text!r}: location {location + 1} is not 1..{LOCATIONS}")
    if not 0 <= slot < layout[location]:
        raise LayoutError(
            f"slot {text!r}: {location_name(location)} has sensors 1..{layout[location]}"
        )
    return location, slot


@dataclass(frozen=True, slots=True)
class SlotHealth:
    """One slot's verdict, the range of its readings, and why in one line."""

    location: int
    slot: int
    health: Health
    low: int
    high: int
    reason: str

    @property
    def label(self) -> str:
        """The slot's label (``13/2``)."""
        return slot_label(self.location, self.slot)


def _counts(low: int, high: int) -> str:
    return f"{low} counts" if low == high else f"{low}..{high} counts"


def _checkers(count: int) -> str:
    return "none" if count == 0 else f"{count} checker{'s' if count > 1 else ''}"


def _stuck_reason(
    readings: Sequence[int], hall: HallThresholds, location: int, slot: int, cell: Cell
) -> str | None:
    """Why a slot disagrees with the checkers lying on its location, or None if it agrees."""
    if cell is None:
        return None
    place = location_name(location)
    present = sum(cell)
    # Checkers fill a location's slots from the edge; the last slot holds any stack.
    expected = slot < present
    seen = [abs(reading - hall.mid) > hall.enter for reading in readings]
    if all(seen) and not expected:
        return f"a checker, but {place} holds {_checkers(present)}: stuck, check the sensor"
    if not any(seen) and expected:
        return (
            f"no checker, but {place} holds {_checkers(present)}: stuck, or the magnet is too far; "
            "check the sensor sits right under the slot"
        )
    return None


def _verdict(
    readings: Sequence[int], hall: HallThresholds, stuck: str | None
) -> tuple[Health, str]:
    """One slot's health and what to do, from its readings (dead, open, noisy, then stuck)."""
    low, high = min(readings), max(readings)
    outside = [not hall.fault_low <= reading <= hall.fault_high for reading in readings]
    if all(outside) and high < hall.fault_low:
        return Health.DEAD, "no signal, check its wire and 3V3"
    if all(outside) and low > hall.fault_high:
        return Health.DEAD, "at the supply rail, check its ground wire"
    if any(outside) or high - low > (hall.fault_high - hall.fault_low) // 2:
        return Health.OPEN, (
            "floating (it jumps across the whole range), check the wire from the sensor's "
            "output to the multiplexer"
        )
    if high - low > hall.enter - hall.exit:
        return Health.NOISY, (
            f"noisy (jumps of {high - low} where the firmware tolerates "
            f"{hall.enter - hall.exit}), check its ground wire and decoupling capacitor"
        )
    if stuck is not None:
        return Health.STUCK, stuck
    return Health.OK, "ok"


#: Raw sets (of distinct scans) to judge a board by: noise shows as the spread between
#: scans. A slot jumping uniformly by
#: +-4000 counts (the simulator's noisy slot) spreads wider than the firmware tolerates
#: (1500) in all but one run in 15,000 with eight scans, one in 200 with five; eight scans
#: take 160 ms of a board scanning every 20 ms.
NOISE_SETS = 8


def classify_slots(
    sets: Sequence[RawSet], expected: Sequence[Cell] | None = None
) -> tuple[SlotHealth, ...]:
    """Every slot's health from ``sets`` (one board, still), in slot order.

    Args:
        sets: raw sets of distinct scans (:meth:`BoardLink.read_raw_sets`).
        expected: the 28 cells really on the board (e.g. the starting position), to find
            stuck slots; without it no slot is called stuck.

    Raises:
        RawSetError: if ``sets`` is empty or mixes boards (layouts or thresholds differ).
        LayoutError: if ``expected`` is not 28 cells.

    >>> from firmware_bridge.messages import HallThresholds, SlotClass
    >>> hall = HallThresholds(32768, 4000, 2500, 11500, 10000, 1000, 64535)
    >>> layout = (5,) * 24 + (4, 4, 15, 15)
    >>> raw = RawSet(1, 1, 0, layout, (0,) + (32768,) * 157, (SlotClass.EMPTY,) * 158, hall)
    >>> classify_slots([raw])[0].reason
    'slot 1/1 (point 1, first sensor) reads 0 counts: no signal, check its wire and 3V3'
    """
    if not sets:
        raise RawSetError("no raw set to judge the slots by: take at least one")
    first = sets[0]
    if any((raw.layout, raw.hall) != (first.layout, first.hall) for raw in sets):
        raise RawSetError("raw sets of different boards (layouts or thresholds differ)")
    if expected is not None and len(expected) != LOCATIONS:
        raise LayoutError(f"{len(expected)} expected cells: expected {LOCATIONS}")
    verdicts = []
    for index, place in enumerate(first.slot_readings()):
        location, slot = place.location, place.slot
        readings = [raw.readings[index] for raw in sets]
        stuck = (
            None
            if expected is None
            else _stuck_reason(readings, first.hall, location, slot, expected[location])
        )
        health, why = _verdict(readings, first.hall, stuck)
        low, high = min(readings), max(readings)
        reason = f"{describe_slot(location, slot)} reads {_counts(low, high)}: {why}"
        verdicts.append(SlotHealth(location, slot, health, low, high, reason))
    return tuple(verdicts)
