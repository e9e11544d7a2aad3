from __future__ import annotations

import random

import numpy as np
import pytest

from vision import Calibration, DiceReader, ImageError, Verdict, render_roll


def _reader(roll_background: np.ndarray) -> DiceReader:
    reader = DiceReader(Calibration.identity(), expected_dice=2)
    reader.set_background(roll_background)
    return reader


@pytest.mark.parametrize(
    ("kind", "reason"),
    [("off_half", "off-half"), ("on_checker", "on-checker"), ("missing", "saw 1 dice")],
)
def test_irregular_rolls_are_rerolls_with_the_reason(kind: str, reason: str) -> None:
    for seed in range(3):
        roll = render_roll(random.Random(seed), **{kind: 1})
        reading = _reader(roll.background).read(roll.image)
        assert reading.verdict is Verdict.REROLL, (seed, reading)
        assert reason in reading.reason, (seed, reading.reason)


def test_cocked_die_is_a_reroll() -> None:
    caught = 0
    for seed in range(6):
        roll = render_roll(random.Random(seed), cocked=1)
        reading = _reader(roll.background).read(roll.image)
        caught += reading.verdict is Verdict.REROLL
    assert caught == 6


def test_regular_roll_reads_ok_with_both_values() -> None:
    right = 0
    for seed in range(10):
        roll = render_roll(random.Random(seed))
        reading = _reader(roll.background).read(roll.image)
        truth = tuple(sorted((d.value for d in roll.dice), reverse=True))
        right += reading.verdict is Verdict.OK and reading.values == truth
    assert right >= 9


@pytest.mark.parametrize(
    ("value", "side"),
    [
        (2, "player1"),
        (16, "player2"),
        (64, "centre"),
        (8, "player2"),
        (32, "player1"),
        (4, "centre"),
    ],
)
def test_cube_value_and_side(value: int, side: str) -> None:
    roll = render_roll(random.Random(value), cube=(value, side))
    reading = _reader(roll.background).read(roll.image)
    assert reading.cube is not None
    assert (reading.cube.value, reading.cube.side) == (value, side)
    assert len(reading.dice) == 2  # the cube is not taken for a die


def test_without_calibration_any_number_of_dice_and_no_cube() -> None:
    roll = render_roll(random.Random(3), dice=3)
    reader = DiceReader()
    reader.set_background(roll.background)
    reading = reader.read(roll.image)
    assert len(reading.dice) == 3
    assert reading.cube is None


def test_bad_frames_are_clear_errors() -> None:
    reader = DiceReader()
    with pytest.raises(ImageError, match="expected a numpy image, got list"):
        reader.read([[0]])  # type: ignore[arg-type]
    with pytest.raises(ImageError, match=r"shape \(4, 4, 3\) dtype uint8"):
        reader.read(np.zeros((4, 4, 3), np.uint8))
    with pytest.raises(ImageError, match="dtype float32"):
        reader.read(np.zeros((40, 40, 3), np.float32))
    grey = np.full((60, 60), 128, np.uint8)
    assert reader.read(grey).dice == ()
