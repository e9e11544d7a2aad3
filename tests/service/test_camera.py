"""The camera's events as the flow's inputs, read from vision's typed readings, and the
service loading OpenCV only when it is given a camera."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from controller.match.orientation import Orientation
from controller.referee import DiceCocked, DiceLifted, DiceRolled, DiceUnreadable
from controller.service.camera import camera_input, thrower
from vision import Die, RollEvent, RollReading, Thrower, Verdict

ROOT = Path(__file__).parent.parent.parent

NEAR_SIX = Die(6, (400, 100, 440, 140), 0.99)
"""A six on the view's right: the near player's die."""
FAR_THREE = Die(3, (100, 100, 140, 140), 0.99)


def roll(verdict: Verdict, *dice: Die, reason: str = "") -> RollEvent:
    return RollEvent("roll", RollReading(dice, verdict, reason))


@pytest.mark.parametrize(
    ("event", "expected"),
    [
        (RollEvent("lifted"), DiceLifted()),
        (RollEvent("roll"), None),
        (roll(Verdict.REROLL, NEAR_SIX, FAR_THREE, reason="cocked"), DiceCocked("cocked")),
        (roll(Verdict.REROLL, NEAR_SIX), DiceCocked("irregular roll")),
        (roll(Verdict.UNREADABLE, NEAR_SIX, FAR_THREE), DiceUnreadable()),
        (roll(Verdict.OK, NEAR_SIX), DiceUnreadable()),
        (roll(Verdict.OK, FAR_THREE, NEAR_SIX), DiceRolled((6, 3))),
    ],
    ids=["lifted", "no reading", "reroll", "reroll unsaid", "unreadable", "one die", "read"],
)
def test_each_camera_event_is_one_input(event: RollEvent, expected: object) -> None:
    assert camera_input(event, Orientation.of_flipped(False)) == expected, event


def test_player_0_at_the_far_side_owns_the_far_die() -> None:
    event = roll(Verdict.OK, NEAR_SIX, FAR_THREE)
    assert camera_input(event, Orientation.of_flipped(True)) == DiceRolled((3, 6))


def test_the_thrower_is_told_by_where_he_sits() -> None:
    assert [thrower(None), thrower("near"), thrower("far")] == [
        Thrower.BOTH, Thrower.NEAR, Thrower.FAR]  # fmt: skip
    with pytest.raises(ValueError, match="'left'"):
        thrower("left")


def test_the_service_without_a_camera_loads_no_opencv() -> None:
    # A board run without a camera (a Pi Zero's memory) never imports cv2: only
    # controller.service.camera imports vision, and only once a camera is given.
    code = (
        "import sys, controller.service.service\n"
        "print(sorted({'cv2', 'vision'} & set(sys.modules)))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "[]", out.stderr
