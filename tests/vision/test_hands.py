"""Rendered hands over the board: they cover what they cross, cast a shadow, leave the dice."""

from __future__ import annotations

import random

import numpy as np
import pytest

from vision import hand_crossing, leaning_over, nudged, render_roll


def _changed(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.abs(a.astype(int) - b.astype(int)).max(axis=2) > 30


def test_a_hand_crossing_passes_over_the_dice_and_leaves_them_as_they_were() -> None:
    roll = render_roll(random.Random(3))
    boxes = [die.box for die in roll.dice]
    frames = hand_crossing(roll.image, boxes, random.Random(4), frames=9)
    over = []
    for frame in frames[:-1]:
        changed = _changed(frame, roll.image)
        # An arm comes in from outside the view: what it changes reaches the view's edge.
        assert changed[[0, -1], :].any() or changed[:, [0, -1]].any()
        over.append(max(changed[y0:y1, x0:x1].mean() for x0, y0, x1, y1 in boxes))
    assert max(over) > 0.5 > min(over)  # over the dice on the way, clear of them at its ends
    assert not _changed(frames[-1], roll.image).any()  # the roll as it was, fresh noise


def _likeness(a: np.ndarray, b: np.ndarray, box: tuple[int, int, int, int]) -> float:
    x0, y0, x1, y1 = box
    patch = [image[y0:y1, x0:x1].astype(float).sum(axis=2).ravel() for image in (a, b)]
    return float(np.corrcoef(*patch)[0, 1])


@pytest.mark.parametrize("cover", ["both", "one", "board"])
def test_a_player_leaning_stays_still_over_what_he_covers(cover: str) -> None:
    roll = render_roll(random.Random(5))
    boxes = [die.box for die in roll.dice]
    frames = leaning_over(roll.image, boxes, random.Random(6), cover=cover, frames=5)
    held = frames[1:]
    assert all(np.abs(f.astype(int) - held[0].astype(int)).mean() < 3 for f in held)
    # A die is hidden where its picture is lost (a shadow only dims it).
    seen = [_likeness(held[0], roll.image, box) for box in boxes]
    if cover == "board":
        assert min(seen) > 0.9
    else:
        assert min(seen) < 0.8
    # The body's shadow darkens the board well beyond the arm.
    ratio = (held[0].astype(float).sum(axis=2) + 3) / (roll.image.astype(float).sum(axis=2) + 3)
    assert (ratio < 0.95).mean() > 0.15


def test_a_nudged_die_moves_with_its_shadow_and_the_board_shows_where_it_lay() -> None:
    roll = render_roll(random.Random(9))
    x0, y0, x1, y1 = roll.dice[0].box
    pushed = nudged(roll.image, roll.background, roll.dice[0].box, (0, 40))
    assert np.array_equal(pushed[y0 + 40 : y1 + 40, x0:x1], roll.image[y0:y1, x0:x1])
    assert np.array_equal(pushed[y0 : y0 + 20, x0:x1], roll.background[y0 : y0 + 20, x0:x1])
    with pytest.raises(ValueError, match=r"^invalid offset \(0, 999\): the die at .* would "):
        nudged(roll.image, roll.background, roll.dice[0].box, (0, 999))
    with pytest.raises(ValueError, match=r"^invalid cover 'all': expected 'both', 'one' or "):
        leaning_over(roll.image, [], random.Random(1), cover="all")
