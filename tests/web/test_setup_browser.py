"""The set-up page walked in a real browser on the simulated board (``setup_walk``): the
token asked for, the links in words, an LED lit and read on the mock pins, a button
pressed and named, the camera calibrated. Screenshots go to ``tests/artifacts/``."""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

import pytest

from tests._browser import ARTIFACTS, CHROMIUM

pytest.importorskip("playwright.async_api")

pytestmark = pytest.mark.skipif(
    shutil.which(CHROMIUM) is None, reason="Debian's chromium is missing: make system-deps"
)


def test_a_person_walks_the_set_up_page_on_the_simulated_board(tmp_path: Path) -> None:
    from tests.web.setup_walk import walk

    asyncio.run(walk(tmp_path, ARTIFACTS))
    for name in ("phone", "desktop"):
        assert (ARTIFACTS / f"setup-{name}.png").stat().st_size < 300 * 1024


def test_the_set_up_page_polls_on_while_the_service_restarts() -> None:
    """A poll that finds no server (the service restarting after a change of its
    configuration, the Wi-Fi gone a moment) is said on the page, and the polling goes on:
    it stopped there, the page frozen on its last state."""
    from controller.service.setup_desk import BoardSetup
    from controller.simulated.board_service import SelfPlayBoard
    from controller.web import WebServer, add_setup_routes, create_app
    from tests._browser import chromium_page
    from tests.web.setup_rig import TOKEN

    def served(board: SelfPlayBoard, port: int) -> WebServer:
        app = create_app(board.service, token=TOKEN)
        add_setup_routes(app, BoardSetup(board.service))
        return WebServer(app, port=port)

    async def main() -> None:
        board = SelfPlayBoard("bench-2", seed=3, match_length=3)
        await board.start()
        server = served(board, 0)
        await server.start()
        async with chromium_page() as page:
            await page.goto(server.url + "setup")
            await page.fill("#token", TOKEN)
            game = page.locator("#game")
            await game.filter(has_text="Between games").wait_for()
            await server.close()
            await game.filter(has_text="The board does not answer").wait_for()
            again = served(board, server.port)
            await again.start()
            try:
                await game.filter(has_text="Between games").wait_for()
            finally:
                await again.close()
        board.close()

    asyncio.run(main())
