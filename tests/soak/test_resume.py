"""The resume soak, small: two matches of each kind, every batch resumed and compared."""

from __future__ import annotations

from tests.soak.resume import KINDS, soak


def test_the_resumed_flow_agrees_with_the_live_one_after_every_batch() -> None:
    tallies = soak(matches=2, steps=1000)
    assert [failure for tally in tallies.values() for failure in tally.failures] == []
    for kind in KINDS:
        assert tallies[kind].batches > 200 and tallies[kind].games >= 2, kind
