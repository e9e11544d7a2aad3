"""The training data of the nets (only where the ``train`` extra, PyTorch, is installed)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("torch")

from vision._calibration import BOARD_SIZE
from vision._net import CROP, STRIDE
from vision.train import classifier_samples, detector_sample, oblique_rolls


def _picture() -> tuple[np.ndarray, list[tuple[float, float, float, float, int]]]:
    image = np.full((256, 256, 3), 200, np.uint8)
    image[40:60, 100:120] = 30  # one dark die, centre (110, 50), 20 x 20
    return image, [(110.0, 50.0, 20.0, 20.0, 3)]


def test_detector_targets_follow_the_die_through_turns_and_flips() -> None:
    image, dice = _picture()
    for seed in range(12):
        rng = np.random.default_rng(seed)
        window, target = detector_sample(image, dice, rng, 128)
        assert window.shape == (128, 128, 3) and target.shape == (6, 32, 32)
        ys, xs = np.nonzero(target[5])
        if not len(ys):
            continue  # the die fell outside the window
        gy, gx = int(ys[0]), int(xs[0])
        cx = (gx + 0.5 + target[1, gy, gx]) * STRIDE
        cy = (gy + 0.5 + target[2, gy, gx]) * STRIDE
        # The target centre is on the dark die in the window.
        assert window[round(cy), round(cx)].mean() < 100, (seed, cx, cy)
        assert target[0, gy, gx] == 1.0


def test_classifier_samples_label_dice_and_negatives() -> None:
    image, dice = _picture()
    patches, labels = classifier_samples(
        [(image, dice)], np.random.default_rng(0), copies=4, negatives=1.0
    )
    assert patches.shape[1:] == (CROP, CROP, 3)
    assert sorted(set(labels.tolist())) == [0, 3]
    assert (labels == 3).sum() == 4
    # A die patch is dark in the middle, a negative is not centred on the die.
    middle = slice(CROP // 2 - 2, CROP // 2 + 2)
    assert patches[labels == 3][:, middle, middle].mean() < 100


def test_oblique_rolls_are_board_views_labelled_with_the_top_faces() -> None:
    """Rolls seen at an angle are trained on as the reader sees them: the board view,
    each die's label on its top face, where the view differs from the plain board."""
    samples = oblique_rolls(3, seed=5)
    assert len(samples) == 3
    for view, dice in samples:
        assert view.shape == (BOARD_SIZE[1], BOARD_SIZE[0], 3)
        assert 1 <= len(dice) <= 3
        for cx, cy, w, h, value in dice:
            assert 1 <= value <= 6 and 10 < w < 80 and 10 < h < 80  # a leaning top is short
            assert 0 < cx < BOARD_SIZE[0] and 0 < cy < BOARD_SIZE[1]
