"""The service with a Jacquet journal: a new match records its variant, a restart resumes
it, the status shows Jacquet's pips and no XGID, and GNU Backgammon exports are refused
(the web view answers 409 with the reason)."""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path

import aiohttp

from controller import record
from controller.referee import DiceRolled
from controller.rules import JACQUET, Rules
from controller.rules.variants import Scoring
from controller.service import Service
from controller.service.service import open_journal
from controller.status import NewMatch
from controller.web import WebServer, create_app

TOKEN = "secret"


async def _fed(service: Service, *items: object) -> None:
    task = asyncio.create_task(service.run())
    seq = service.status().seq
    for item in items:
        service.feed(item)  # type: ignore[arg-type]
    while service.status().seq == seq:  # the status after the input's events
        await asyncio.sleep(0.001)
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task


def test_a_jacquet_match_is_journalled_resumed_and_shown(tmp_path: Path) -> None:
    path = tmp_path / "jacquet.sqlite3"
    with open_journal(path) as journal:
        service = Service("b1", journal, rules=Rules(3), variant=JACQUET)
        assert service.status().phase == "opening"
        asyncio.run(_fed(service, DiceRolled((6, 2))))
        status = service.status()
        assert (status.phase, status.turn, status.dice) == ("moving", 0, (6, 2))
        assert status.pips == (360, 360) and status.xgid == "" and status.gnubg_id == ""
        assert status.cube_value == 1 and status.cube_owner is None
        assert status.variant == "jacquet-versailles"
        assert journal.events()[0] == record.MatchStarted(
            ("Player 0", "Player 1"), Rules(3), "jacquet-versailles"
        )
    with open_journal(path) as journal:
        again = Service("b1", journal)  # the journal's variant, not the default
        assert again.flow.variant.scoring is Scoring.JACQUET
        assert again.status().phase == "moving" and again.status().dice == (6, 2)
        assert again.resumed.startswith("resumed")


def test_the_web_view_refuses_gnubg_exports_of_a_jacquet_match(tmp_path: Path) -> None:
    async def main() -> None:
        with open_journal(tmp_path / "j.sqlite3") as journal:
            service = Service("b2", journal, rules=Rules(3), variant=JACQUET)
            auth = {"Authorization": f"Bearer {TOKEN}"}
            async with (
                WebServer(create_app(service, token=TOKEN), port=0) as server,
                aiohttp.ClientSession() as session,
            ):
                for fmt in ("mat", "sgf"):
                    async with session.get(f"{server.url}api/export/{fmt}", headers=auth) as got:
                        assert got.status == 409
                        error = (await got.json())["error"]
                        assert error.startswith(f"a .{fmt} file holds backgammon, not jacquet")

    asyncio.run(main())


def test_a_new_match_from_the_web_view_keeps_the_boards_game(tmp_path: Path) -> None:
    """A Jacquet board's New match is a Jacquet match, in the journal and in the flow."""
    with open_journal(tmp_path / "jacquet.sqlite3") as journal:
        service = Service("b3", journal, rules=Rules(3), variant=JACQUET)

        async def new_match() -> None:
            task = asyncio.create_task(service.run())
            await service.apply(NewMatch(5, ("Cy", "Di")))
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

        asyncio.run(new_match())
        assert service.journal.events()[0] == record.MatchStarted(
            ("Cy", "Di"), Rules(5), "jacquet-versailles"
        )
        assert service.flow.variant.scoring is Scoring.JACQUET
        assert service.status().variant == "jacquet-versailles"
        service.journal.close()
