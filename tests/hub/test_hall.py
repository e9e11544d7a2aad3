"""A hall of simulated boards through a real Mosquitto broker to one hub.

Each board is a :class:`~controller.simulated.board_service.SelfPlayBoard` publishing through its
own :class:`~controller.mqtt.MqttPublisher` connection (tasks in this process, or a process
of its own where it must die); the broker is Debian's mosquitto on a free loopback port.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING

import aiohttp
import pytest

from controller.config import MqttConfig
from controller.hub import BoardView, Hub, hub_process
from controller.mqtt import MqttPublisher, encode_event, topic
from controller.mqtt.mosquitto import Mosquitto
from controller.record.matfile import read_mat
from controller.record.sgf import read_sgf
from controller.simulated.board_service import SelfPlayBoard
from controller.status import BoardEvent
from tests._browser import ARTIFACTS, CHROMIUM, chromium_page
from tests.firmware_bridge.conftest import PATIENCE_S

if TYPE_CHECKING:
    from playwright.async_api import Page

    from controller.hub.state import Archive

ROOT = Path(__file__).resolve().parents[2]
MOSQUITTO_CHECK_S = 6
"""Mosquitto 2.0 looks for expired keep-alives when more than 5 whole seconds have passed."""

try:
    _probe = Mosquitto(Path("/nonexistent"))
except Exception:
    pytest.skip("Debian's mosquitto is missing: make system-deps", allow_module_level=True)


def hub_config(broker: Mosquitto) -> MqttConfig:
    return MqttConfig(broker.url, "hub")


async def until(condition: Callable[[], bool], timeout: float, what: str) -> float:
    """Wait for ``condition``; the seconds it took."""
    start = time.monotonic()
    while not condition():
        if time.monotonic() - start > timeout:
            raise AssertionError(f"{what}: not within {timeout} s")
        await asyncio.sleep(0.01)
    return time.monotonic() - start


def run_hall(tmp_path: Path, body: Callable[[Mosquitto, Hub], Awaitable[None]]) -> None:
    with Mosquitto(tmp_path / "broker") as broker:
        hub = Hub(hub_config(broker), tmp_path / "archive", port=0, keepalive=2)

        async def main() -> None:
            task = asyncio.create_task(hub.run())
            try:
                await until(lambda: hub.connected, PATIENCE_S, "the hub connects")
                await body(broker, hub)
            finally:
                task.cancel()
                await asyncio.gather(task, return_exceptions=True)

        asyncio.run(main())


async def play(board: SelfPlayBoard, publisher: MqttPublisher, delay: float) -> None:
    task = asyncio.create_task(publisher.run())
    await asyncio.sleep(0.05)  # let it subscribe to the board's updates and connect
    await board.play(delay)
    board.close()
    await task


def check_every_event_once_in_order(hub: Hub, boards: list[SelfPlayBoard]) -> None:
    for board in boards:
        view = hub.state.boards[board.board_id]
        assert (view.first_seq, view.last_seq, view.events, view.missing) == (
            1,
            board.seq,
            board.seq,
            0,
        ), board.board_id
        assert view.status is not None and view.status.seq == board.seq
        assert view.problems == []


def test_fifty_boards_through_one_broker_to_one_hub(tmp_path: Path) -> None:
    boards = [SelfPlayBoard(f"b{n:02}", seed=n, match_length=1) for n in range(50)]

    async def body(broker: Mosquitto, hub: Hub) -> None:
        publishers = [
            MqttPublisher(
                b, MqttConfig(broker.url, b.board_id), backoff=(0.1, 1.0), backlog=b.backlog
            )
            for b in boards
        ]
        start = time.monotonic()
        await asyncio.gather(*(play(b, p, 0.002) for b, p in zip(boards, publishers, strict=True)))
        total = sum(b.seq for b in boards)
        await until(lambda: hub.state.summary()["events"] == total, PATIENCE_S, "every event taken")
        elapsed = time.monotonic() - start
        summary = hub.summary
        await until(lambda: summary()["archived"] == 50, PATIENCE_S, "every match archived")
        await until(lambda: summary()["online"] == 0, PATIENCE_S, "every board said offline")
        print(f"50 boards: {total} events in {elapsed:.1f} s ({total / elapsed:.0f} events/s)")
        assert all(p.dropped == 0 and p.connections == 1 for p in publishers)

    run_hall(tmp_path, body)
    # Rebuilt from the events alone, each match is the board's own, checked by the replay.
    assert hub_events_match(tmp_path, boards)


def hub_events_match(tmp_path: Path, boards: list[SelfPlayBoard]) -> bool:
    for board in boards:
        folder = tmp_path / "archive" / board.board_id
        (mat,) = folder.glob("*.mat")
        (sgf,) = folder.glob("*.sgf")
        assert mat.read_text() == asyncio.run(board.export("mat"))
        assert read_mat(mat.read_text()).record().state.match.score == board.status().score
        assert read_sgf(sgf.read_text()).state.match.score == board.status().score
    return True


def test_the_broker_restarted_mid_game_loses_nothing(tmp_path: Path) -> None:
    boards = [SelfPlayBoard(f"r{n}", seed=100 + n, match_length=3) for n in range(5)]
    holder: dict[str, Hub] = {}

    async def body(broker: Mosquitto, hub: Hub) -> None:
        holder["hub"] = hub
        publishers = [
            MqttPublisher(
                b, MqttConfig(broker.url, b.board_id), backoff=(0.1, 0.5), backlog=b.backlog
            )
            for b in boards
        ]
        games = asyncio.gather(*(play(b, p, 0.01) for b, p in zip(boards, publishers, strict=True)))
        await until(lambda: hub.state.summary()["events"] > 100, PATIENCE_S, "the games under way")
        broker.stop()
        during = [b.seq for b in boards]
        await asyncio.sleep(1.0)  # the boards play on, their events queued
        assert all(p.connected is False for p in publishers)
        assert sum(len(p.outbox) for p in publishers) > 0
        broker.start()
        await games
        assert [b.seq for b in boards] > during
        total = sum(b.seq for b in boards)
        await until(lambda: hub.state.summary()["events"] == total, PATIENCE_S, "every event taken")
        # A board publishes its status after its events: the last one may still be on its way.
        views = hub.state.boards
        await until(
            lambda: all(
                (status := views[b.board_id].status) is not None and status.seq == b.seq
                for b in boards
            ),
            PATIENCE_S,
            "every board's last status at the hub",
        )
        assert all(p.dropped == 0 and p.connections == 2 for p in publishers)
        print(f"broker restart: {hub.state.summary()['duplicates']} duplicates taken once")

    run_hall(tmp_path, body)
    check_every_event_once_in_order(holder["hub"], boards)


async def shown_offline_on_the_page(url: str, board_ids: tuple[str, ...]) -> None:
    """The hub's page, in chromium, shows each of ``board_ids`` offline; a screenshot."""
    if shutil.which(CHROMIUM) is None:
        return  # the MQTT part stands on its own; the browser tests skip with a reason
    async with chromium_page(viewport={"width": 900, "height": 700}) as page:
        await page.goto(url)
        for board_id in board_ids:
            badge = page.locator(f'article[data-board="{board_id}"] .badge')
            await badge.filter(has_text="offline").wait_for()
            alerts = page.locator(f'article[data-board="{board_id}"] .alerts')
            assert "board offline" in (await alerts.text_content() or "")
        ARTIFACTS.mkdir(exist_ok=True)
        await page.screenshot(path=str(ARTIFACTS / "hub.png"), full_page=True)


def test_a_board_that_dies_is_shown_offline_within_its_keepalive(tmp_path: Path) -> None:
    keepalive = 1

    async def body(broker: Mosquitto, hub: Hub) -> None:
        def board(board_id: str) -> subprocess.Popen[bytes]:
            return subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "tests.mqtt.board_process",
                    broker.url,
                    board_id,
                    str(keepalive),
                ],
                cwd=ROOT,
            )

        frozen, killed = board("frozen"), board("killed")
        try:
            views = hub.state.boards
            for name in ("frozen", "killed"):
                await until(
                    lambda n=name: n in views and views[n].online and views[n].events > 5,
                    PATIENCE_S,
                    f"board {name} playing",
                )
            # A power cut: the process stops answering, its connection stays open.
            frozen.send_signal(signal.SIGSTOP)
            lost = await until(lambda: views["frozen"].online is False, 15, "frozen")
            # The hub hears a heartbeat every half keep-alive: silent for a keep-alive, the
            # board is offline by the hub's own judgement, before the broker's last will
            # (1.5 keep-alives, and Mosquitto 2.0 looks only every MOSQUITTO_CHECK_S
            # seconds). Read now: on a busy machine the will may come during the page check.
            silent_when_lost = views["frozen"].silent
            # A crash: the process dies, the kernel closes its connection.
            killed.kill()
            gone = await until(lambda: views["killed"].online is False, 2, "killed")
            assert "board offline" in views["frozen"].alerts()
            print(
                f"offline after: frozen {lost:.2f} s (keep-alive {keepalive} s), "
                f"killed {gone:.2f} s"
            )
            await shown_offline_on_the_page(hub.web.url, ("frozen", "killed"))
            assert views["killed"].first_seq == 1  # followed from the match's start
            assert silent_when_lost, f"offline after {lost:.2f} s, but not for its silence"
            # Thawed, it speaks again on its open connection: back online.
            frozen.send_signal(signal.SIGCONT)
            await until(lambda: views["frozen"].online is True, PATIENCE_S, "thawed")
        finally:
            for process in (frozen, killed):
                os.kill(process.pid, signal.SIGKILL)
                process.wait()

    run_hall(tmp_path, body)


def test_the_hub_command_serves_the_hall(tmp_path: Path) -> None:
    with (
        Mosquitto(tmp_path / "broker") as broker,
        hub_process(broker.url, tmp_path / "archive") as (_, url),
    ):

        async def main() -> None:
            board = SelfPlayBoard("cli", seed=1, match_length=1)
            publisher = MqttPublisher(board, MqttConfig(broker.url, "cli"), backlog=board.backlog)
            await play(board, publisher, 0)
            deadline = time.monotonic() + PATIENCE_S
            async with aiohttp.ClientSession() as session:
                while True:  # the match finished, and its files written
                    async with session.get(url + "api/boards") as response:
                        summary = (await response.json())["summary"]
                    if (summary["archived"], summary["unwritten"]) == (1, 0):
                        break
                    assert time.monotonic() < deadline, f"not archived: {summary}"
                    await asyncio.sleep(0.02)

        asyncio.run(main())
        assert len(list((tmp_path / "archive" / "cli").glob("*.mat"))) == 1


def test_demo_boards_publish_through_the_broker_to_the_hub(tmp_path: Path) -> None:
    """``tabula demo --broker`` (the whole service on simulated hardware) as hall boards."""
    seeds = (3, 4)

    async def body(broker: Mosquitto, hub: Hub) -> None:
        demos = [
            await asyncio.create_subprocess_exec(
                *[sys.executable, "-m", "controller.cli", "demo", "--headless"],
                *["--games", "1", "--length", "1", "--seed", str(seed)],
                *["--out", str(tmp_path / f"demo-{seed}"), "--broker", broker.url],
                *["--board-id", f"demo-{seed}"],
                cwd=ROOT,
                stdout=asyncio.subprocess.DEVNULL,
            )
            for seed in seeds
        ]
        assert [await demo.wait() for demo in demos] == [0, 0]
        await until(lambda: hub.state.summary()["archived"] == len(seeds), PATIENCE_S, "archived")
        views.update(hub.state.boards)

    views: dict[str, BoardView] = {}
    run_hall(tmp_path, body)
    from controller.service.service import open_journal

    for seed in seeds:
        with open_journal(tmp_path / f"demo-{seed}" / "match-1.sqlite3") as journal:
            entries = journal.entries()
        (sgf,) = (tmp_path / "archive" / f"demo-{seed}").glob("*.sgf")
        assert sgf.read_text() == (tmp_path / f"demo-{seed}" / "match-1.sgf").read_text()
        assert len(entries) > 10  # a whole game: the start, the opening, plays, the end
        view = views[f"demo-{seed}"]
        assert (view.first_seq, view.events, view.last_seq, view.missing, view.problems) == (
            1,
            len(entries),
            entries[-1].seq,
            0,
            [],
        )


def test_the_hall_page_holds_more_spectators_than_a_board_page(tmp_path: Path) -> None:
    """A board's page holds 128 connections; the hall's holds a big hall's phones: 140 from
    nine addresses (16 each at most, as on a board's page) are all taken."""

    async def body(broker: Mosquitto, hub: Hub) -> None:
        writers = []
        try:
            for n in range(140):
                source = f"127.0.0.{n // 16 + 1}"
                _, writer = await asyncio.open_connection(
                    "127.0.0.1", hub.web.port, local_addr=(source, 0)
                )
                writers.append(writer)
            await until(lambda: hub.web.connections == 140, PATIENCE_S, "the page takes them all")
            assert hub.web.refused == 0
        finally:
            for writer in writers:
                writer.close()

    run_hall(tmp_path, body)


def test_the_hall_page_serves_only_its_files(tmp_path: Path) -> None:
    async def body(broker: Mosquitto, hub: Hub) -> None:
        async with aiohttp.ClientSession() as session:
            for name, code in (
                ("hub.js", 200),
                ("board.js", 200),
                ("follow.js", 200),
                ("page.js", 404),
            ):
                async with session.get(hub.web.url + "static/" + name) as response:
                    assert response.status == code, name
            for name in ("a" * 5000 + ".js", "é" * 300 + ".css", "..%2fhub.html"):
                async with session.get(hub.web.url + "static/" + name) as response:
                    assert response.status == 404, name[:20]
                    error = (await response.json())["error"]
                    assert error.startswith("no static file '") and len(error) < 70, error[:80]

    run_hall(tmp_path, body)


def test_the_summary_alone_counts_what_the_cards_count(tmp_path: Path) -> None:
    """``/api/summary``: a poller of a big hall gets the counts without every board's card."""

    async def body(broker: Mosquitto, hub: Hub) -> None:
        board = SelfPlayBoard("summed", seed=2, match_length=1)
        publisher = MqttPublisher(board, MqttConfig(broker.url, "summed"), backlog=board.backlog)
        await play(board, publisher, 0)
        # The match's files are written on a thread of their own: the counts stand still
        # once they are (unwritten 0), so that both answers below see the same.
        summary = hub.summary
        await until(lambda: (summary()["archived"], summary()["unwritten"]) == (1, 0), PATIENCE_S,
                    "archived and written")  # fmt: skip
        async with aiohttp.ClientSession() as session:
            async with session.get(hub.web.url + "api/summary") as response:
                summary = await response.json()
            async with session.get(hub.web.url + "api/boards") as response:
                assert summary == (await response.json())["summary"]
        assert (summary["boards"], summary["events"], summary["archived"]) == (1, board.seq, 1)

    run_hall(tmp_path, body)


def _finished_match(board_id: str) -> tuple[SelfPlayBoard, list[BoardEvent]]:
    """A board's 1-point match played through, and its events as the hub hears them."""
    board = SelfPlayBoard(board_id, seed=4, match_length=1)
    updates = asyncio.run(board.play_through())
    return board, [update for update in updates if isinstance(update, BoardEvent)]


def test_a_match_the_archive_refuses_is_kept_said_and_written_once_it_can_be(
    tmp_path: Path,
) -> None:
    """The archive folder refuses a finished match (here a file stands where its board's
    folder goes; on a hall's Pi, a full card): the hub wrote nothing and raised OSError out
    of its loop before, losing the match, whose events the broker does not send again.
    Now it keeps the match, says why on its page, and writes it once it can, with no other
    message to prompt it."""
    board, events = _finished_match("b1")
    blocker = tmp_path / "archive" / "b1"  # where the board's folder goes

    async def body(broker: Mosquitto, hub: Hub) -> None:
        blocker.parent.mkdir(exist_ok=True)
        blocker.touch()
        for event in events:
            hub.take(topic("b1", "events"), encode_event(event))
        await until(lambda: hub.archive_problem is not None, PATIENCE_S, "the write refused")
        summary = hub.summary()
        assert (summary["archived"], summary["unwritten"], hub.written) == (1, 1, [])
        problem = str(summary["archive_problem"])
        assert problem.startswith("1 match(es) not archived yet: cannot write b1/match-")
        assert hub.unwritten[0].match is None  # kept as its files' texts
        async with _hall_page(hub.web.url) as page:
            shown = None if page is None else page.locator("#archive-problem")
            if shown is not None:
                await shown.filter(has_text=problem).wait_for(timeout=PATIENCE_S * 1000)
            blocker.unlink()  # room again: the hub tries again by itself
            await until(lambda: not hub.unwritten, PATIENCE_S, "the match written")
            assert hub.summary()["archive_problem"] is None
            if shown is not None:
                await shown.wait_for(state="hidden", timeout=PATIENCE_S * 1000)

    run_hall(tmp_path, body)
    hub_files = sorted((tmp_path / "archive" / "b1").iterdir())
    assert [path.suffix for path in hub_files] == [".mat", ".sgf"]
    assert read_mat(hub_files[0].read_text()).record().state.match.score == board.status().score


def test_a_match_still_unwritten_when_the_hub_stops_is_named_in_its_log(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    _, events = _finished_match("b2")

    async def body(broker: Mosquitto, hub: Hub) -> None:
        (tmp_path / "archive").mkdir(exist_ok=True)
        (tmp_path / "archive" / "b2").touch()  # and it stays: never written
        for event in events:
            hub.take(topic("b2", "events"), encode_event(event))

    with caplog.at_level(logging.ERROR, logger="controller.hub.server"):
        run_hall(tmp_path, body)
    (stopping,) = [r.message for r in caplog.records if "stopping with" in r.message]
    assert stopping.startswith("hub: stopping with 1 finished match(es) not archived (b2/match-")


def test_a_refusing_archive_is_not_tried_on_every_message(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While the archive refuses, the hall's other messages do not each try it again (a
    busy hall on a full card tried it hundreds of times a second): a new finished match
    does, and the retry every few seconds."""
    from controller.hub import server

    _, events = _finished_match("b3")
    tried: list[str] = []
    write = server.write_archive

    def counted(directory: Path, archive: Archive) -> list[Path]:
        tried.append(archive.name)
        return write(directory, archive)

    async def body(broker: Mosquitto, hub: Hub) -> None:
        (tmp_path / "archive").mkdir(exist_ok=True)
        (tmp_path / "archive" / "b3").touch()  # the board's folder cannot be made
        monkeypatch.setattr(server, "write_archive", counted)
        for event in events:
            hub.take(topic("b3", "events"), encode_event(event))
        await until(lambda: hub.archive_problem is not None, PATIENCE_S, "the write refused")
        assert len(tried) == 1 and hub.unwritten
        for _ in range(200):  # another board's game going on
            hub.take(topic("b4", "events"), encode_event(events[0]))
        assert len(tried) < 10  # the periodic retry only, however slow the machine

    run_hall(tmp_path, body)


def test_a_finished_match_is_written_off_the_loop(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A 25-point match's files took the hub's loop some 60 ms of CPU and the card's syncs
    (the hall's page and the broker's keep-alive waiting): they are made and written in a
    worker thread."""
    from controller.hub import server

    _, events = _finished_match("b6")
    write = server.write_archive
    writers: list[int] = []

    def noted(directory: Path, archive: Archive) -> list[Path]:
        writers.append(threading.get_ident())
        return write(directory, archive)

    async def body(broker: Mosquitto, hub: Hub) -> None:
        monkeypatch.setattr(server, "write_archive", noted)
        for event in events:
            hub.take(topic("b6", "events"), encode_event(event))
        await until(lambda: bool(hub.written), PATIENCE_S, "the match written")
        assert writers and threading.get_ident() not in writers

    run_hall(tmp_path, body)


def test_a_match_whose_files_cannot_be_made_is_kept_and_said_with_its_traceback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A fault of this program in a match's files (none is known: the writers take a match
    that replayed) stopped the hub's archive in silence: the writing task ended with it,
    the match stayed first in line, and the page said nothing. Now it is said, once in the
    log with its traceback, and the match is kept and written once it can be."""
    from controller.hub import server

    _, events = _finished_match("b5")
    write = server.write_archive
    faulty = [True]

    def failing_once(directory: Path, archive: Archive) -> list[Path]:
        if faulty:
            raise ValueError("a fault of the writers")
        return write(directory, archive)

    async def body(broker: Mosquitto, hub: Hub) -> None:
        monkeypatch.setattr(server, "write_archive", failing_once)
        for event in events:
            hub.take(topic("b5", "events"), encode_event(event))
        await until(lambda: hub.archive_problem is not None, PATIENCE_S, "the fault said")
        assert str(hub.summary()["archive_problem"]).startswith(
            "1 match(es) not archived yet: cannot make the files of b5/match-"
        )
        assert "ValueError('a fault of the writers')" in str(hub.archive_problem)
        faulty.clear()
        await until(lambda: not hub.unwritten, PATIENCE_S, "the match written")

    with caplog.at_level(logging.ERROR, logger="controller.hub.server"):
        run_hall(tmp_path, body)
    (said,) = [r for r in caplog.records if "cannot make the files" in r.getMessage()]
    assert said.exc_info is not None and said.exc_info[0] is ValueError
    assert sorted(p.suffix for p in (tmp_path / "archive" / "b5").iterdir()) == [".mat", ".sgf"]


@contextlib.asynccontextmanager
async def _hall_page(url: str) -> AsyncIterator[Page | None]:
    """The hub's page open in chromium, or None where chromium is missing (the hub's part
    of a test stands on its own; the browser tests skip with a reason)."""
    if shutil.which(CHROMIUM) is None:
        yield None
        return
    async with chromium_page() as page:
        await page.goto(url)
        yield page
