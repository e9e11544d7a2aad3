"""A whole game refereed with the service throttled to a Pi Zero 2 W's share of a core."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.service.throttle import ThrottleUnavailableError
from tests.service.slow import play_throttled


def test_a_throttled_service_referees_a_whole_game_and_nothing_times_out(
    tmp_path: Path,
) -> None:
    try:
        report = play_throttled(tmp_path / "slow.sqlite3", games=1, length=1, seed=31)
    except ThrottleUnavailableError as error:  # no cgroup v1 here: a missing kernel feature
        pytest.skip(str(error))
    # The journal is what the players did, each illegal play flagged once, none timed out
    # (a TimeoutError would have ended the run), and the kernel really held it back.
    assert report.problems() == []
    counts = report.result.counts
    assert counts.games == 1 and counts.turns > 10 and counts.illegal > 0
    assert report.throttle.throttled > 0
