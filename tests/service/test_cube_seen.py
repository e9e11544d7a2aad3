"""The cube the camera sees against the referee's: a disagreement is said, never adopted."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

from controller.match.cube_seen import CubeSeen, cube_disagreement
from controller.match.orientation import Orientation
from controller.referee import cells_from_board
from controller.rules import START, CubeState
from controller.rules.cube import CubePhase
from controller.service import Service
from controller.service.service import open_journal
from controller.simulated.demo import roll_pool
from tests.service.test_camera_hands import opening_roll, table_camera
from tests.service.test_match_actions import QueueBoard, until
from vision import Calibration, DiceReader
from vision._synth import place_cube

NAMES = ("Ann", "Bob")


def said(seen: CubeSeen | None, cube: CubeState | None, far: bool = False) -> str | None:
    return cube_disagreement(seen, cube, Orientation(far=far), NAMES)


def test_a_cube_where_the_referee_has_it_says_nothing() -> None:
    assert said(CubeSeen(64, "centre", (1, None)), CubeState()) is None
    assert said(CubeSeen(4, "far", (4, 1)), CubeState(value=4, owner=1)) is None
    # Player 0 at the far side: Ann's cube stands at the far side.
    assert said(CubeSeen(2, "far", (2, 0)), CubeState(value=2, owner=0), far=True) is None


def test_a_wrong_face_or_side_is_said_in_the_players_words() -> None:
    cube = CubeState(value=2, owner=0)
    assert said(CubeSeen(64, "centre", (2, 0)), cube) == (
        "the cube shows 64 in the centre; the referee has 2 on Ann's side")
    assert said(CubeSeen(2, "near", (2, 0)), cube, far=True) == (
        "the cube shows 2 on Bob's side; the referee has 2 on Ann's side")
    assert said(CubeSeen(2, "centre", (1, None)), CubeState()) == (
        "the cube shows 2 in the centre; the referee has it in the centre, not turned")


def test_nothing_is_said_of_a_cube_in_hand_unseen_or_seen_before_it_changed() -> None:
    offered = CubeState(value=2, owner=0, turn=0, phase=CubePhase.DOUBLED)
    assert said(CubeSeen(64, "centre", (2, 0)), offered) is None
    assert said(None, CubeState()) is None
    assert said(CubeSeen(64, "centre", (1, None)), None) is None  # no game yet
    # Seen before the take: the cube is being moved; the next roll's picture tells.
    assert said(CubeSeen(64, "centre", (1, None)), CubeState(value=2, owner=1)) is None


def test_the_camera_sees_no_cube_on_the_demo_table_where_none_lies() -> None:
    # The gaps between white checkers on a light point were read as a 4 or a 64: a
    # false "check the cube" in a game whose cube was off the table.
    pool = roll_pool(0)
    reader = DiceReader(Calibration.identity(), expected_dice=2)
    reader.set_background(pool.empty)
    seen = [(i, reading.cube) for i, roll in enumerate(pool.rolls)
            if (reading := reader.read(roll.image, roll.thrower)).cube is not None]
    assert seen == []


def test_a_cube_on_the_wrong_side_in_the_opening_picture_is_an_alert(tmp_path: Path) -> None:
    # The real watcher and reader on the simulated table's camera: the cube turned to 4
    # on the far player's side before any double; the referee has it in the centre.
    image, empty, _dice = opening_roll()
    camera, watcher = table_camera(empty)
    board = QueueBoard()

    async def main() -> tuple[str, ...]:
        with open_journal(tmp_path / "journal.sqlite3") as journal:
            service = Service("b1", journal, names=NAMES)  # Ann near, Bob far
            task = asyncio.create_task(service.run(board=board, camera=watcher))
            try:
                board.show(cells_from_board(START))
                camera.show(place_cube(image, 4, "far", random.Random(1)))
                await until(service, lambda: service.status().phase == "moving", "the roll")
                return service.status().alerts
            finally:
                camera.close()
                task.cancel()
                await asyncio.gather(task, return_exceptions=True)

    alerts = asyncio.run(main())
    assert "check the cube: the cube shows 4 on Bob's side; the referee has it in the " \
        "centre, not turned" in alerts, alerts
