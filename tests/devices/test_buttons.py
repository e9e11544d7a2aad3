"""Buttons: presses on mock pins reach the asyncio loop as ButtonPress values, in order."""

from __future__ import annotations

import asyncio
import itertools
import logging
import threading

import pytest
from gpiozero import Button as GpioButton

from controller.devices import ButtonPress, Buttons, DeviceClosedError, PinError
from controller.referee import Button
from tests.devices.conftest import RecordingFactory

PINS = {Button.DONE: 17, Button.UNDO: 27, "accept": 19, Button.DOUBLE: 5}


def ticking() -> itertools.count[float]:
    return itertools.count(100.0)


async def drain(buttons: Buttons, count: int) -> list[ButtonPress]:
    async with asyncio.timeout(2.0):
        return [await buttons.presses.get() for _ in range(count)]


def press(factory: RecordingFactory, pin: int) -> None:
    factory.pin(pin).drive_low()
    factory.pin(pin).drive_high()


def test_presses_reach_the_queue_in_order(mock_factory: RecordingFactory) -> None:
    clock = ticking()

    async def main() -> list[ButtonPress]:
        with Buttons(PINS, clock=lambda: next(clock)) as buttons:
            for pin in (17, 19, 17, 5, 27):
                press(mock_factory, pin)
            got = await drain(buttons, 5)
            assert buttons.presses.empty()
            return got

    assert asyncio.run(main()) == [
        ButtonPress(Button.DONE, 100.0),
        ButtonPress(Button.ACCEPT, 101.0),
        ButtonPress(Button.DONE, 102.0),
        ButtonPress(Button.DOUBLE, 103.0),
        ButtonPress(Button.UNDO, 104.0),
    ]


def test_release_is_not_a_press(mock_factory: RecordingFactory) -> None:
    async def main() -> tuple[int, bool, bool]:
        with Buttons(PINS, clock=lambda: 0.0) as buttons:
            mock_factory.pin(17).drive_low()
            held = buttons.is_pressed(Button.DONE)
            mock_factory.pin(17).drive_high()
            await asyncio.sleep(0.01)
            return buttons.presses.qsize(), held, buttons.is_pressed(Button.DONE)

    assert asyncio.run(main()) == (1, True, False)


def test_presses_from_another_thread(mock_factory: RecordingFactory) -> None:
    async def main() -> list[ButtonPress]:
        with Buttons(PINS, clock=lambda: 1.0) as buttons:
            # As on a Pi, gpiozero's callback runs outside the loop's thread.
            pusher = threading.Thread(target=lambda: [press(mock_factory, p) for p in (27, 19)])
            pusher.start()
            got = await drain(buttons, 2)
            pusher.join()
            return got

    assert asyncio.run(main()) == [
        ButtonPress(Button.UNDO, 1.0),
        ButtonPress(Button.ACCEPT, 1.0),
    ]


def test_async_for_reads_the_presses_in_the_loop(mock_factory: RecordingFactory) -> None:
    seen: list[tuple[ButtonPress, bool]] = []

    async def main() -> None:
        loop_thread = threading.get_ident()
        with Buttons(PINS, clock=lambda: 2.0) as buttons:
            threading.Thread(target=press, args=(mock_factory, 5)).start()
            async with asyncio.timeout(2.0):
                async for p in buttons:
                    seen.append((p, threading.get_ident() == loop_thread))
                    break
            assert buttons.presses.empty()

    asyncio.run(main())
    assert seen == [(ButtonPress(Button.DOUBLE, 2.0), True)]


def test_every_button_of_the_pin_map(mock_factory: RecordingFactory) -> None:
    pins = {name: 2 + i for i, name in enumerate(Button)}

    async def main() -> list[Button]:
        with Buttons(pins, clock=lambda: 0.0) as buttons:
            assert buttons.names == tuple(Button)
            for pin in pins.values():
                press(mock_factory, pin)
            return [p.button for p in await drain(buttons, len(pins))]

    assert asyncio.run(main()) == list(Button)


def test_unknown_button(mock_factory: RecordingFactory) -> None:
    async def main() -> None:
        Buttons({"done": 17, "dubble": 5})

    with pytest.raises(PinError, match=r"^button 'dubble': expected one of done, double, "):
        asyncio.run(main())


def test_close_releases_and_stops(mock_factory: RecordingFactory) -> None:
    async def main() -> int:
        buttons = Buttons(PINS, clock=lambda: 0.0)
        buttons.close()
        buttons.close()
        GpioButton(17).close()  # the pin is free again
        with pytest.raises(DeviceClosedError, match=r"^buttons are closed$"):
            buttons.is_pressed(Button.DONE)
        return buttons.presses.qsize()

    assert asyncio.run(main()) == 0


def test_press_after_the_loop_closed_is_logged(
    mock_factory: RecordingFactory, caplog: pytest.LogCaptureFixture
) -> None:
    loop = asyncio.new_event_loop()
    buttons = Buttons(PINS, loop=loop, clock=lambda: 0.0)
    loop.close()
    with caplog.at_level(logging.WARNING, logger="controller.devices.buttons"):
        press(mock_factory, 17)
    buttons.close()
    assert caplog.messages == ["button done pressed after the service stopped"]
