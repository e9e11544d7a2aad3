from __future__ import annotations

import random

import numpy as np
import pytest

from vision import (
    Calibration,
    DiceReader,
    ImageError,
    LightChange,
    Verdict,
    render_roll,
    shadow_video,
)
from vision._synth import with_clutter


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


@pytest.mark.parametrize("seed", range(4))
def test_flat_rolls_read_right_under_a_changed_light_and_a_moving_shadow(seed: int) -> None:
    # Lamps, daylight and a player's shadow change between the learnt board and the roll.
    roll = render_roll(random.Random(seed), light_change=0.3, cast_shadow=True)
    reader = _reader(roll.background)
    truth = tuple(sorted((d.value for d in roll.dice), reverse=True))
    for frame, image in enumerate(shadow_video(roll, 5)):
        reading = reader.read(image)
        assert (reading.verdict, reading.values) == (Verdict.OK, truth), (
            f"seed {seed} frame {frame} {roll.light}: {reading.reason}")


@pytest.mark.parametrize("corners", [(1.3, 1.25, 1.2, 1.3), (0.7, 0.75, 0.8, 0.7)])
def test_a_room_lit_30_percent_brighter_or_darker_reads_the_same(
    corners: tuple[float, float, float, float],
) -> None:
    for seed in range(3):
        roll = render_roll(random.Random(seed))
        reading = _reader(roll.background).read(LightChange(corners).apply(roll.image))
        truth = tuple(sorted((d.value for d in roll.dice), reverse=True))
        assert (reading.verdict, reading.values) == (Verdict.OK, truth), (seed, reading.reason)


def test_cocked_dice_are_still_flagged_under_a_changed_light_and_a_moving_shadow() -> None:
    for seed in range(3):
        roll = render_roll(random.Random(seed), cocked=1, light_change=0.3, cast_shadow=True)
        reader = _reader(roll.background)
        for frame, image in enumerate(shadow_video(roll, 3)):
            reading = reader.read(image)
            assert reading.verdict is Verdict.REROLL, (seed, frame, roll.light, reading)
            assert "cocked" in reading.reason, (seed, frame, roll.light, reading.reason)


def test_things_on_the_frame_around_the_playing_field_are_not_dice() -> None:
    for seed in range(3):
        roll = with_clutter(render_roll(random.Random(seed)), random.Random(seed), 12,
                            on_frame=True)
        reading = _reader(roll.background).read(roll.image)
        truth = tuple(sorted((d.value for d in roll.dice), reverse=True))
        assert (reading.verdict, reading.values) == (Verdict.OK, truth), (seed, reading.reason)


def test_a_cluttered_field_is_unreadable_and_said_so_without_reading_each_thing() -> None:
    roll = with_clutter(render_roll(random.Random(4)), random.Random(4), 30)
    reading = _reader(roll.background).read(roll.image)
    assert (reading.verdict, reading.dice) == (Verdict.UNREADABLE, ())
    assert reading.reason.startswith("cluttered: "), reading.reason
    assert reading.reason.endswith(" die-like blobs, at most 6 are read"), reading.reason
    assert not reading.is_empty


@pytest.mark.parametrize(
    ("value", "side", "still"),
    [
        (2, "near", False),
        (16, "far", True),
        (64, "centre", True),
        (8, "far", False),
        (32, "near", True),
        (4, "centre", False),
    ],
)
def test_cube_value_and_side(value: int, side: str, still: bool) -> None:
    # A still cube stood there when the empty board was learnt: it is found by its shape.
    roll = render_roll(random.Random(value), cube=(value, side), cube_still=still)
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


@pytest.mark.parametrize("thrower", ["near", "far", "both"])
def test_each_player_throws_into_his_own_right_hand_half(thrower: str) -> None:
    # The far player's right-hand half is the view's left; in the opening roll each
    # player throws one die into his own half.
    for seed in range(3):
        roll = render_roll(random.Random(seed), thrower=thrower)
        reading = _reader(roll.background).read(roll.image, thrower)
        assert reading.verdict is Verdict.OK, (seed, reading.reason)
        assert reading.values == tuple(sorted((d.value for d in roll.dice), reverse=True))
        wrong = render_roll(random.Random(seed), thrower=thrower, off_half=1)
        reading = _reader(wrong.background).read(wrong.image, thrower)
        assert reading.verdict is Verdict.REROLL, (seed, reading)
        assert "off-half" in reading.reason


@pytest.mark.parametrize(("thrown", "read_as"), [("near", "far"), ("far", "near"),
                                                 ("near", "both"), ("far", "both")])
def test_dice_in_the_other_players_half_are_a_reroll(thrown: str, read_as: str) -> None:
    roll = render_roll(random.Random(4), thrower=thrown)
    reading = _reader(roll.background).read(roll.image, read_as)
    assert reading.verdict is Verdict.REROLL
    assert reading.reason.count("off-half") == 2


def test_an_unknown_thrower_is_a_clear_error() -> None:
    roll = render_roll(random.Random(1))
    with pytest.raises(ValueError, match="'left' is not a valid Thrower"):
        _reader(roll.background).read(roll.image, "left")
