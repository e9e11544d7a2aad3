"""The simulated players' hands: the cube drawn on what they show the camera."""

from __future__ import annotations

import random

import numpy as np

from controller.simulated.camera import TableCamera
from controller.simulated.hands import CUBE_IMAGES_KEPT, TableHands


def _hands() -> TableHands:
    camera = TableCamera(np.zeros((480, 640, 3), np.uint8), period_s=0.001)
    hands = TableHands(camera, hands=random.Random(0), hand_rate=0.0, echo=None, stall_s=1.0)
    hands.cube_at = (2, "centre")
    return hands


def test_the_cube_lies_the_same_on_a_roll_shown_again_and_few_are_kept() -> None:
    # Kept for every roll of the pool, the images with the cube held 28 MB of a board's
    # memory: only the last few are kept, and a roll drawn again looks as it did.
    hands = _hands()
    rolls = [np.full((480, 640, 3), level, np.uint8) for level in (60, 90, 120, 150)]
    first = hands._cube_on(rolls[0]).copy()
    assert not np.array_equal(first, rolls[0])  # the cube is on it
    for roll in rolls[1:]:
        hands._cube_on(roll)
    assert len(hands._with_cube) == CUBE_IMAGES_KEPT
    assert np.array_equal(hands._cube_on(rolls[0]), first)


def test_the_empty_board_shown_between_rolls_stays_kept() -> None:
    hands = _hands()
    empty = hands.camera.empty
    with_cube = hands._cube_on(empty)
    for level in (60, 90, 120):
        hands._cube_on(np.full((480, 640, 3), level, np.uint8))
        assert hands._cube_on(empty) is with_cube


def test_an_image_is_not_taken_for_another_one_kept() -> None:
    hands = _hands()
    image, other = np.full((480, 640, 3), 70, np.uint8), np.zeros((480, 640, 3), np.uint8)
    hands._with_cube.append((other, other))
    assert not np.array_equal(hands._cube_on(image), other)
