"""The web view of learner mode with the real engine: hint action, verdicts, review, .sgf.

A real :class:`~controller.service.Service` (no hardware: observations fed as the board
task would) with GNU Backgammon's bindings, behind the real aiohttp app. Player 0 opens
31 with 8/5 6/5 (the best play), player 1 answers 65 with 13/8 13/7 (a blunder).
"""

from __future__ import annotations

import asyncio
import shutil
import threading
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from controller.engine import make_engine
from controller.referee import BoardSeen, Button, DiceEntered, Mode, cells_from_board
from controller.rules import START, legal_plays
from controller.service import Service
from controller.service.service import open_journal
from controller.web import WebServer, create_app
from tests._browser import CHROMIUM, chromium_page
from tests.firmware_bridge.conftest import PATIENCE_S

TOKEN = "referee-token-0123456789"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
OPENING = next(p for p in legal_plays(START, 0, (3, 1)) if p.notation == "8/5 6/5")
BLUNDER = next(p for p in legal_plays(OPENING.result, 1, (6, 5)) if p.notation == "13/8 13/7")


async def _until(what: str, predicate: Callable[[], Any], timeout: float = PATIENCE_S) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise TimeoutError(f"waited {timeout} s for {what}")
        await asyncio.sleep(0.005)


@asynccontextmanager
async def _board(path: Path, mode: Mode) -> AsyncIterator[tuple[Service, str]]:
    engine = make_engine("bindings", ply=0, budget=30.0)
    try:
        with open_journal(path) as journal:
            service = Service("learner-1", journal, mode=mode, engine=engine)
            task = asyncio.create_task(service.run())
            try:
                async with WebServer(create_app(service, token=TOKEN), port=0) as server:
                    service.feed(BoardSeen(cells_from_board(START)))
                    await service.apply(DiceEntered((3, 1)))
                    yield service, server.url
            finally:
                task.cancel()
    finally:
        await engine.close()


async def _two_plays(service: Service) -> None:
    """8/5 6/5, then 65 played 13/8 13/7; both judged."""
    service.feed(BoardSeen(cells_from_board(OPENING.result)))
    service.press(Button.DONE)
    await service.apply(DiceEntered((6, 5)))
    service.feed(BoardSeen(cells_from_board(BLUNDER.result)))
    service.press(Button.DONE)
    await _until("both verdicts", lambda: service.counters.judged == 2)


async def _post(session: aiohttp.ClientSession, url: str, body: Any) -> tuple[int, Any]:
    async with session.post(url + "api/action", json=body, headers=AUTH) as response:
        return response.status, await response.json()


def test_the_hint_action_verdicts_and_the_review(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from controller.service import teacher

    written = teacher._written_review
    writers: list[int] = []

    def noted(*arguments: Any) -> str:
        writers.append(threading.get_ident())
        return written(*arguments)

    monkeypatch.setattr(teacher, "_written_review", noted)

    async def main() -> None:
        async with (
            _board(tmp_path / "learner.sqlite3", Mode.LEARNER) as (service, url),
            aiohttp.ClientSession() as session,
        ):
            async with session.post(url + "api/action", json={"action": "hint"}) as answer:
                assert answer.status == 401  # the token guards it like every action
            status, _ = await _post(session, url, {"action": "hint"})
            assert status == 200
            await _until("the hint", lambda: service.status().hint == "best 8/5 6/5")
            await _two_plays(service)
            async with session.get(url + "api/status") as response:
                shown = await response.json()
            assert shown["play_notation"] == "13/8 13/7" and shown["play_best"] == "24/13"
            assert shown["play_grade"] == "blunder" and shown["engine"] == "gnubg-bindings"
            async with session.get(url + "api/review/html") as response:
                assert response.status == 401
            async with session.get(url + "api/review/html", headers=AUTH) as response:
                page = await response.text()
            assert response.content_type == "text/html"
            assert "13/8 13/7" in page and "blunder" in page and "8/5 6/5" in page
            async with session.get(url + "api/review/sgf", headers=AUTH) as response:
                sgf = await response.text()
                assert response.headers["Content-Disposition"].endswith(
                    'filename="learner-1-analysed.sgf"'
                )
            assert sgf.startswith("(;FF[4]GM[6]") and "A[" in sgf and "BM[2]" in sgf
            plays = sgf[sgf.index("A[") :]
            assert "E ver 3 0." in plays and "E ver 3 nan" not in plays
            # A long match's review takes tens of milliseconds to write: not on the loop.
            assert len(writers) == 2 and threading.get_ident() not in writers

    asyncio.run(main())


def test_recorder_mode_refuses_the_hint_and_the_review_over_the_web(tmp_path: Path) -> None:
    async def main() -> None:
        async with _board(tmp_path / "recorder.sqlite3", Mode.RECORDER) as (service, url):
            async with aiohttp.ClientSession() as session:
                status, body = await _post(session, url, {"action": "hint"})
                assert status == 409
                assert body["error"] == (
                    "no hint in 'recorder' mode: tournament rules forbid aids during play"
                )
                async with session.get(url + "api/review/html", headers=AUTH) as response:
                    assert response.status == 409
                    assert (await response.json())["error"].startswith("no review during")
            assert service.counters.hints == 0 and service.status().hint == ""

    asyncio.run(main())


@pytest.mark.skipif(shutil.which(CHROMIUM) is None, reason="chromium missing: make system-deps")
def test_the_page_shows_the_verdict_and_the_best_play(tmp_path: Path) -> None:
    pytest.importorskip("playwright.async_api")

    async def main() -> None:
        async with (
            _board(tmp_path / "page.sqlite3", Mode.LEARNER) as (service, url),
            chromium_page() as page,
        ):
            await page.goto(url)
            await page.click("#referee summary")
            await page.fill("#token", TOKEN)
            await page.click("#hint-button")
            await page.wait_for_function(
                "document.getElementById('hint').textContent === 'best 8/5 6/5'"
            )
            await _two_plays(service)
            await page.wait_for_function(
                "document.getElementById('best-play').textContent === '24/13'"
            )
            last = await page.text_content("#last-play")
            assert last is not None and last.startswith("Player 1 13/8 13/7: blunder (-0.2")
            assert await page.get_attribute("#last-play", "class") == "grade blunder"
            assert await page.text_content("#engine") == "gnubg-bindings"

    asyncio.run(main())
