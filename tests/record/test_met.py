"""The match equity table the analysed .sgf uses is GNU Backgammon's own default."""

from __future__ import annotations

import re

import pytest

from controller.record._met import emg_to_mwc, match_equity
from controller.rules import Xgid
from tests.record.gnubg_program import run_gnubg

SIZE = 7


def test_the_table_is_the_one_gnubg_uses() -> None:
    output = run_gnubg([f"show matchequitytable {SIZE}"])
    assert "Kazaross XG2" in output
    pre, post = output.split("Pre-Crawford table:")[1].split("Post-Crawford table for player 0")
    rows = re.findall(r"^\s+(\d+)-away((?:\s+\d+\.\d+)+)", pre, re.MULTILINE)
    assert len(rows) == SIZE
    for away, values in rows:
        for column, value in enumerate(values.split(), 1):
            chance = match_equity((int(away), column), 0, post_crawford=False)
            assert chance * 100 == pytest.approx(float(value), abs=1e-4)
    trailer = re.search(r"^\s+1-away((?:\s+\d+\.\d+)+)", post, re.MULTILINE)
    assert trailer
    for away, value in enumerate(trailer[1].split(), 1):
        # The row is the trailer's chance, (away)-away against the leader at 1-away.
        assert match_equity((away, 1), 0, post_crawford=True) * 100 == pytest.approx(
            float(value), abs=1e-4
        )


def test_emg_spans_losing_and_winning_the_cube() -> None:
    # 3-point match, 0-0, cube 1: +1 is the chance after winning a point, -1 after losing it.
    position = Xgid(match_length=3)
    assert emg_to_mwc(position, 1.0) == pytest.approx(match_equity((2, 3), 0, post_crawford=False))
    assert emg_to_mwc(position, -1.0) == pytest.approx(match_equity((3, 2), 0, post_crawford=False))
    # What GNU Backgammon saved for Bob's cube at 0-0 in the FORMATS example's match: a
    # no-double equity of -0.24331 EMG is a match winning chance of 0.475798.
    assert emg_to_mwc(Xgid(match_length=3, turn=1), -0.24331) == pytest.approx(0.475798, abs=2e-5)
    # Winning the match outright is certain, whatever the table.
    assert emg_to_mwc(Xgid(match_length=3, score=(2, 0), crawford=True), 1.0) == 1.0
    with pytest.raises(ValueError, match=r"a money position has no match winning chances"):
        emg_to_mwc(Xgid(), 0.0)
