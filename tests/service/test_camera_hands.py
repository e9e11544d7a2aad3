"""The service with the real dice watcher: a hand over dice that stayed put is no roll.

A hand passing over the dice was read as a second roll, which the flow takes for the
opponent's: after a finished play it said "the roll was void: player 1 rolls again";
mid-play it recorded the half-made play as an illegal play accepted. The camera is the
simulated table's (:class:`TableCamera`), showing rendered frames to the real
``RollWatcher`` and ``DiceReader``; the board is a queue of observations.
"""

from __future__ import annotations

import asyncio
import functools
import random
from pathlib import Path
from typing import Any

import pytest

from controller import record
from controller.referee import Cells, cells_from_board, location_of
from controller.rules import START, legal_plays
from controller.service import Service
from controller.service.service import open_journal
from controller.simulated.camera import TableCamera
from controller.status import BoardStatus
from tests.service.test_match_actions import NAMES, QueueBoard, journalled, until
from vision import (
    Calibration,
    DiceReader,
    RollWatcher,
    SettleDetector,
    Verdict,
    hand_crossing,
    leaning_over,
    render_roll,
)


@functools.cache
def opening_roll() -> tuple[Any, Any, tuple[int, int]]:
    """A rendered roll the reader reads right, of two different dice (an opening roll
    that decides, one die in each player's half): its image, its empty board, and the
    dice (near player's, far one's)."""
    reader = DiceReader(Calibration.identity(), expected_dice=2)
    for seed in range(40):
        roll = render_roll(random.Random(seed), board_seed=3, thrower="both")
        reader.set_background(roll.background)
        reading = reader.read(roll.image, "both")
        near, far = sorted(roll.dice, key=lambda die: -(die.box[0] + die.box[2]))
        truth = tuple(sorted((near.value, far.value), reverse=True))
        if reading.verdict is Verdict.OK and reading.values == truth and near.value != far.value:
            return roll.image, roll.background, (near.value, far.value)
    raise LookupError("no rendered opening roll read right in 40 seeds")


def table_camera(empty: Any) -> tuple[TableCamera, RollWatcher]:
    """The simulated table's camera showing ``empty``, and the real watcher reading it
    with the demo's settings (the empty board learnt)."""
    camera = TableCamera(empty, period_s=0.005)
    reader = DiceReader(Calibration.identity(), expected_dice=2)
    reader.set_background(empty)
    return camera, RollWatcher(lambda: camera, reader, settle=SettleDetector(frames=1),
                               votes=1)


def moved(cells: Cells, player: int, source: int, destination: int) -> Cells:
    """``cells`` with one checker of ``player`` moved (no hit), in his numbering."""
    out = list(cells)
    for location, step in (
        (location_of(player, source), -1),
        (location_of(player, destination), 1),
    ):
        count = out[location]
        assert count is not None
        out[location] = (count[0] + step, count[1]) if player == 0 else (count[0], count[1] + step)
    return tuple(out)


def play_with_a_hand(path: Path, *, mid_play: bool) -> list[str]:
    """Open a game by the camera, play the first turn with a hand over the dice after the
    play (or a player leaning over them mid-play), lift the dice; the texts shown."""
    image, empty, _dice = opening_roll()
    camera, watcher = table_camera(empty)
    board = QueueBoard()
    texts: list[str] = []
    rng = random.Random(5)

    async def pass_over(frames: list[Any]) -> None:
        camera.pass_over(frames)
        await camera.taken_in(len(frames) + 3)

    async def body(service: Service) -> None:
        board.show(cells_from_board(START))
        camera.show(image)
        await until(service, lambda: service.status().phase == "moving", "the opening roll")
        status = service.status()
        assert status.turn is not None and status.dice is not None
        mover, dice = status.turn, (status.dice[0], status.dice[1])
        play = next(p for p in legal_plays(START, mover, dice) if len(p.moves) == 2)
        if mid_play:
            board.show(moved(cells_from_board(START), mover, *play.moves[0]))
            await until(service, lambda: service.status().verdict == "partial", "the first move")
            await pass_over(leaning_over(image, [], rng, cover="both", frames=6, sigma=0))
            # Leaning there until the status says so: the camera is covered, not lost.
            camera.show(leaning_over(image, [], rng, cover="one", frames=2, sigma=0)[-1])
            await until(service, lambda: service.status().links["camera"] == "covered", "covered")
            camera.show(image)
            await until(service, lambda: service.status().links["camera"] == "live", "uncovered")
        board.show(cells_from_board(play.result))
        await until(
            service,
            lambda: service.status().verdict == "complete" or service.status().turn != mover,
            "the play",
        )
        status = service.status()
        assert (status.turn, status.verdict) == (mover, "complete"), status.text
        if not mid_play:
            await pass_over(hand_crossing(image, [], rng, frames=6, sigma=0))
        camera.show(empty)  # the dice lifted: the play is committed
        await until(service, lambda: service.status().turn == 1 - mover, "the next turn")

    async def main() -> None:
        with open_journal(path) as journal:
            service = Service("b1", journal, names=NAMES)

            async def collect() -> None:
                async for update in service.updates():
                    if isinstance(update, BoardStatus):
                        texts.append(update.text)  # noqa: PERF401 -- read while it runs

            tasks = [
                asyncio.create_task(service.run(board=board, camera=watcher)),
                asyncio.create_task(collect()),
            ]
            try:
                await body(service)
            finally:
                camera.close()
                for task in tasks:
                    task.cancel()
                await asyncio.gather(*tasks, return_exceptions=True)

    asyncio.run(main())
    return texts


@pytest.mark.parametrize("mid_play", [False, True], ids=["after-the-play", "mid-play"])
def test_a_hand_over_dice_that_stayed_put_is_no_roll(tmp_path: Path, mid_play: bool) -> None:
    path = tmp_path / "journal.sqlite3"
    texts = play_with_a_hand(path, mid_play=mid_play)
    events = journalled(path)[1:]
    kept = [e for e in events if not isinstance(e, record.Observed | record.Flagged)]
    assert [type(e) for e in kept] == [record.OpeningRolled, record.Played], kept
    assert not [e for e in events if isinstance(e, record.IllegalPlayAccepted | record.Flagged)]
    assert not [text for text in texts if "void" in text], texts
