from __future__ import annotations

import pytest

from vision import CubeReading, Die, RollReading, Verdict


def test_die_validates_value_confidence_and_box() -> None:
    with pytest.raises(ValueError, match="invalid die value 7"):
        Die(7, (0, 0, 1, 1), 1.0)
    with pytest.raises(ValueError, match=r"invalid die confidence 1\.5"):
        Die(3, (0, 0, 1, 1), 1.5)
    with pytest.raises(ValueError, match=r"invalid die box \(5, 0, 1, 1\)"):
        Die(3, (5, 0, 1, 1), 0.5)


def test_cube_validates_value_and_side() -> None:
    with pytest.raises(ValueError, match="invalid cube value 3"):
        CubeReading(3, (0, 0, 1, 1), "near", 1.0)
    with pytest.raises(ValueError, match="invalid cube side 'left'"):
        CubeReading(2, (0, 0, 1, 1), "left", 1.0)


def test_reading_json_and_values_highest_first() -> None:
    reading = RollReading((Die(2, (0, 0, 9, 9), 0.9), Die(5, (20, 0, 29, 9), 1.0)), Verdict.OK)
    assert reading.values == (5, 2)
    assert reading.to_json() == {
        "dice": [
            {"value": 2, "box": [0, 0, 9, 9], "confidence": 0.9},
            {"value": 5, "box": [20, 0, 29, 9], "confidence": 1.0},
        ],
        "verdict": "ok",
        "reason": "",
    }
