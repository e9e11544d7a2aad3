"""The cube the camera sees against the referee's: a disagreement is said, never adopted."""

from __future__ import annotations

from controller.rules import CubeState
from controller.rules.cube import CubePhase
from controller.service.cube_seen import CubeSeen, cube_disagreement
from controller.service.orientation import Orientation

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
    from controller.service.demo import roll_pool
    from vision import Calibration, DiceReader

    pool = roll_pool(0)
    reader = DiceReader(Calibration.identity(), expected_dice=2)
    reader.set_background(pool.empty)
    seen = [(i, reading.cube) for i, roll in enumerate(pool.rolls)
            if (reading := reader.read(roll.image, roll.thrower)).cube is not None]
    assert seen == []
