"""The page's downloads of a match GNU Backgammon's files cannot hold (Jacquet, nackgammon).

``/api/export/jsonl`` and ``/api/export/txt`` serve the events one JSON object a line and
the text record, behind the token as the other downloads; ``.mat`` and ``.sgf`` stay
refused (409) and the refusal names the page's downloads.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from pathlib import Path

import aiohttp
import pytest

from controller import record
from controller.record import exports, sgf
from controller.referee import DiceRolled
from controller.rules import JACQUET, NACKGAMMON, Rules, Variant
from controller.service import Service
from controller.service.service import open_journal
from controller.web import WebServer, create_app

TOKEN = "referee-token-0123456789"


async def _rolled(service: Service) -> None:
    """The opening roll (or primauté) fed to the running service, journalled."""
    task = asyncio.create_task(service.run())
    seq = service.status().seq
    service.feed(DiceRolled((6, 2)))
    while service.status().seq == seq:
        await asyncio.sleep(0.001)
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task


@pytest.mark.parametrize("variant", [JACQUET, NACKGAMMON])
def test_other_variants_download_their_events_and_text_record(
    tmp_path: Path, variant: Variant
) -> None:
    async def main() -> None:
        with open_journal(tmp_path / "match.sqlite3") as journal:
            service = Service("b1", journal, names=("Ann", "Bob"), rules=Rules(3), variant=variant)
            await _rolled(service)
            auth = {"Authorization": f"Bearer {TOKEN}"}
            async with (
                WebServer(create_app(service, token=TOKEN), port=0) as server,
                aiohttp.ClientSession() as session,
            ):
                url = server.url + "api/export/"
                async with session.get(url + "jsonl", headers=auth) as got:
                    assert got.status == 200, await got.text()
                    assert got.content_type == "application/x-ndjson"
                    assert 'filename="b1.jsonl"' in got.headers["Content-Disposition"]
                    lines = (await got.text()).splitlines()
                assert [record.event_from_json(line) for line in lines] == journal.events()
                assert record.replay(journal.events()).variant == variant
                async with session.get(url + "txt", headers=auth) as got:
                    assert got.status == 200 and got.content_type == "text/plain"
                    assert 'filename="b1.txt"' in got.headers["Content-Disposition"]
                    text = await got.text()
                assert text.splitlines()[0] == f"Ann - Bob, {variant.name}, 3-point match"
                for fmt in ("mat", "sgf"):
                    async with session.get(url + fmt, headers=auth) as got:
                        assert got.status == 409
                        error = (await got.json())["error"]
                    assert error.startswith(f"a .{fmt} file holds backgammon, not {variant.name}")
                    assert error.endswith("on this page: Download .jsonl or .txt")
                for fmt in ("jsonl", "txt"):  # behind the token, as the other downloads
                    async with session.get(url + fmt) as got:
                        assert got.status == 401
                    bad = {"Authorization": "Bearer wrong-token-0123456789"}
                    async with session.get(url + fmt, headers=bad) as got:
                        assert got.status == 403
                async with session.get(url + "json", headers=auth) as got:
                    assert got.status == 404
                    assert (await got.json())["error"] == (
                        "no export format 'json': mat, sgf, jsonl, txt"
                    )

    asyncio.run(main())


def test_a_download_is_written_off_the_loop(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A long match's ``.sgf`` takes tens of milliseconds here, several times that on a Pi:
    written on the loop, it held the board's reading and the LEDs meanwhile."""
    writers: list[int] = []

    def write_sgf(match: record.MatchRecord) -> str:
        writers.append(threading.get_ident())
        return sgf.write_sgf(match)

    monkeypatch.setitem(exports._WRITERS, "sgf", write_sgf)

    async def main() -> None:
        with open_journal(tmp_path / "match.sqlite3") as journal:
            service = Service("b1", journal, names=("Ann", "Bob"), rules=Rules(3))
            await _rolled(service)
            auth = {"Authorization": f"Bearer {TOKEN}"}
            async with (
                WebServer(create_app(service, token=TOKEN), port=0) as server,
                aiohttp.ClientSession() as session,
                session.get(server.url + "api/export/sgf", headers=auth) as got,
            ):
                assert got.status == 200, await got.text()
                assert await got.text() == sgf.write_sgf(journal.record())
        assert writers and threading.get_ident() not in writers

    asyncio.run(main())
