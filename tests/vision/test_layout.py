from __future__ import annotations

import math

import numpy as np
import pytest

from vision._layout import LAYOUTS, classify, fit_layouts


@pytest.mark.parametrize("value", range(1, 7))
@pytest.mark.parametrize("angle", [0.0, 0.3, math.pi / 4, 1.2, math.pi / 2])
def test_each_layout_reads_back_at_any_rotation(value: int, angle: float) -> None:
    c, s = math.cos(angle), math.sin(angle)
    pips = np.array(LAYOUTS[value]) @ np.array([[c, s], [-s, c]])
    got, cost, second = classify(pips * 13.0, 13.0)
    assert got == value, f"value {value} at {angle:.2f} rad read as {got}"
    assert cost < 0.05 < second


def test_a_four_with_a_centre_blob_is_a_five_not_a_four() -> None:
    pips = np.array(LAYOUTS[4] + ((0.0, 0.0),))
    assert classify(pips)[0] == 5


def test_a_six_missing_one_pip_still_fits_six_better_than_four() -> None:
    pips = np.array(LAYOUTS[6][:5])
    value, _cost, _second = classify(pips)
    assert value in (5, 6)
    assert value != 4


def _plain_cost(pips: np.ndarray, value: int, half_side: float) -> float:
    """The fit's definition, one value and one angle at a time: the pips scaled to the
    layout's spread (within half to 1.5 times ``half_side``), each pip to its nearest
    layout pip and each layout pip to its nearest pip, at the best of the 30 angles, plus
    0.45 per missing or extra pip."""
    layout = np.array(LAYOUTS[value])
    radius = math.sqrt(float((layout**2).sum(axis=1).mean()))
    scale = half_side
    if radius > 0 and len(pips) > 1:
        spread = math.sqrt(float((pips**2).sum(axis=1).mean()))
        scale = min(max(spread / radius, 0.5 * half_side), 1.5 * half_side)
    best = math.inf
    for degrees in range(0, 180, 6):
        a = math.radians(degrees)
        turned = layout @ np.array([[math.cos(a), math.sin(a)], [-math.sin(a), math.cos(a)]])
        dist = np.hypot(*(pips[:, None, :] / scale - turned[None, :, :]).transpose(2, 0, 1))
        best = min(best, (dist.min(axis=1).mean() + dist.min(axis=0).mean()) / 2)
    return best + 0.45 * abs(len(pips) - len(layout))


@pytest.mark.parametrize("count", range(1, 10))
def test_the_fit_of_all_values_at_once_is_the_fit_of_each_alone(count: int) -> None:
    """The fit is computed for every value, angle and dropped pip in one array
    computation (speed): it must give each value's own cost."""
    rng = np.random.default_rng(count)
    for _ in range(20):
        pips = rng.normal(0.0, 8.0, (3, count, 2))
        values, costs, seconds = fit_layouts(pips, 13.0)
        for one, value, cost, second in zip(pips, values, costs, seconds, strict=True):
            plain = sorted((_plain_cost(one, v, 13.0), v) for v in LAYOUTS)
            assert (value, cost, second) == pytest.approx(
                (plain[0][1], plain[0][0], plain[1][0]), abs=1e-9), one.tolist()


def test_sets_of_fewer_pips_padded_into_one_batch_fit_as_each_alone() -> None:
    """The reader fits all the blobs of a frame at once, each set padded to the largest
    (speed): each must get the very numbers of its own fit, with its own half side."""
    rng = np.random.default_rng(7)
    for _ in range(200):
        counts = rng.integers(1, 8, int(rng.integers(2, 7)))
        halves = rng.uniform(5.0, 25.0, len(counts))
        sets = [rng.normal(0.0, half, (count, 2))
                for count, half in zip(counts, halves, strict=True)]
        batch = np.full((len(sets), int(counts.max()), 2), 1e3)  # the padding is left out
        for row, one in enumerate(sets):
            batch[row, : len(one)] = one
        together = fit_layouts(batch, halves, counts)
        for row, (one, half) in enumerate(zip(sets, halves, strict=True)):
            alone = fit_layouts(one[None], float(half))
            assert [x[row] for x in together] == [x[0] for x in alone], (counts, row)


def test_a_padded_batch_of_eight_pips_is_refused() -> None:
    with pytest.raises(ValueError, match="padded to 8 pips"):
        fit_layouts(np.zeros((2, 8, 2)), 13.0, np.array([8, 3]))
