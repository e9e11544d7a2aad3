"""The board's buttons reach the running service as one typed stream of presses.

The pins are gpiozero's MockFactory, opened by :class:`~controller.devices.PiDevices` as
``tabula run`` and the demo open them; the service reads their presses with ``async for``
(its ``buttons`` feed), so the Mode button means the same everywhere: the next mode.
"""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path

from gpiozero.pins.mock import MockFactory

from controller.config import parse_config
from controller.controls import Button, Mode
from controller.devices import PiDevices
from controller.service import Service
from controller.service.service import open_journal
from controller.simulated.table import button_presser, service_progress, until_progress
from tests.firmware_bridge.conftest import PATIENCE_S


async def until_mode(service: Service, mode: Mode) -> None:
    """Wait for the service's status to show ``mode`` (each new status wakes the check)."""
    updates = service.updates()
    try:
        async with asyncio.timeout(PATIENCE_S):
            while service.status().mode != mode.value:
                await anext(updates)
    finally:
        await updates.aclose()


def test_the_mode_button_switches_the_mode(tmp_path: Path) -> None:
    """Before, only ``tabula run`` turned Mode into the next mode; the demo's wiring handed
    it to the match as any other button, which refused it and kept the mode."""

    async def main() -> None:
        with open_journal(tmp_path / "mode.sqlite3") as journal:
            service = Service("b1", journal)
            task = asyncio.create_task(service.run())
            try:
                service.press(Button.MODE)
                await until_mode(service, Mode.LEARNER)
                service.press(Button.MODE)
                await until_mode(service, Mode.RECORDER)
            finally:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task

    asyncio.run(main())


def test_the_pins_pressed_reach_the_service_through_its_buttons_feed(tmp_path: Path) -> None:
    async def main() -> tuple[list[str], str]:
        with open_journal(tmp_path / "pins.sqlite3") as journal:
            service = Service("b1", journal)
            factory = MockFactory()
            gpio = parse_config("[gpio]\nleds = 'none'").gpio
            press = button_presser(gpio.pins.buttons(), factory)
            with PiDevices.open(gpio, send_leds=lambda frame: None, pin_factory=factory) as pi:
                task = asyncio.create_task(service.run(buttons=pi.buttons))
                try:
                    modes = []
                    for mode in (Mode.LEARNER, Mode.RECORDER, Mode.REFEREE):
                        press("mode")
                        await until_mode(service, mode)
                        modes.append(service.status().mode)
                    refused = service.counters.refused
                    press("done")  # to the match, which waits for the opening roll
                    await until_progress(
                        "the answer to Done",
                        lambda: service.counters.refused > refused,
                        service_progress(service),
                    )
                    return modes, service.status().text
                finally:
                    task.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await task

    modes, text = asyncio.run(main())
    assert modes == ["learner", "recorder", "referee"]
    assert text == "waiting for the opening roll: one die each"
