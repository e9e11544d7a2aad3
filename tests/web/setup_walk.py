"""A person's walk through the set-up page, in Debian's chromium, on the simulated board.

The board is the demo's (:class:`~controller.simulated.demo.SimulatedBoard`): the real
service on the simulated sensor board (its firmware on a pty, one slot broken), gpiozero's
MockFactory pins for the LEDs and buttons. The page's camera looks at a board with its
markers, at an angle.

The browser test runs the walk; ``python -m tests.web.setup_walk docs`` runs it too and
writes the README's screenshots (phone and desktop) into ``docs``.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
import tempfile
from pathlib import Path

import cv2
from playwright.async_api import Page

from controller.devices import Colour, Lamp, Scene, ShiftRegisterLeds
from controller.links import link_words
from controller.service.camera_bench import CameraBench
from controller.service.setup_desk import BoardSetup
from controller.simulated.demo import SimulatedBoard
from controller.simulated.table import button_presser
from controller.web import WebServer, add_setup_routes, create_app
from tests._browser import WAIT_MS, chromium_page
from tests.web.setup_rig import TOKEN, camera_frame
from vision import load_calibration

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
_LEVELS = 0xF0
"""The bits of each colour channel the screenshots keep (small PNGs under 300 KB)."""


async def walk(folder: Path, shots: Path | None = None) -> None:
    """Walk the page (journal and configuration in ``folder``); with ``shots``, write
    ``setup-phone.png`` and ``setup-desktop.png`` there at the end.

    Raises:
        AssertionError: a step the page did not take as a person expects.
    """
    config = folder / "tabula.toml"
    frame = camera_frame()
    async with SimulatedBoard(folder / "journal.sqlite", seed=3, board_id="bench") as table:
        camera = CameraBench(lambda: frame, config)
        desk = BoardSetup(table.service, camera=camera, sensors=table.link)
        app = create_app(table.service, token=TOKEN)
        add_setup_routes(app, desk)
        async with WebServer(app, port=0) as server, chromium_page(viewport=DESKTOP) as page:
            await page.goto(server.url)  # the board's page links to its set-up
            await page.click("a[href='/setup']")
            await page.wait_for_url(server.url + "setup")
            await _steps(page, table, config)
            if shots is not None:
                await _screenshots(page, shots)


async def _text(page: Page, selector: str, text: str) -> None:
    """Wait until the element ``selector`` shows ``text``."""
    await page.locator(selector).filter(has_text=text).wait_for()


async def _steps(page: Page, table: SimulatedBoard, config: Path) -> None:
    # Without the token every action is refused, and the page says so.
    await page.fill("#token", "")
    await page.click("#walk")
    await _text(page, "#action-result", "light refused (401)")
    await _text(page, "#token-needed", "Every set-up action is refused")
    await page.fill("#token", TOKEN)
    # The links in words.
    await _text(page, "#links", link_words("board", "live"))
    await _text(page, "#game", "Between games")
    # Sensors: a dead slot named, and drawn on the heat map.
    table.sim.fault(12, 1, "dead")
    await _until_dead(table, 12, 1)
    await page.click("#read-sensors")
    await _text(page, "#faults", "slot 13/2 (point 13, second sensor) reads 0 counts")
    await _text(page, "#sensor-summary", "slots faulty")
    assert (await page.text_content("#sensor-summary") or "").startswith("1 of ")
    assert await page.get_attribute("#heat [data-slot='13/2']", "class") == "heat-cell dead"
    # LEDs: the status LED's pins, then a point's lamp on the chain.
    pins = table.gpio.pins
    assert pins.status_led_red is not None and pins.status_led_green is not None
    red, green = table.factory.pin(pins.status_led_red), table.factory.pin(pins.status_led_green)
    await page.select_option("#lamp-colour", "green")
    await page.click("#lamps button[data-location='28']")
    await _text(page, "#lamp-lit", "lit: status LED, green")
    assert (red.state, green.state) == (False, True)
    await page.select_option("#lamp-colour", "red")
    await page.click("#lamps button[data-location='28']")
    await _text(page, "#lamp-lit", "lit: status LED, red")
    assert (red.state, green.state) == (True, False)
    await page.click("#walk")  # each location in turn, until Off
    await _text(page, "#lamp-lit", "lit: point 2, red")
    await page.click("#lamp-off")
    await _text(page, "#lamp-lit", "no test lamp lit")
    await _text(page, "#action-result", "LED test over")
    await page.click("#lamps button[data-location='12']")
    await _text(page, "#lamp-lit", "lit: point 13, red")
    chain = table.service.leds
    assert isinstance(chain, ShiftRegisterLeds)
    assert chain.scene == Scene.of({12: Lamp(Colour.RED)})
    # Buttons: a press during the test is named, not played.
    await page.click("#button-test")
    await _text(page, "#button-test", "Button test on")
    inputs = table.service.counters.inputs
    await asyncio.to_thread(button_presser(table.buttons, table.factory), "done")
    await _text(page, "#last-press", "done pressed at")
    assert table.service.counters.inputs == inputs
    # Camera: look, then calibrate; the configuration holds it.
    await page.click("#look")
    await _text(page, "#markers", "0, 1, 2, 3")
    await page.click("#calibrate")
    await _text(page, "#action-result", "calibration stored in")
    assert load_calibration(config) is not None
    await _text(page, "#calibration", "stored")
    loaded = (
        "(id) => { const img = document.getElementById(id);"
        " return img.complete && img.naturalWidth > 0; }"
    )
    for picture in ("frame", "board-view"):
        await page.wait_for_function(loaded, arg=picture)
    # Orientation, as on the board's page.
    await _text(page, "#orientation", "near side")


async def _until_dead(table: SimulatedBoard, location: int, slot: int) -> None:
    """Wait until the board scans the slot broken a moment ago (a set reads it 0)."""
    async with asyncio.timeout(WAIT_MS / 1000):
        while True:
            raw = await table.link.read_raw()
            if any(
                (seen.location, seen.slot, seen.reading) == (location, slot, 0)
                for seen in raw.slot_readings()
            ):
                return


async def _screenshots(page: Page, shots: Path) -> None:
    """The page at a phone's and a desk's width, as small PNGs."""
    shots.mkdir(parents=True, exist_ok=True)
    for name, size in (("phone", PHONE), ("desktop", DESKTOP)):
        await page.set_viewport_size(size)
        width = await page.evaluate("document.documentElement.scrollWidth")
        assert width <= size["width"], f"the page is {width} px wide on a {name}"
        path = shots / f"setup-{name}.png"
        await page.screenshot(path=str(path), full_page=True)
        # 16 levels a channel: the text stays sharp, the camera's pictures compress.
        image = cv2.imread(str(path)) & _LEVELS | (~_LEVELS & 0xFF) >> 1
        cv2.imwrite(str(path), image, [cv2.IMWRITE_PNG_COMPRESSION, 9])


def main(argv: list[str]) -> int:
    """``python -m tests.web.setup_walk FOLDER``: walk the page, screenshots into FOLDER."""
    if len(argv) != 1:
        print("usage: python -m tests.web.setup_walk FOLDER", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="tabula-setup-") as folder:
        asyncio.run(walk(Path(folder), Path(argv[0])))
    for name in ("phone", "desktop"):
        path = Path(argv[0]) / f"setup-{name}.png"
        print(f"{path}: {path.stat().st_size // 1024} KiB")
    return 0


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        sys.exit(main(sys.argv[1:]))
