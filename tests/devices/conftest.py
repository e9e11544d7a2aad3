"""gpiozero's MockFactory, installed fresh for each test, with one log of every pin change.

Why a log across pins: each mock pin keeps its own history, but the shift-register
contract is about order between pins (the data level when the clock rises, the latch
after the last clock), so :class:`RecordingPin` also appends every change to its
factory's log.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPin


class RecordingPin(MockPin):  # type: ignore[misc]
    """A mock pin that also logs each change of state as (BCM number, level)."""

    def _change_state(self, value: bool) -> bool:
        changed: bool = super()._change_state(value)
        if changed:
            self.factory.log.append((int(self.info.name.removeprefix("GPIO")), bool(value)))
        return changed


class RecordingFactory(MockFactory):  # type: ignore[misc]
    """A MockFactory of recording pins; ``log`` lists (pin, level) in the order they happened."""

    def __init__(self) -> None:
        super().__init__(pin_class=RecordingPin)
        self.log: list[tuple[int, bool]] = []

    def levels(self, pins: Sequence[int]) -> dict[int, bool]:
        """The current level of each pin."""
        return {pin: bool(self.pin(pin).state) for pin in pins}


@pytest.fixture
def mock_factory() -> Iterator[RecordingFactory]:
    """A fresh factory as gpiozero's default, reset and removed after the test."""
    previous = Device.pin_factory
    factory = RecordingFactory()
    Device.pin_factory = factory
    try:
        yield factory
    finally:
        factory.reset()
        Device.pin_factory = previous


def bits_at_rising_edges(
    log: Sequence[tuple[int, bool]], start: dict[int, bool], data: int, clock: int
) -> list[int]:
    """The data pin's level at each rising edge of the clock pin, replaying ``log``."""
    levels = dict(start)
    sampled = []
    for pin, level in log:
        if pin == clock and level and not levels[clock]:
            sampled.append(int(levels[data]))
        levels[pin] = level
    return sampled


class Clock:
    """A settable clock in seconds."""

    def __init__(self, now: float = 0.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now
