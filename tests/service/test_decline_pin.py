"""The Decline button (Jacquet's rule 11) on the board's pins: pressed, the service declines.

The reference pin map wires it (``button_decline``); the buttons open through
:class:`~controller.devices.PiDevices` on gpiozero's MockFactory, as ``tabula run`` opens
them on a Pi, and a press of the pin reaches the running service's Jacquet flow.
"""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path

from gpiozero.pins.mock import MockFactory

from controller import record
from controller.config import parse_config
from controller.devices import PiDevices
from controller.record.journal import Journal
from controller.service import Service
from controller.service.service import open_journal
from controller.web import WebServer, create_app
from tests.firmware_bridge.conftest import PATIENCE_S
from tests.match.test_jacquet import match_events
from tests.service.test_resign import TOKEN, post


def before_a_decline(tmp_path: Path) -> tuple[list[record.Event], int, Path]:
    """A Jacquet match's events, the index of its first decline, a journal stopping there."""
    events = match_events(44, decline_rate=1.0)
    cut = next(i for i, e in enumerate(events) if isinstance(e, record.Declined))
    path = tmp_path / "jacquet.sqlite3"
    with Journal(path) as journal:
        for event in events[:cut]:
            journal.append(event)
    return events, cut, path


def test_the_reference_pin_map_wires_decline() -> None:
    pins = parse_config("").gpio.pins
    assert pins.button_decline == 20
    assert pins.buttons()["decline"] == 20


def test_pressing_the_decline_pin_declines_the_numbers_handed_over(tmp_path: Path) -> None:
    events, cut, path = before_a_decline(tmp_path)

    async def main() -> list[record.Event]:
        with open_journal(path) as journal:
            service = Service("b1", journal)
            factory = MockFactory()
            gpio = parse_config("[gpio]\nleds = 'none'").gpio
            with PiDevices.open(gpio, send_leds=lambda frame: None, pin_factory=factory) as pi:
                task = asyncio.create_task(service.run(buttons=pi.buttons))
                seq = journal.last_seq
                pin = factory.pin(gpio.pins.button_decline)
                pin.drive_low()
                pin.drive_high()
                deadline = asyncio.get_running_loop().time() + PATIENCE_S
                while journal.last_seq == seq and asyncio.get_running_loop().time() < deadline:
                    await asyncio.sleep(0.01)  # until the decline is journalled
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            return journal.events()

    journalled = asyncio.run(main())
    assert journalled == events[: cut + 1]


def test_the_web_view_declines_as_the_button_does(tmp_path: Path) -> None:
    events, cut, path = before_a_decline(tmp_path)

    async def main() -> None:
        with open_journal(path) as journal:
            service = Service("b1", journal)
            task = asyncio.create_task(service.run())
            try:
                async with WebServer(create_app(service, token=TOKEN), port=0) as server:
                    status, answer = await post(server.url, {"action": "decline"})
                    assert status == 200, answer
                    assert journal.events() == events[: cut + 1]
                    status, answer = await post(server.url, {"action": "decline"})
                    # The turn answers a decline out of place with a notice, as the button.
                    text = "Decline counts only for numbers handed over that would break a point"
                    assert (status, answer["status"]["text"]) == (200, text)
                    assert journal.events() == events[: cut + 1]  # nothing more journalled
            finally:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task

    asyncio.run(main())
