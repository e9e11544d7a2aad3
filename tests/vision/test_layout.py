from __future__ import annotations

import math

import numpy as np
import pytest

from vision._layout import LAYOUTS, classify


@pytest.mark.parametrize("value", range(1, 7))
@pytest.mark.parametrize("angle", [0.0, 0.3, math.pi / 4, 1.2, math.pi / 2])
def test_each_layout_reads_back_at_any_rotation(value: int, angle: float) -> None:
    c, s = math.cos(angle), math.sin(angle)
    pips = np.array(LAYOUTS[value]) @ np.array([[c, s], [-s, c]])
    got, cost, second = classify(pips, angle)
    assert got == value, f"value {value} at {angle:.2f} rad read as {got}"
    assert cost < 0.05 < second


def test_a_four_with_a_centre_blob_is_a_five_not_a_four() -> None:
    pips = np.array(LAYOUTS[4] + ((0.0, 0.0),))
    assert classify(pips, 0.0)[0] == 5


def test_a_six_missing_one_pip_still_fits_six_better_than_four() -> None:
    pips = np.array(LAYOUTS[6][:5])
    value, _cost, _second = classify(pips, 0.0)
    assert value in (5, 6)
    assert value != 4
