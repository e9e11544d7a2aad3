"""The board's API over real HTTP: statuses, the token, refusals that change nothing, exports."""

from __future__ import annotations

import asyncio
import json
import pathlib
from collections.abc import Awaitable, Callable
from typing import Any

import aiohttp
import pytest

from controller.engine import NO_ENGINE
from controller.record.matfile import read_mat
from controller.simulated.board_service import SelfPlayBoard
from controller.web import WebError, WebServer, create_app
from controller.web import app as app_module

TOKEN = "referee-token-0123456789"


def run(body: Callable[[SelfPlayBoard, str], Awaitable[None]], token: str | None = TOKEN) -> None:
    async def main() -> None:
        board = SelfPlayBoard("hall-1", seed=5, match_length=3)
        await board.start()
        async with WebServer(create_app(board, token=token), port=0) as server:
            await body(board, server.url)
        board.close()

    asyncio.run(main())


async def post(url: str, body: Any, token: str | None = TOKEN, raw: bytes | None = None):
    headers = {"Content-Type": "application/json"}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    data = raw if raw is not None else json.dumps(body).encode()
    async with (
        aiohttp.ClientSession() as session,
        session.post(url + "api/action", data=data, headers=headers) as response,
    ):
        return response.status, await response.json()


def test_status_and_stream_follow_the_board() -> None:
    async def body(board: SelfPlayBoard, url: str) -> None:
        async with aiohttp.ClientSession() as session:
            async with session.get(url + "api/status") as response:
                assert (await response.json())["seq"] == board.seq == 1  # MatchStarted
            async with session.get(url + "api/stream") as response:
                first = await response.content.readline()
                assert json.loads(first[len(b"data: ") :])["seq"] == 1
                await response.content.readline()
                await board.step()
                pushed = json.loads((await response.content.readline())[len(b"data: ") :])
                assert pushed["seq"] == 2
                assert pushed["xgid"] == board.status().xgid
            async with session.get(url + "static/board.js") as response:
                assert "drawBoard" in await response.text()
            async with session.get(url + "static/../app.py") as response:
                assert response.status == 404
            for name in ("a" * 5000 + ".js", "é" * 300 + ".css", "%00.js", "..%2fapp.py"):
                async with session.get(url + "static/" + name) as response:
                    assert response.status == 404, name[:20]
                    error = (await response.json())["error"]
                    assert error.startswith("no static file '") and len(error) < 70, error
            for path in ("api/export/", "api/review/"):
                async with session.get(url + path + "x" * 5000) as response:
                    assert response.status == 404
                    assert len((await response.json())["error"]) < 120
            # The self-playing board is a real service without an engine: it says so.
            auth = {"Authorization": f"Bearer {TOKEN}"}
            async with session.get(url + "api/review/html", headers=auth) as response:
                assert response.status == 409
                assert (await response.json())["error"] == NO_ENGINE

    run(body)


def test_a_visit_reads_nothing_from_the_card(
    tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The page's files are read once, at start-up: a phone's visit during a game reads
    nothing on the service's loop, and a card gone unreadable meanwhile shows the page."""
    from controller.service.setup_desk import BoardSetup
    from controller.web import add_setup_routes

    monkeypatch.setattr(app_module, "STATIC", tmp_path / "gone")  # the card's folder, unreadable

    async def main() -> None:
        board = SelfPlayBoard("hall-1", seed=5, match_length=3)
        await board.start()
        app = create_app(board, token=TOKEN)
        add_setup_routes(app, BoardSetup(board.service))
        async with WebServer(app, port=0) as server, aiohttp.ClientSession() as session:
            for path in ("", "setup", "static/board.js", "static/style.css"):
                async with session.get(server.url + path) as response:
                    assert response.status == 200, (path, await response.text())
                    assert len(await response.text()) > 100, path
        board.close()

    asyncio.run(main())


def test_every_stream_gets_each_status_encoded_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Spectators share one encoding of each status: each of a hundred encoding it for
    itself held a Pi's loop some 20 ms a change."""
    encoded: list[int] = []
    status_bytes = app_module._status_bytes

    def counted(status: Any) -> bytes:
        encoded.append(status.seq)
        return status_bytes(status)

    monkeypatch.setattr(app_module, "_status_bytes", counted)

    async def body(board: SelfPlayBoard, url: str) -> None:
        async with aiohttp.ClientSession() as session:
            streams = [await session.get(url + "api/stream") for _ in range(5)]
            try:
                for response in streams:
                    first = await response.content.readline()
                    assert json.loads(first[len(b"data: ") :])["seq"] == 1
                    await response.content.readline()
                await board.step()
                for response in streams:
                    pushed = await response.content.readline()
                    assert json.loads(pushed[len(b"data: ") :])["seq"] == 2
            finally:
                for response in streams:
                    response.close()
        assert encoded == [1, 2]

    run(body)


def test_actions_need_the_token_and_refusals_change_nothing() -> None:
    async def body(board: SelfPlayBoard, url: str) -> None:
        while board.status().phase != "roll":
            await board.step()
        before = board.status()
        cases = [
            (None, {"action": "enter-dice", "dice": [3, 1]}, 401, "needs the board's token"),
            (
                "wrong-token-0123456789",
                {"action": "enter-dice", "dice": [3, 1]},
                403,
                "wrong token",
            ),
            (TOKEN, {"action": "enter-dice", "dice": [7, 1]}, 400, "two numbers 1-6, got [7, 1]"),
            (TOKEN, {"action": "fly"}, 400, "unknown action 'fly'"),
            (TOKEN, [1, 2], 400, "an action is a JSON object"),
            (TOKEN, {"action": "correct-position", "board": [0] * 25}, 400, "26 integers"),
            (TOKEN, {"action": "accept"}, 409, "no illegal play to accept"),
            (  # a position that cannot be is refused as the input is built: never a 500
                TOKEN,
                {"action": "correct-position", "board": [16, *[0] * 25]},
                400,
                "player 1's bar (index 0) cannot be positive, got 16",
            ),
            (  # one that can be, but not now
                TOKEN,
                {"action": "correct-position", "board": [0] * 26},
                409,
                "both players have borne off all 15",
            ),
        ]
        for token, request, code, text in cases:
            status, answer = await post(url, request, token)
            assert (status, text in answer["error"]) == (code, True), answer
            assert board.status() == before
        status, answer = await post(url, None, raw=b"{nope")
        assert status == 400 and answer["error"].startswith("the body is not JSON")
        status, answer = await post(url, {"action": "enter-dice", "dice": [6, 5]})
        assert status == 200 and answer["status"]["dice"] == [6, 5]
        assert board.status().dice == (6, 5) and board.status().dice_source == "manual"

    run(body)


def test_without_a_configured_token_the_board_is_read_only() -> None:
    async def body(board: SelfPlayBoard, url: str) -> None:
        status, answer = await post(url, {"action": "new-match", "length": 1})
        assert status == 403 and "read-only" in answer["error"]
        assert board.status().match_length == 3

    run(body, token=None)


def test_exports_behind_the_token() -> None:
    async def body(board: SelfPlayBoard, url: str) -> None:
        while await board.step():
            pass
        auth = {"Authorization": f"Bearer {TOKEN}"}
        async with aiohttp.ClientSession() as session:
            async with session.get(url + "api/export/mat") as response:
                assert response.status == 401
            async with session.get(url + "api/export/mat", headers=auth) as response:
                assert response.headers["Content-Disposition"].endswith('filename="hall-1.mat"')
                record = read_mat(await response.text()).record()
                assert record.state.match.score == board.status().score
            async with session.get(url + "api/export/sgf", headers=auth) as response:
                assert (await response.text()).startswith("(;FF[4]GM[6]")
            async with session.get(url + "api/export/pdf", headers=auth) as response:
                assert response.status == 404
                assert (await response.json())["error"] == (
                    "no export format 'pdf': mat, sgf, jsonl, txt"
                )

    run(body)


def test_a_taken_port_is_a_clear_error() -> None:
    async def main() -> None:
        board = SelfPlayBoard("hall-1")
        async with WebServer(create_app(board, token=None), port=0) as first:
            second = WebServer(create_app(board, token=None), port=first.port)
            with pytest.raises(WebError, match=f"cannot serve the page on {first.url}: "):
                await second.start()

    asyncio.run(main())
