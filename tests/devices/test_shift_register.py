"""The 74HC595 chain: the bits, their order on the pins, the latch, /OE, blinking, close."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from gpiozero import DigitalOutputDevice

from controller.devices import (
    DARK,
    Colour,
    DeviceClosedError,
    Lamp,
    Pattern,
    Scene,
    SceneError,
    ShiftRegisterLeds,
    frame_bits,
    phase_ms,
)
from tests.devices.conftest import Clock, RecordingFactory, bits_at_rising_edges

DATA, CLOCK, LATCH, ENABLE = 10, 11, 8, 7
RED, GREEN, BLUE = 24, 23, 25
PINS = (DATA, CLOCK, LATCH, ENABLE)

#: Point 1 red, point 2 green, tray of player 1 amber.
SCENE = Scene.of({0: Lamp(Colour.RED), 1: Lamp(Colour.GREEN), 27: Lamp(Colour.AMBER)})
#: Its 56 bits in shift order: the far register's QH (tray 1 green) first, point 1 red last.
SCENE_BITS = [1, 1] + [0] * 50 + [1, 0, 0, 1]


def chain(
    factory: RecordingFactory, clock: Clock | None = None, **options: Any
) -> ShiftRegisterLeds:
    """The chain on the test pins (``factory`` is the default factory already)."""
    return ShiftRegisterLeds(DATA, CLOCK, LATCH, enable=ENABLE, clock_s=clock or Clock(), **options)


def test_frame_bits_order() -> None:
    assert list(frame_bits(SCENE, 0)) == SCENE_BITS


def test_frame_bits_per_location() -> None:
    # Location k's green die is shifted at 55 - (2k + 1), its red die right after it.
    for location in range(28):
        for colour, expected in ((Colour.RED, (0, 1)), (Colour.GREEN, (1, 0))):
            bits = frame_bits(Scene.of({location: Lamp(colour)}), 0)
            at = 55 - (2 * location + 1)
            assert (bits[at], bits[at + 1]) == expected, (location, colour)
            assert sum(bits) == 1, (location, colour)


def test_frame_bits_padding_goes_first() -> None:
    bits = frame_bits(SCENE, 0, registers=8)
    assert list(bits) == [0] * 8 + SCENE_BITS


def test_frame_bits_too_few_registers() -> None:
    with pytest.raises(SceneError, match=r"^6 shift registers: at least 7 needed for 56 bits$"):
        frame_bits(SCENE, 0, registers=6)


def test_frame_bits_blink_phases() -> None:
    lamps = {
        0: Lamp(Colour.RED, Pattern.SLOW),
        1: Lamp(Colour.RED, Pattern.FAST),
        2: Lamp(Colour.RED, Pattern.FLASH),
    }
    scene = Scene.of(lamps)

    def lit(phase: int) -> list[int]:
        bits = frame_bits(scene, phase)
        return [bits[55 - 2 * location] for location in (0, 1, 2)]

    assert [lit(t) for t in (0, 99, 100, 125, 250, 499, 500, 750, 999)] == [
        [1, 1, 1],
        [1, 1, 1],
        [1, 1, 0],
        [1, 0, 0],
        [1, 1, 0],
        [1, 0, 0],
        [0, 1, 0],
        [0, 1, 0],
        [0, 0, 0],
    ]


def test_phase_ms() -> None:
    assert [phase_ms(t) for t in (0.0, 0.4999, 1.0, 3601.25)] == [0, 499, 0, 250]


def test_show_shifts_the_bits_in_order(mock_factory: RecordingFactory) -> None:
    with chain(mock_factory) as leds:
        start = mock_factory.levels(PINS)
        mock_factory.log.clear()
        leds.display(SCENE)
        assert bits_at_rising_edges(mock_factory.log, start, DATA, CLOCK) == SCENE_BITS
        assert leds.latched == tuple(SCENE_BITS)
        assert leds.frames == 1


def test_latch_pulses_once_after_the_last_clock(mock_factory: RecordingFactory) -> None:
    with chain(mock_factory) as leds:
        mock_factory.pin(LATCH).clear_states()
        mock_factory.pin(CLOCK).clear_states()
        mock_factory.log.clear()
        leds.display(SCENE)
        assert [s.state for s in mock_factory.pin(LATCH).states] == [False, True, False]
        assert [s.state for s in mock_factory.pin(CLOCK).states] == [False] + [True, False] * 56
        # Clock pulses, then the latch pulse, then /OE goes low: nothing after it.
        tail = [event for event in mock_factory.log if event[0] != DATA][-4:]
        assert tail == [(CLOCK, False), (LATCH, True), (LATCH, False), (ENABLE, False)]


def test_outputs_stay_disabled_until_the_first_frame(mock_factory: RecordingFactory) -> None:
    leds = chain(mock_factory)
    assert mock_factory.pin(ENABLE).state is True
    assert [s.state for s in mock_factory.pin(LATCH).states] == [False]
    leds.display(DARK)
    assert mock_factory.pin(ENABLE).state is False
    leds.close()


def test_scene_change_shifts_the_new_frame(mock_factory: RecordingFactory) -> None:
    with chain(mock_factory) as leds:
        leds.display(SCENE)
        start = mock_factory.levels(PINS)
        mock_factory.log.clear()
        leds.display(Scene.of({13: Lamp(Colour.AMBER)}))
        expected = [0] * 28 + [1, 1] + [0] * 26
        assert bits_at_rising_edges(mock_factory.log, start, DATA, CLOCK) == expected
        assert leds.frames == 2


def test_the_same_frame_is_not_shifted_again(mock_factory: RecordingFactory) -> None:
    with chain(mock_factory) as leds:
        leds.display(SCENE)
        mock_factory.log.clear()
        leds.display(SCENE)
        leds.tick()
        assert mock_factory.log == []
        assert leds.frames == 1


def test_tick_follows_the_clock(mock_factory: RecordingFactory) -> None:
    clock = Clock(10.0)
    scene = Scene.of({0: Lamp(Colour.GREEN, Pattern.SLOW)})
    with chain(mock_factory, clock) as leds:
        leds.display(scene)
        lit = [0] * 54 + [1, 0]
        assert leds.latched == tuple(lit)
        clock.now = 10.3
        leds.tick()
        assert leds.frames == 1
        clock.now = 10.5
        start = mock_factory.levels(PINS)
        mock_factory.log.clear()
        leds.tick()
        assert bits_at_rising_edges(mock_factory.log, start, DATA, CLOCK) == [0] * 56
        clock.now = 11.0
        leds.tick()
        assert leds.latched == tuple(lit)
        assert leds.frames == 3


def test_show_is_a_coroutine(mock_factory: RecordingFactory) -> None:
    with chain(mock_factory) as leds:
        asyncio.run(leds.show(SCENE))
        assert leds.scene == SCENE
        assert leds.latched == tuple(SCENE_BITS)


def test_close_darkens_disables_and_releases(mock_factory: RecordingFactory) -> None:
    leds = chain(mock_factory)
    leds.display(SCENE)
    start = mock_factory.levels(PINS)
    mock_factory.log.clear()
    leds.close()
    assert bits_at_rising_edges(mock_factory.log, start, DATA, CLOCK) == [0] * 56
    assert mock_factory.log[-1] == (ENABLE, True)
    leds.close()
    with pytest.raises(DeviceClosedError, match=r"^shift-register LED chain is closed$"):
        leds.display(SCENE)
    # The pins are free again.
    DigitalOutputDevice(DATA).close()


def test_no_enable_pin(mock_factory: RecordingFactory) -> None:
    with ShiftRegisterLeds(DATA, CLOCK, LATCH, clock_s=Clock()) as leds:
        start = mock_factory.levels((DATA, CLOCK, LATCH))
        mock_factory.log.clear()
        leds.display(SCENE)
        assert bits_at_rising_edges(mock_factory.log, start, DATA, CLOCK) == SCENE_BITS
        assert {pin for pin, _ in mock_factory.log} == {DATA, CLOCK, LATCH}


def test_bad_register_count_claims_no_pin(mock_factory: RecordingFactory) -> None:
    with pytest.raises(SceneError, match=r"^5 shift registers"):
        chain(mock_factory, registers=5)
    DigitalOutputDevice(DATA).close()


def test_status_rgb_led_blinks_with_the_tick(mock_factory: RecordingFactory) -> None:
    clock = Clock(0.0)
    with chain(mock_factory, clock, status_pins=(RED, GREEN, BLUE)) as leds:
        leds.display(DARK.with_status(Lamp(Colour.AMBER, Pattern.FAST)))
        assert mock_factory.levels((RED, GREEN, BLUE)) == {RED: True, GREEN: True, BLUE: False}
        clock.now = 0.2
        leds.tick()
        assert mock_factory.levels((RED, GREEN, BLUE)) == {RED: False, GREEN: False, BLUE: False}
        leds.display(DARK.with_status(Lamp(Colour.GREEN)))
        assert [s.state for s in mock_factory.pin(GREEN).states] == [False, True, False, True]
        assert [s.state for s in mock_factory.pin(RED).states] == [False, True, False]
        assert [s.state for s in mock_factory.pin(BLUE).states] == [False]
        # Status changes alone do not reshift the chain.
        assert leds.frames == 1
    assert mock_factory.levels((RED, GREEN, BLUE)) == {RED: False, GREEN: False, BLUE: False}


def test_status_red_green_pair(mock_factory: RecordingFactory) -> None:
    with chain(mock_factory, status_pins=(RED, GREEN)) as leds:
        for colour, levels in (
            (Colour.RED, {RED: True, GREEN: False}),
            (Colour.AMBER, {RED: True, GREEN: True}),
            (Colour.GREEN, {RED: False, GREEN: True}),
            (Colour.OFF, {RED: False, GREEN: False}),
        ):
            leds.display(DARK.with_status(Lamp(colour)))
            assert mock_factory.levels((RED, GREEN)) == levels, colour
