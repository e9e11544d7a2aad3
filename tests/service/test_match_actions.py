"""The service's match actions: the orientation confirmed at the start, a game abandoned,
a new match in a new journal whose numbers go on, each journalled and resumed.

The service runs its real loop and journal; the board is a queue of observations (the
``board`` argument of :meth:`Service.run` takes anything with ``updates()``), as the
sensor board's link would deliver them, in the board's own numbering.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from controller import record
from controller.match.orientation import Orientation
from controller.record.journal import Journal
from controller.record.sgf import write_sgf
from controller.referee import (
    BoardSeen,
    Button,
    ButtonPressed,
    Cells,
    DiceRolled,
    cells_from_board,
)
from controller.rules import START, legal_plays
from controller.service import Service
from controller.service.service import open_journal
from controller.simulated.progress import service_progress, until_progress
from controller.status import (
    ActionError,
    BoardEvent,
    ConfirmOrientation,
    NewGame,
    NewMatch,
)

NAMES = ("Ann", "Bob")


@dataclass(frozen=True)
class _Observation:
    cells: Cells


class QueueBoard:
    """Observations put in by the test, delivered as the board link's ``updates()``."""

    def __init__(self) -> None:
        self.queue: asyncio.Queue[_Observation] = asyncio.Queue()

    def show(self, cells: Cells) -> None:
        self.queue.put_nowait(_Observation(cells))

    async def updates(self) -> AsyncIterator[_Observation]:
        while True:
            yield await self.queue.get()


async def until(service: Service, condition: Callable[[], bool], what: str) -> None:
    """Wait for ``condition`` while ``service`` makes progress (a slow machine is no failure)."""
    await until_progress(what, condition, service_progress(service))


def running(
    service: Service, body: Callable[[Service, QueueBoard, list[BoardEvent]], Awaitable[None]]
) -> list[BoardEvent]:
    """Run ``service`` with a queue board while ``body`` acts; the events it published."""
    board = QueueBoard()
    published: list[BoardEvent] = []

    async def collect() -> None:
        async for update in service.updates():
            if isinstance(update, BoardEvent):
                published.append(update)  # noqa: PERF401 -- read while the service runs

    async def main() -> None:
        collector = asyncio.create_task(collect())
        task = asyncio.create_task(service.run(board=board))
        await asyncio.sleep(0.01)
        try:
            await body(service, board, published)
        finally:
            for t in (task, collector):
                t.cancel()
            await asyncio.gather(task, collector, return_exceptions=True)

    asyncio.run(main())
    return published


def journalled(path: Path) -> list[record.Event]:
    with Journal(path, readonly=True) as journal:
        return journal.events()


def test_the_orientation_the_set_up_shows_is_confirmed_before_the_opening_roll(
    tmp_path: Path,
) -> None:
    path = tmp_path / "journal.sqlite3"
    start = cells_from_board(START)
    # The near player took the checkers of colour B: the set-up shows it.
    physical = Orientation(colour_b=True).logical(start)

    async def body(service: Service, board: QueueBoard, _: list[BoardEvent]) -> None:
        status = service.status()
        assert (status.phase, status.orientation_pending) == ("orientation", True)
        assert "set up the board" in status.text
        board.show(physical)
        await until(
            service, lambda: "Ann near side, colour B" in service.status().orientation, "proposal"
        )
        status = service.status()
        assert status.orientation == "Ann near side, colour B; Bob far side, colour A"
        assert status.text.startswith("who is who: Ann near side, colour B")
        assert "confirm the board's orientation" in status.alerts
        # Ann's checkers light green where they stand (24, 13, 8, 6), Bob's red.
        lights = enumerate(status.lights[:28])
        lit = {i: light.colour for i, light in lights if light.colour != "off"}
        assert {lit[i] for i in (23, 12, 7, 5)} == {"green"} and lit[0] == "red"
        assert status.lights[28].colour == "amber"
        service.feed(DiceRolled((5, 3)))  # no opening roll before the confirmation
        await until(service, lambda: service.counters.refused == 1, "the roll refused")
        service.press(Button.UNDO)  # Bob is player 0 after all: swap sides
        await until(service, lambda: service.status().orientation.startswith("Ann far"), "the swap")
        service.press(Button.DONE)
        await until(service, lambda: not service.status().orientation_pending, "the confirmation")
        assert service.status().phase == "opening"
        assert service.status().cells == Orientation(True, False).logical(physical) == start
        service.feed(DiceRolled((5, 3)))
        await until(service, lambda: service.status().phase == "moving", "the opening roll")

    with open_journal(path) as journal:
        service = Service("b1", journal, names=NAMES, confirm_orientation=True)
        running(service, body)
    assert journalled(path)[1:3] == [
        record.OrientationConfirmed(far=True, colour_b=False),
        record.OpeningRolled((5, 3)),
    ]
    with open_journal(path) as journal:  # a restart keeps what was confirmed
        again = Service("b1", journal, confirm_orientation=True)
        assert (again.orientation, again.orienting) == (Orientation(True, False), False)


def test_the_web_view_confirms_or_swaps_and_the_config_may_skip_it(tmp_path: Path) -> None:
    async def body(service: Service, board: QueueBoard, _: list[BoardEvent]) -> None:
        await service.apply(ConfirmOrientation(swap=True))
        assert service.orientation == Orientation(True, True)
        with pytest.raises(ActionError, match="the orientation is set before a game"):
            service.feed(DiceRolled((6, 1)))
            await until(service, lambda: service.status().phase == "moving", "the opening roll")
            await service.apply(ConfirmOrientation())

    with open_journal(tmp_path / "journal.sqlite3") as journal:
        running(Service("b1", journal, names=NAMES, confirm_orientation=True), body)
    with open_journal(tmp_path / "other.sqlite3") as journal:
        service = Service("b2", journal, names=NAMES, flipped=True)
        assert (service.orienting, service.orientation) == (False, Orientation(True, True))
        assert service.status().phase == "opening" and service.status().orientation_pending is False


def play_opening(service: Service, board: QueueBoard) -> Callable[[], Awaitable[None]]:
    async def go() -> None:
        board.show(cells_from_board(START))
        service.feed(DiceRolled((3, 1)))
        await until(service, lambda: service.status().phase == "moving", "the opening roll")
        after = next(p for p in legal_plays(START, 0, (3, 1)) if p.notation == "8/5 6/5")
        board.show(cells_from_board(after.result))
        await until(
            service, lambda: service.status().cells == cells_from_board(after.result), "moved"
        )
        service.press(Button.DONE)
        service.feed(DiceRolled((6, 2)))
        await until(service, lambda: service.status().dice == (6, 2), "player 1's roll")

    return go


def test_new_game_and_new_match_keep_one_sequence_across_journals(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"

    async def body(service: Service, board: QueueBoard, published: list[BoardEvent]) -> None:
        await play_opening(service, board)()
        await service.apply(NewGame("knocked board"))
        status = service.status()
        assert (status.phase, status.score, status.game_number, status.moves) == (
            "opening",
            (0, 0),
            1,
            (),
        )
        with pytest.raises(ActionError, match="no game in progress"):
            await service.apply(NewGame())
        await play_opening(service, board)()
        last = service.journal.last_seq
        with pytest.raises(ActionError, match="jacoby: money play only"):
            await service.apply(NewMatch(3, options=(("jacoby", True),)))
        with pytest.raises(ActionError, match="a name is 1 to 31 printable characters"):
            await service.apply(NewMatch(3, ("Cy", "")))
        assert service.journal.last_seq == last and service.journal.path == path  # unchanged
        await service.apply(NewMatch(3, ("Cy", "Di"), (("crawford", False),)))
        status = service.status()
        assert (status.players, status.match_length, status.phase) == (("Cy", "Di"), 3, "opening")
        assert (service.journal.first_seq, status.seq) == (last + 1, last + 1)
        assert service.journal.state is not None
        assert service.journal.state.rules.crawford is False
        await play_opening(service, board)()
        await until(
            service, lambda: bool(published) and published[-1].kind == "rolled", "published"
        )

    with open_journal(path) as journal:
        service = Service("b1", journal, names=NAMES)
        published = running(service, body)
        service.journal.close()
    seqs = [event.seq for event in published]
    assert seqs == list(range(2, seqs[-1] + 1))  # every event once, in order, numbers going on
    kinds = [event.kind for event in published]
    assert kinds.count("game_abandoned") == 1 and kinds.count("match_started") == 1
    archived = sorted(tmp_path.glob("journal-*.sqlite3"))
    assert len(archived) == 1
    first, rest = archived[0].name.split("-seq")[1].split(".")[0].split("-")
    with Journal(archived[0], readonly=True) as old:
        assert (old.first_seq, old.last_seq) == (int(first), int(rest))
        match = old.record()
        assert match.names == NAMES and match.state.abandoned == 1
        assert "Ann" in write_sgf(match)  # still exportable
    with open_journal(path) as journal:  # resumed: the numbers still go on
        resumed = Service("b1", journal)
        assert resumed.status().seq == seqs[-1] == journal.last_seq
        assert resumed.status().players == ("Cy", "Di")
        assert journal.events()[0] == record.MatchStarted(
            ("Cy", "Di"),
            journal.events()[0].rules,  # type: ignore[union-attr]
        )


def test_observed_inputs_still_count_while_the_orientation_waits(tmp_path: Path) -> None:
    """Logical observations fed directly (the simulators) reach the flow meanwhile."""

    async def body(service: Service, board: QueueBoard, _: list[BoardEvent]) -> None:
        service.feed(BoardSeen(cells_from_board(START)))
        await until(service, lambda: service.status().cells == cells_from_board(START), "the cells")
        assert service.status().phase == "orientation"

    with open_journal(tmp_path / "journal.sqlite3") as journal:
        running(Service("b1", journal, names=NAMES, confirm_orientation=True), body)


def test_a_new_match_that_cannot_archive_changes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    (tmp_path / "journal-19700101-000000-seq1-1.sqlite3").write_bytes(b"taken")

    async def body(service: Service, board: QueueBoard, _: list[BoardEvent]) -> None:
        with pytest.raises(ActionError, match=r"seq1-1.sqlite3' exists"):
            await service.apply(NewMatch(3, ("Cy", "Di")))
        assert service.status().players == NAMES and not service.journal.closed
        await play_opening(service, board)()  # the match goes on in the same journal
        assert service.journal.last_seq > 1

    with open_journal(path) as journal:
        running(Service("b1", journal, names=NAMES, clock=lambda: 0.0), body)


def test_the_web_views_accept_counts_only_once_an_illegal_play_is_flagged(
    tmp_path: Path,
) -> None:
    """From the web view, Accept with nothing flagged is refused (a 409 to the page); once
    an illegal play is flagged, the same action accepts it. A button pressed too early only
    shows a notice, as before."""
    start = cells_from_board(START)

    async def body(service: Service, board: QueueBoard, _: list[BoardEvent]) -> None:
        board.show(start)
        service.feed(DiceRolled((3, 1)))  # the opening roll: player 0 plays 3-1
        await until(service, lambda: service.status().phase == "moving", "the opening roll")
        with pytest.raises(ActionError, match="no illegal play to accept or demand"):
            await service.apply(ButtonPressed(Button.ACCEPT))
        service.press(Button.ACCEPT)  # the button: a notice, no refusal
        illegal = list(START)
        illegal[24], illegal[18] = illegal[24] - 1, illegal[18] + 1  # 24/18 with a 3-1
        board.show(cells_from_board(tuple(illegal)))
        service.press(Button.DONE)
        await until(service, lambda: service.status().phase == "flagged", "the flag")
        await service.apply(ButtonPressed(Button.ACCEPT))
        await until(service, lambda: service.status().phase == "roll", "the play accepted")

    with open_journal(tmp_path / "journal.sqlite3") as journal:
        service = Service("b1", journal, names=NAMES)
        running(service, body)
    kinds = [type(event).__name__ for event in journalled(tmp_path / "journal.sqlite3")]
    assert "IllegalPlayAccepted" in kinds


def test_a_button_out_of_place_is_refused_and_the_loop_goes_on(tmp_path: Path) -> None:
    """Dice or a position that cannot be never reach the service: such inputs cannot be
    made (``tests/test_status.py``; the web view's 400 in ``tests/web/test_app.py``)."""

    async def body(service: Service, board: QueueBoard, _: list[BoardEvent]) -> None:
        await play_opening(service, board)()
        last = service.journal.last_seq
        service.press(Button.TAKE)  # no double to answer: refused with a notice
        await until(service, lambda: service.counters.refused == 1, "the press refused")
        service.press(Button.DROP)  # and the loop goes on
        await until(service, lambda: service.counters.refused == 2, "the next press refused")
        assert service.journal.last_seq == last and service.status().dice == (6, 2)

    with open_journal(tmp_path / "journal.sqlite3") as journal:
        running(Service("b1", journal, names=NAMES), body)
