"""A recorded match's decisions, as the engine is asked about them."""

from __future__ import annotations

import pytest

from controller.engine import CheckerDecision, CubeDecision
from controller.record import (
    Beavered,
    Doubled,
    Dropped,
    IllegalPlayAccepted,
    MatchStarted,
    Played,
    RecordError,
    Rolled,
    Taken,
    replay,
)
from controller.record.decisions import decisions_of
from controller.rules import Rules, pip_counts
from tests.record.matches import irregular_events, selfplay_events


def test_every_play_and_double_of_a_match_is_a_decision() -> None:
    record = replay(selfplay_events(0, 3))
    decisions = decisions_of(record)
    plays = [d for d in decisions if isinstance(d, CheckerDecision)]
    played = [e for e in record.events if isinstance(e, Played)]
    assert [(d.dice, d.played) for d in plays] == [(e.dice, e.board) for e in played]
    assert [d.position.turn for d in plays] == [e.player for e in played]
    assert plays[0].position.dice == plays[0].dice and pip_counts(plays[0].position.board) == (
        167,
        167,
    )
    doubles = [d for d in decisions if isinstance(d, CubeDecision) and d.doubled]
    answers = [e for e in record.events if isinstance(e, Taken | Dropped)]
    assert [d.taken for d in doubles] == [isinstance(e, Taken) for e in answers]
    # A chance to double before each roll the roller could have doubled on, no more.
    chances = [d for d in decisions if isinstance(d, CubeDecision) and not d.doubled]
    rolls = [e for e in record.events if isinstance(e, Rolled)]
    assert 0 < len(chances) <= len(rolls)
    for chance in chances:
        position = chance.position
        assert position.dice is None and not position.crawford
        assert position.cube_owner in (None, position.turn)
        assert position.match_length == 3


def test_a_cube_that_cannot_gain_is_no_decision() -> None:
    # 5-point match: at 3-2 with the cube at 2 the leader wins the match with it as it is,
    # so GNU Backgammon does not analyse the redouble to 4 (its engine refuses it).
    record = replay(selfplay_events(3, 5))
    doubles = [e for e in record.events if isinstance(e, Doubled)]
    judged = [d for d in decisions_of(record) if isinstance(d, CubeDecision) and d.doubled]
    assert [d.value for d in doubles][-1] == 4 and len(judged) == len(doubles) - 1
    for decision in decisions_of(record):
        position = decision.position
        if isinstance(decision, CubeDecision):
            mine = position.score[position.turn]
            assert mine + position.cube_value < position.match_length


def test_beavers_count_as_takes_and_illegal_plays_are_not_judged() -> None:
    events = irregular_events(5, Rules(jacoby=True, beavers=True), games=8)
    record = replay(events)
    assert any(isinstance(e, Beavered) for e in events)
    assert any(isinstance(e, IllegalPlayAccepted) for e in events)
    decisions = decisions_of(record)
    doubled = [d for d in decisions if isinstance(d, CubeDecision) and d.doubled]
    assert len(doubled) == sum(1 for e in events if isinstance(e, Doubled))
    beavers = sum(1 for e in events if isinstance(e, Beavered))
    assert sum(1 for d in doubled if d.taken) >= beavers > 0
    plays = [d for d in decisions if isinstance(d, CheckerDecision)]
    assert len(plays) == sum(1 for e in events if isinstance(e, Played))


def test_a_record_without_events_has_no_decisions() -> None:
    record = replay([MatchStarted(("A", "B"), Rules())])
    assert decisions_of(record) == ()
    with pytest.raises(RecordError, match=r"this match record holds no events to review"):
        decisions_of(type(record)(record.names, record.rules, (), record.state))
