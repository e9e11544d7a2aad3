"""Sets of raw readings from the board (DIAGNOSTIC frames, protocol 1.1), no I/O.

Why an assembler: a set of every slot's reading is larger than one frame, so the board
sends it as several DIAGNOSTIC frames carrying one set number; a set is used only when
every slot arrived, from one set, in order. A lost, corrupt or foreign frame makes the
set an error that says which, never half a set (``hardware/PROTOCOL.md`` section 3).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from firmware_bridge.errors import RawSetError
from firmware_bridge.messages import Diagnostic, HallThresholds, SlotClass
from hardware.board.geometry import LOCATIONS

__all__ = ["RawSet", "RawSetAssembler", "SlotReading"]


@dataclass(frozen=True, slots=True)
class SlotReading:
    """One slot's raw reading: where it is, its ADC counts and the firmware's class."""

    location: int
    slot: int
    reading: int
    cls: SlotClass


@dataclass(frozen=True, slots=True)
class RawSet:
    """Every slot's reading and class from one scan of the board.

    Attributes:
        number: the board's set number (wraps at 65536).
        scan: the board's scan counter when it was read (wraps at 65536): two sets of
            the same scan hold the same readings.
        event: the board's event number then.
        layout: the slots of each of the 28 locations (HELLO's), in slot order.
        readings: ADC counts, one per slot, in slot order (PROTOCOL.md section 2).
        classes: the firmware's debounced class of each slot.
        hall: the thresholds the board classifies with.
    """

    number: int
    scan: int
    event: int
    layout: tuple[int, ...]
    readings: tuple[int, ...]
    classes: tuple[SlotClass, ...]
    hall: HallThresholds

    def __post_init__(self) -> None:
        slots = sum(self.layout)
        if len(self.layout) != LOCATIONS or not len(self.readings) == len(self.classes) == slots:
            raise RawSetError(
                f"raw set of {len(self.readings)} readings and {len(self.classes)} classes "
                f"for {len(self.layout)} locations of {slots} slots: expected one per slot"
            )

    def slot_readings(self) -> tuple[SlotReading, ...]:
        """Every slot's reading with its location and slot index, in slot order."""
        places = [(location, slot) for location, n in enumerate(self.layout) for slot in range(n)]
        return tuple(
            SlotReading(location, slot, reading, cls)
            for (location, slot), reading, cls in zip(
                places, self.readings, self.classes, strict=True
            )
        )


class RawSetAssembler:
    """Joins the DIAGNOSTIC frames of one answer into a :class:`RawSet`.

    Args:
        layout: the slots of each location, as HELLO announced them.
    """

    def __init__(self, layout: Sequence[int]) -> None:
        self._layout = tuple(layout)
        self._total = sum(self._layout)
        self._parts: list[Diagnostic] = []

    @property
    def progress(self) -> str:
        """What has arrived, in words (``slots 0..63 of 158 from set 4``)."""
        if not self._parts:
            return "no diagnostic frame"
        first = self._parts[0]
        end = self._next_slot() - 1
        return f"slots 0..{end} of {first.total} from set {first.set_number}"

    def _next_slot(self) -> int:
        last = self._parts[-1]
        return last.first + len(last.readings)

    def feed(self, part: Diagnostic) -> RawSet | None:
        """Take one frame; the whole set once its last slot arrived, else None.

        Raises:
            RawSetError: on a frame that does not continue the set (a frame lost, another
                set's frame mixed in, a set of another size than HELLO's).
        """
        if part.total != self._total:
            raise RawSetError(
                f"corrupt raw set {part.set_number}: {part.total} slots, but the board "
                f"announced {self._total} in HELLO"
            )
        if self._parts:
            head = self._parts[0]
            if (part.set_number, part.scan, part.event, part.hall) != (
                head.set_number,
                head.scan,
                head.event,
                head.hall,
            ):
                raise RawSetError(
                    f"mixed raw set: slots {part.first}.. of set {part.set_number} "
                    f"after {self.progress}"
                )
            expected = self._next_slot()
        else:
            expected = 0
        if part.first != expected:
            raise RawSetError(
                f"short raw set {part.set_number}: slots {expected}..{part.first - 1} "
                f"missing (a frame was lost) after {self.progress}"
            )
        self._parts.append(part)
        if self._next_slot() < self._total:
            return None
        return RawSet(
            number=part.set_number,
            scan=part.scan,
            event=part.event,
            layout=self._layout,
            readings=tuple(r for p in self._parts for r in p.readings),
            classes=tuple(c for p in self._parts for c in p.classes),
            hall=part.hall,
        )
