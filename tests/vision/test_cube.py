"""The doubling cube: its face in fonts the reader has not seen, its place, never a die."""

from __future__ import annotations

import random

import cv2
import numpy as np
import pytest

from vision import Calibration, DiceReader, render_roll
from vision._cube import FONTS, CubeLook, draw_face, read_face
from vision._evaluate import evaluate_cube
from vision._synth import DieLook, _die_patch, cube_look


@pytest.mark.parametrize("font", [cv2.FONT_HERSHEY_TRIPLEX, cv2.FONT_HERSHEY_PLAIN])
def test_a_font_left_out_of_the_masks_is_still_read(font: int) -> None:
    # Cubes of any look and place, half of them standing where the learnt board had them.
    score = evaluate_cube(12, held_out=font)
    assert score.wrong == 0 and score.false_alarms == 0, score.summary()
    assert score.right >= 8, score.summary()


@pytest.mark.parametrize("value", [2, 4, 8, 16, 32, 64])
def test_every_face_at_every_right_angle_in_light_and_dark(value: int) -> None:
    for k in range(4):
        for look in (CubeLook(), CubeLook(cv2.FONT_HERSHEY_COMPLEX, 1.4, True, (30, 30, 30),
                                          (60, 200, 230))):
            face = np.rot90(draw_face(value, 48, look), k).copy()
            found = read_face(face)
            assert found is not None and found[0] == value, (k, look)


def test_a_die_face_or_a_blank_square_is_no_cube() -> None:
    rng = random.Random(5)
    for value in range(1, 7):
        patch, _alpha = _die_patch(value, 48, 0.0, 0.0, rng=rng,
                                   look=DieLook((235, 235, 235), (25, 25, 25)))
        assert read_face(cv2.resize(patch, (48, 48))) is None, value
    assert read_face(np.full((48, 48, 3), 200, np.uint8)) is None


def test_no_cube_is_reported_where_there_is_none() -> None:
    for seed in range(4):
        roll = render_roll(random.Random(seed), markers=True)
        reader = DiceReader(Calibration.identity(), expected_dice=2)
        reader.set_background(roll.background)
        assert reader.read(roll.image).cube is None


def test_the_renderer_draws_each_font() -> None:
    looks = {cube_look(random.Random(seed)).font for seed in range(60)}
    assert looks == set(FONTS)
