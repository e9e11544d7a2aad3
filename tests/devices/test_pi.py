"""All devices from the configuration's [gpio] section, on gpiozero's MockFactory."""

from __future__ import annotations

import asyncio
import dataclasses

import pytest
from gpiozero import DigitalOutputDevice
from gpiozero.exc import GPIOPinInUse

from controller.config import parse_config
from controller.devices import (
    FAULT,
    BoardLeds,
    ButtonPress,
    Colour,
    Lamp,
    Pattern,
    PiDevices,
    Scene,
    ShiftRegisterLeds,
    StatusLeds,
    frame_bits,
)
from controller.referee import Button
from firmware_bridge import LedFrame, led_frame
from tests.devices.conftest import Clock, RecordingFactory, bits_at_rising_edges

#: The reference pin map's status LED (hardware/pinmap.toml): red, green, blue.
RED, GREEN, BLUE = 24, 23, 25
STATUS = (RED, GREEN, BLUE)

SCENE = Scene.of({4: Lamp(Colour.GREEN), 25: Lamp(Colour.RED)}, status=Lamp(Colour.RED))


def test_shift_register_config(mock_factory: RecordingFactory) -> None:
    gpio = parse_config("[gpio]\npin_factory = 'mock'\nleds = 'shift-register'").gpio
    sent: list[LedFrame] = []

    async def main() -> ButtonPress:
        with PiDevices.open(gpio, send_leds=sent.append, clock=lambda: 5.0) as pi:
            assert isinstance(pi.leds, ShiftRegisterLeds)
            start = mock_factory.levels((10, 11, 8, 7))
            mock_factory.log.clear()
            await pi.leds.show(SCENE)
            assert bits_at_rising_edges(mock_factory.log, start, 10, 11) == list(
                frame_bits(SCENE, 0)
            )
            assert mock_factory.levels((24, 23, 25)) == {24: True, 23: False, 25: False}
            mock_factory.pin(19).drive_low()
            mock_factory.pin(19).drive_high()
            assert pi.buzzer is not None
            mock_factory.pin(18).clear_states()
            await pi.buzzer.sound(FAULT)
            assert [s.state for s in mock_factory.pin(18).states] == [False] + [True, False] * 3
            async with asyncio.timeout(2.0):
                return await pi.buttons.presses.get()

    assert asyncio.run(main()) == ButtonPress(Button.ACCEPT, 5.0)
    assert sent == []
    # Everything was released: the pins can be claimed again.
    DigitalOutputDevice(10).close()
    DigitalOutputDevice(19).close()


def test_board_config(mock_factory: RecordingFactory) -> None:
    gpio = parse_config("").gpio
    sent: list[LedFrame] = []

    async def main() -> None:
        with PiDevices.open(gpio, send_leds=sent.append) as pi:
            assert isinstance(pi.leds, BoardLeds)
            await pi.leds.show(SCENE.with_status(Lamp(Colour.AMBER, Pattern.SLOW)))
            # every button of the pin map: all but Demand (Undo while a play is flagged)
            assert set(pi.buttons.names) == set(Button) - {Button.DEMAND}

    asyncio.run(main())
    assert sent == [
        led_frame(SCENE.with_status(Lamp(Colour.AMBER, Pattern.SLOW))),
        led_frame(Scene()),
    ]
    assert mock_factory.log.count((10, True)) == 0  # no chain on the Pi


def test_board_leds_blink_the_pis_status_led_too(mock_factory: RecordingFactory) -> None:
    """The board's chain cannot show a board that is unplugged: the Pi's status LED can."""
    gpio = parse_config("").gpio
    clock = Clock(0.0)

    async def main() -> None:
        with PiDevices.open(gpio, send_leds=lambda frame: None, clock=clock) as pi:
            assert pi.leds is not None
            await pi.leds.show(SCENE.with_status(Lamp(Colour.AMBER, Pattern.SLOW)))
            assert mock_factory.levels(STATUS) == {RED: True, GREEN: True, BLUE: False}
            clock.now = 0.75  # slow: lit the first half of each second
            pi.leds.tick()
            assert mock_factory.levels(STATUS) == {RED: False, GREEN: False, BLUE: False}
            clock.now = 1.25
            pi.leds.tick()
            assert mock_factory.levels(STATUS) == {RED: True, GREEN: True, BLUE: False}

    asyncio.run(main())
    assert mock_factory.levels(STATUS) == {RED: False, GREEN: False, BLUE: False}


def test_no_location_leds_keeps_the_status_led(mock_factory: RecordingFactory) -> None:
    """``leds = "none"``: the Pi's status LED still shows the status lamp (a link down)."""
    gpio = parse_config("[gpio]\nleds = 'none'").gpio
    clock = Clock(0.0)
    sent: list[LedFrame] = []

    async def main() -> None:
        with PiDevices.open(gpio, send_leds=sent.append, clock=clock) as pi:
            assert isinstance(pi.leds, StatusLeds)
            await pi.leds.show(SCENE.with_status(Lamp(Colour.RED, Pattern.FLASH)))
            assert mock_factory.levels(STATUS) == {RED: True, GREEN: False, BLUE: False}
            clock.now = 0.5  # a flash is lit 100 ms a second
            pi.leds.tick()
            assert mock_factory.levels(STATUS) == {RED: False, GREEN: False, BLUE: False}

    asyncio.run(main())
    assert sent == []
    assert mock_factory.levels(STATUS) == {RED: False, GREEN: False, BLUE: False}


def test_no_leds_at_all_without_a_status_led(mock_factory: RecordingFactory) -> None:
    gpio = parse_config("[gpio]\nleds = 'none'").gpio
    bare = dataclasses.replace(
        gpio, pins=dataclasses.replace(gpio.pins, status_led_red=None, status_led_green=None)
    )

    async def main() -> None:
        with PiDevices.open(bare, send_leds=lambda frame: None) as pi:
            assert pi.leds is None

    asyncio.run(main())


def test_a_failure_releases_what_was_opened(mock_factory: RecordingFactory) -> None:
    gpio = parse_config("[gpio]\nleds = 'shift-register'").gpio
    clash = dataclasses.replace(gpio, pins=dataclasses.replace(gpio.pins, buzzer=17))

    async def main() -> None:
        PiDevices.open(clash, send_leds=lambda frame: None)

    with pytest.raises(GPIOPinInUse):
        asyncio.run(main())
    DigitalOutputDevice(10).close()
    DigitalOutputDevice(17).close()
