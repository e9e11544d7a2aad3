"""Resignations through the running service and its web view: offered, refused, accepted.

The service runs its real loop and journal (a queue board, as ``test_match_actions``) and
its real web app over HTTP: the ``resign`` action is token-guarded, a malformed one gets
400, one the board cannot take now 409, and neither changes the journal.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from controller import record
from controller.match.errors import RefusedError
from controller.match.flow import Flow
from controller.referee import Button, ButtonPressed, DiceRolled
from controller.rules import JACQUET, Rules, WinKind
from controller.service import Service
from controller.service.service import open_journal
from controller.simulated.board_service import SelfPlayBoard
from controller.status import ActionError, AnswerResignation, BoardEvent, Resign
from controller.web import WebServer, create_app
from tests.service.test_match_actions import NAMES, QueueBoard, journalled, play_opening, running

TOKEN = "referee-token-0123456789"


async def post(url: str, body: Any, token: str = TOKEN) -> tuple[int, dict[str, Any]]:
    headers = {"Authorization": f"Bearer {token}"}
    async with (
        aiohttp.ClientSession() as session,
        session.post(url + "api/action", json=body, headers=headers) as response,
    ):
        return response.status, await response.json()


def test_a_resignation_refused_then_accepted_over_http_is_journalled_and_resumed(
    tmp_path: Path,
) -> None:
    path = tmp_path / "journal.sqlite3"

    async def body(service: Service, board: QueueBoard, _: list[BoardEvent]) -> None:
        async with WebServer(create_app(service, token=TOKEN), port=0) as server:
            url = server.url
            assert (await post(url, {"action": "resign", "player": 0}, "wrong"))[0] == 403
            assert await post(url, {"action": "resign", "player": 0}) == (
                409, {"error": "no game in progress to resign: waiting for the opening roll"}
            )  # fmt: skip
            await play_opening(service, board)()  # player 1 rolled 6-2, to play
            seq = service.status().seq
            for request, code, message in (
                ({"action": "resign"}, 400, "resign needs player: 0 or 1, got None"),
                ({"action": "resign", "player": 2}, 400, "resign needs player: 0 or 1, got 2"),
                ({"action": "resign", "player": 1, "kind": "triple"}, 400,
                 "resign kind: one of single, gammon, backgammon, got 'triple'"),
                ({"action": "accept-resignation"}, 409, "no resignation to answer"),
            ):  # fmt: skip
                status, answer = await post(url, request)
                assert (status, answer["error"]) == (code, message)
            assert service.status().seq == seq  # nothing journalled
            status, answer = await post(url, {"action": "resign", "player": 1, "kind": "gammon"})
            assert status == 200, answer
            assert answer["status"]["phase"] == "resign-offered"
            assert (
                "player 1 resigns a gammon: player 0 accepts or refuses" in answer["status"]["text"]
            )
            service.feed(DiceRolled((4, 4)))  # nothing else counts meanwhile
            status, answer = await post(url, {"action": "resign", "player": 0})
            assert (status, answer["error"]) == (
                409,
                "player 1 has offered to resign: answer that first",
            )
            status, answer = await post(url, {"action": "refuse-resignation"})
            assert status == 200 and answer["status"]["phase"] == "moving"
            assert answer["status"]["moves"][-2:] == [
                "1 resigns a gammon",
                "0 refuses the resignation",
            ]
            assert answer["status"]["dice"] == [6, 2]
            status, answer = await post(
                url, {"action": "resign", "player": 1, "kind": "backgammon"}
            )
            assert status == 200

    with open_journal(path) as journal:
        running(Service("b1", journal, names=NAMES), body)
    events = journalled(path)
    assert events[-3:] == [
        record.Resigned(1, WinKind.GAMMON),
        record.ResignRefused(0),
        record.Resigned(1, WinKind.BACKGAMMON),
    ]

    async def accept(service: Service, board: QueueBoard, _: list[BoardEvent]) -> None:
        assert service.status().phase == "resign-offered"  # resumed with the offer pending
        async with WebServer(create_app(service, token=TOKEN), port=0) as server:
            status, answer = await post(server.url, {"action": "accept-resignation"})
        assert status == 200, answer
        assert answer["status"]["score"] == [3, 0]
        assert answer["status"]["moves"][-2:] == [
            "0 accepts the resignation",
            "game over: 0 wins 3",
        ]

    with open_journal(path) as journal:
        service = Service("b1", journal)
        running(service, accept)
        sgf = asyncio.run(service.export("sgf"))
    assert journalled(path)[-2:] == [
        record.ResignAccepted(0),
        record.GameEnded(0, 3, WinKind.BACKGAMMON, resigned=True),
    ]
    assert "RE[W+3R]" in sgf


def test_jacquet_has_no_resignation() -> None:
    flow = Flow.new(NAMES, Rules(match_length=3), variant=JACQUET)
    with pytest.raises(
        RefusedError, match=r"Jacquet de Versailles \(jacquet-versailles\) has no resignation"
    ):
        flow.resign(0, WinKind.SINGLE)


def test_the_simulated_hall_board_refuses_resignations_and_declines() -> None:
    async def main() -> None:
        board = SelfPlayBoard("hall-1", seed=5, match_length=3)
        try:
            for action in (Resign(0), AnswerResignation(True), ButtonPressed(Button.DECLINE)):
                with pytest.raises(ActionError, match="the simulated players play every game"):
                    await board.apply(action)
        finally:
            board.close()

    asyncio.run(main())
