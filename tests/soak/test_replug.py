"""The replug soaks, small: 30 replugs of the link, one game through the service replugged.

``python -m tests.soak replug`` runs 1,000 replugs, ``replug-service`` four games.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.soak.replug import replug_link, replug_service


def test_thirty_replugs_lose_nothing_and_read_nothing_twice(tmp_path: Path) -> None:
    report = asyncio.run(replug_link(30, tmp_path, seed=3))
    assert report.problems == [], report.figures()
    assert (report.link_deaths, report.lost, report.read_twice) == (0, 0, 0)
    assert report.cycles == 30 and report.reconnects >= 30
    assert report.moves_unplugged > 0 and report.power_cycles > 0


def test_a_game_refereed_through_replugs_is_journalled_whole(tmp_path: Path) -> None:
    report = asyncio.run(replug_service(1, tmp_path, seed=7))
    assert report.problems == [], report.figures()
    assert report.cycles > 0 and report.reconnects >= report.cycles
