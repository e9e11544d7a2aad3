"""The board's page in a real browser: Playwright driving Debian's chromium, headless.

The board is a :class:`~controller.simulated.board_service.SelfPlayBoard`: the real service
fed by simulated players.
Screenshots go to ``tests/artifacts/`` (ignored by git) for a person to look at.
"""

from __future__ import annotations

import asyncio
import shutil
import statistics
import time
from collections.abc import Awaitable, Callable

import pytest

from controller.simulated.board_service import SelfPlayBoard
from controller.web import WebServer, create_app
from tests._browser import ARTIFACTS, CHROMIUM, WAIT_MS, chromium_page

playwright = pytest.importorskip("playwright.async_api")

TOKEN = "referee-token-0123456789"

pytestmark = pytest.mark.skipif(
    shutil.which(CHROMIUM) is None, reason="Debian's chromium is missing: make system-deps"
)

Body = Callable[[SelfPlayBoard, str, "playwright.Page"], Awaitable[None]]


def run(body: Body, *, viewport: dict[str, int] | None = None, mobile: bool = False) -> None:
    async def main() -> None:
        board = SelfPlayBoard("hall-2", seed=11, match_length=3)
        await board.start()
        async with (
            WebServer(create_app(board, token=TOKEN), port=0) as server,
            chromium_page(
                viewport=viewport or {"width": 1280, "height": 800},
                is_mobile=mobile,
                has_touch=mobile,
                device_scale_factor=2 if mobile else 1,
            ) as page,
        ):
            await page.goto(server.url)
            await body(board, server.url, page)
        board.close()

    asyncio.run(main())


async def shown_seq(page: playwright.Page, seq: int) -> None:
    await page.wait_for_function(f"document.body.dataset.seq === '{seq}'")


def expected_checkers(cells: tuple[tuple[int, int] | None, ...], side: int) -> int:
    """How many checkers of ``side`` board.js draws: stacks of 5 on points, 4 on bars."""
    return sum(
        min(cell[side], cap)
        for index, cell in enumerate(cells)
        if cell is not None
        for cap in [5 if index < 24 else 4 if index < 26 else 15]
    )


def test_the_page_shows_the_position_the_board_set() -> None:
    async def body(board: SelfPlayBoard, url: str, page: playwright.Page) -> None:
        for _ in range(30):
            await board.step()
        await page.reload()
        status = board.status()
        await shown_seq(page, status.seq)
        for side, colour in enumerate(("white", "black")):
            drawn = await page.locator(f"#board .checker.{colour}").count()
            assert drawn == expected_checkers(status.cells, side)
        assert await page.input_value("#xgid") == status.xgid
        assert await page.input_value("#gnubg-id") == status.gnubg_id
        assert await page.text_content("#player0") == "White"
        moves = await page.locator("#moves li").all_text_contents()
        assert moves == list(status.moves)
        assert await page.text_content("#pips") == f"White {status.pips[0]}, Black {status.pips[1]}"
        lit = [i for i, light in enumerate(status.lights[:28]) if light.colour != "off"]
        for index in lit:
            led = page.locator(f'#board [data-led="{index}"]')
            assert status.lights[index].colour in (await led.get_attribute("class") or "")
        ARTIFACTS.mkdir(exist_ok=True)
        await page.screenshot(path=str(ARTIFACTS / "board-desktop.png"), full_page=True)

    run(body)


def test_the_page_follows_each_move_without_reloading() -> None:
    latencies: list[float] = []

    async def body(board: SelfPlayBoard, url: str, page: playwright.Page) -> None:
        await shown_seq(page, board.seq)  # 1: the MatchStarted
        await page.evaluate(
            """() => { window.notReloaded = true; window.seenAt = {};
            new MutationObserver(() => { window.seenAt[document.body.dataset.seq] = Date.now(); })
              .observe(document.body, {attributes: true, attributeFilter: ["data-seq"]}); }"""
        )
        for _ in range(20):
            sent = time.time() * 1000
            await board.step()
            await shown_seq(page, board.seq)
            seen = await page.evaluate(f"window.seenAt['{board.seq}']")
            latencies.append(seen - sent)
            assert await page.input_value("#xgid") == board.status().xgid
        assert await page.evaluate("window.notReloaded") is True

    run(body)
    print(
        f"push latency: median {statistics.median(latencies):.1f} ms, max {max(latencies):.1f} ms"
    )
    assert statistics.median(latencies) < 100


def test_an_action_without_the_token_is_refused_and_changes_nothing() -> None:
    async def body(board: SelfPlayBoard, url: str, page: playwright.Page) -> None:
        while board.status().phase != "roll":
            await board.step()
        before = board.status()
        await shown_seq(page, before.seq)
        await page.click("#referee summary")
        await page.select_option("#die1", "6")
        await page.click("#enter-dice")
        result = page.locator("#action-result")
        await result.filter(has_text="refused").wait_for()
        assert "refused (401)" in (await result.text_content() or "")
        answer = await page.evaluate(
            """async () => { const r = await fetch('/api/action', {method: 'POST',
            headers: {'Authorization': 'Bearer not-the-token-at-all'},
            body: JSON.stringify({action: 'new-match', length: 1})});
            return [r.status, (await r.json()).error]; }"""
        )
        assert answer == [403, "wrong token"]
        assert board.status() == before
        await page.fill("#token", TOKEN)
        await page.click("#enter-dice")
        await result.filter(has_text="enter-dice: done").wait_for()
        assert board.status().dice is not None and board.status().dice[0] == 6
        await shown_seq(page, board.seq)
        assert "manual" in (await page.text_content("#dice") or "")

    run(body)


def test_the_page_fits_a_phone() -> None:
    async def body(board: SelfPlayBoard, url: str, page: playwright.Page) -> None:
        for _ in range(12):
            await board.step()
        await shown_seq(page, board.seq)
        width = await page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390
        box = await page.locator("#board").bounding_box()
        assert box is not None and 340 <= box["width"] <= 390
        await page.click("#referee summary")
        button = await page.locator("#enter-dice").bounding_box()
        assert button is not None and button["height"] >= 36  # a finger can press it
        ARTIFACTS.mkdir(exist_ok=True)
        await page.screenshot(path=str(ARTIFACTS / "board-phone.png"), full_page=True)

    run(body, viewport={"width": 390, "height": 844}, mobile=True)


def test_the_referee_resigns_and_declines_from_the_page() -> None:
    """The page's resign and decline buttons post their actions; the answer is shown."""

    async def body(board: SelfPlayBoard, url: str, page: playwright.Page) -> None:
        await shown_seq(page, board.seq)
        await page.click("#referee summary")
        await page.fill("#token", TOKEN)
        assert await page.text_content("#resign-player option[value='1']") == "Black"
        result = page.locator("#action-result")
        await page.select_option("#resign-player", "1")
        await page.select_option("#resign-kind", "gammon")
        await page.click("#resign")
        await result.filter(has_text="resign refused (409)").wait_for()
        assert "the simulated players play every game out" in (await result.text_content() or "")
        for button in ("accept-resignation", "decline"):
            await page.click(f"#{button}")
            await result.filter(has_text=f"{button} refused (409)").wait_for()
        assert await page.is_visible("#download-mat") and await page.is_visible("#download-txt")

    run(body)


def test_the_page_says_when_the_board_is_gone_and_follows_again_after_a_refusal() -> None:
    """An action the board does not answer (the service restarting) is said in the result
    line, where the page said nothing. A stream answered 429 (the page holding its most
    connections) ends a browser's EventSource for good, where a stream that broke is opened
    again by the browser: the page opens it again itself, so a spectator refused once is
    not left with a frozen board. The page is served on its port three times: taking
    connections, refusing every one, taking them again."""

    async def main() -> None:
        board = SelfPlayBoard("hall-3", seed=11, match_length=3)
        await board.start()
        server = WebServer(create_app(board, token=TOKEN), port=0)
        await server.start()
        async with chromium_page() as page:
            await page.goto(server.url)
            live = "document.getElementById('connection').textContent === 'live'"
            await page.wait_for_function(live)
            await server.close()
            await page.click("#referee summary")
            await page.fill("#token", TOKEN)
            await page.click("#accept")
            result = page.locator("#action-result")
            await result.filter(has_text="accept: the board does not answer").wait_for()
            full = WebServer(create_app(board, token=TOKEN), port=server.port, max_connections=0)
            await full.start()
            async with asyncio.timeout(WAIT_MS / 1000):  # a bound on a hang
                while not full.refused:  # the browser's own retry of the broken stream
                    await asyncio.sleep(0.05)
            await page.wait_for_function(f"!({live})")
            await full.close()
            again = WebServer(create_app(board, token=TOKEN), port=server.port)
            await again.start()
            try:
                await page.wait_for_function(live)
                await board.step()
                await page.wait_for_function(f"document.body.dataset.seq === '{board.seq}'")
            finally:
                await again.close()
        board.close()

    asyncio.run(main())
