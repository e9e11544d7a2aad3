"""The journal soak, small: a few rounds of every kind of damage and a few kills."""

from __future__ import annotations

from pathlib import Path

from tests.soak.journal import DAMAGED, SOUND, soak


def test_every_damage_is_refused_named_and_unchanged_and_nothing_sound_is_lost(
    tmp_path: Path,
) -> None:
    report = soak(tmp_path, rounds=4, kills=3)
    assert report.failures == [], "\n".join(report.lines())
    for kind in (*DAMAGED, *SOUND):
        assert report.kinds[kind].cases > 0, kind
    for kind in ("empty", "deleted row", "edited row"):
        tally = report.kinds[kind]
        assert tally.refused == tally.named == tally.unchanged == tally.cases == 4
