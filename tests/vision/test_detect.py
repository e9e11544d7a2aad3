from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision._detect import _clean, _median_colour


def _plain_clean(mask: np.ndarray) -> np.ndarray:
    """The cleaning's definition, on the whole frame: closed (5 x 5), opened (3 x 3), and
    the holes under 2% of the frame filled."""
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    contours, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is not None:
        holes = [c for c, h in zip(contours, hierarchy[0], strict=True)
                 if h[3] >= 0 and cv2.contourArea(c) < 0.02 * mask.size]
        cv2.drawContours(mask, holes, -1, 255, cv2.FILLED)
    return mask


@pytest.mark.parametrize("seed", range(4))
def test_the_mask_is_cleaned_as_on_the_whole_frame(seed: int) -> None:
    """Only the box around the mask's pixels is cleaned (speed): discs, rings and bars
    near each other and across the frame's edges, and speckle, clean as on the whole
    frame."""
    rng = np.random.default_rng(seed)
    for _ in range(50):
        h, w = (int(n) for n in rng.integers(20, 160, 2))
        mask = np.zeros((h, w), np.uint8)
        for _shape in range(int(rng.integers(0, 10))):
            x, y = int(rng.integers(-5, w + 5)), int(rng.integers(-5, h + 5))
            r = int(rng.integers(1, 25))
            thickness = int(rng.choice([-1, 1, 2, 3]))
            if rng.random() < 0.5:
                cv2.circle(mask, (x, y), r, 255, thickness)
            else:
                cv2.rectangle(mask, (x, y), (x + r, y + int(rng.integers(1, 25))), 255, thickness)
        mask[rng.random((h, w)) < rng.uniform(0.0, 0.02)] = 255
        assert np.array_equal(_clean(mask.copy()), _plain_clean(mask.copy()))


@pytest.mark.parametrize("seed", range(4))
def test_the_face_colour_is_numpys_median(seed: int) -> None:
    """Each channel's median from histograms (speed) is ``np.median`` cast to uint8 (the
    two middle values' mean rounded down), on a die's box cut from a frame (a view) with
    any share of its pixels, flat faces and all 256 levels alike."""
    rng = np.random.default_rng(seed)
    frame = rng.integers(0, 256, (200, 200, 3), dtype=np.uint8)
    frame[100:] = rng.integers(0, 4, (100, 200, 3), dtype=np.uint8) * 60
    for _ in range(300):
        x, y = (int(n) for n in rng.integers(0, 180, 2))
        w, h = (int(n) for n in rng.integers(1, 60, 2))
        crop = frame[y : y + h, x : x + w]
        where = rng.random(crop.shape[:2]) < rng.uniform(0.05, 1.0)
        if not where.any():
            continue
        expected = np.median(crop[where], axis=0).astype(np.uint8)
        assert _median_colour(crop, where).tolist() == expected.tolist(), (x, y, w, h)
