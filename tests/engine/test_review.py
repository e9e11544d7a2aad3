"""A simulated game reviewed by each real engine: every play and cube decision judged."""

from __future__ import annotations

import asyncio
import random

import pytest

from controller.engine import (
    CheckerDecision,
    CubeDecision,
    Engine,
    PlayVerdict,
    Skill,
    review,
)
from controller.rules import START, Rules, Xgid, legal_plays, pip_counts
from controller.simulated.players import (
    Doubled,
    Dropped,
    GameWon,
    MatchEvent,
    Played,
    SimulatedPlayer,
    Taken,
    play_match,
)


def first_game(seed: int) -> list[MatchEvent]:
    """The events of the first money game of a seeded simulated session."""
    rng = random.Random(seed)
    events: list[MatchEvent] = []
    for event in play_match(Rules(), rng, (SimulatedPlayer(rng, aggression=0.9),) * 2):
        events.append(event)
        if isinstance(event, GameWon):
            return events
    raise AssertionError("the session ended without a game")


def decisions_of(events: list[MatchEvent]) -> list[CheckerDecision | CubeDecision]:
    """What a recorder would have kept: each play, each double and its answer."""
    board, value, owner = START, 1, None
    offered: Xgid | None = None
    decisions: list[CheckerDecision | CubeDecision] = []
    for event in events:
        if isinstance(event, Played):
            position = Xgid(board=board, turn=event.player, cube_value=value, cube_owner=owner)
            decisions.append(CheckerDecision(position, event.dice, event.board))
            board = event.board
        elif isinstance(event, Doubled):
            offered = Xgid(board=board, turn=event.player, cube_value=value, cube_owner=owner)
        elif isinstance(event, Taken | Dropped):
            assert offered is not None
            decisions.append(CubeDecision(offered, doubled=True, taken=isinstance(event, Taken)))
            if isinstance(event, Taken):
                value, owner = value * 2, event.player
    return decisions


def test_review_of_a_simulated_game_lists_every_play(
    runner: asyncio.Runner, engine: Engine
) -> None:
    events = next(  # the first seeded game with a double taken, then a double dropped
        events
        for events in map(first_game, range(200))
        if [isinstance(e, Taken) for e in events if isinstance(e, Taken | Dropped)] == [True, False]
    )
    played = [event for event in events if isinstance(event, Played)]
    decisions = decisions_of(events)
    result = runner.run(review(engine, decisions))

    assert len(result.verdicts) == len(decisions)
    assert len(result.plays) == len(played) > 20
    for verdict, event in zip(result.plays, played, strict=True):
        assert verdict.played.play.notation == event.play.notation
        assert verdict.player == event.player
        assert verdict.pips == pip_counts(verdict.decision.position.board)
        assert verdict.loss == pytest.approx(verdict.best.equity - verdict.played.equity)
        assert verdict.loss >= 0.0
    assert result.plays[0].pips == (167, 167)

    cubes = result.cube_decisions
    assert [verdict.decision.taken for verdict in cubes] == [True, False]
    for verdict in cubes:
        assert verdict.take_loss is not None and verdict.take_loss >= 0.0
        assert verdict.advice.double_pass == 1.0

    # The simulated players are weak: the engine finds mistakes, and says how many.
    rates = [result.error_rate(player) for player in (0, 1)]
    unforced = sum(not verdict.forced for verdict in result.plays)
    assert sum(rate.decisions for rate in rates) == unforced + 2 * len(cubes)
    assert sum(rate.count(Skill.BLUNDER) + rate.count(Skill.ERROR) for rate in rates) > 0
    assert all(rate.mean_loss > 0.0 for rate in rates)


def test_an_illegal_recorded_play_is_refused(runner: asyncio.Runner, engine: Engine) -> None:
    with pytest.raises(ValueError, match=r"is not reached by a legal play of \(3, 1\)"):
        runner.run(review(engine, [CheckerDecision(Xgid(), (3, 1), START)]))


def test_a_review_can_be_deeper(runner: asyncio.Runner, engine: Engine) -> None:
    run = next(play for play in legal_plays(START, 0, (6, 4)) if play.notation == "24/14")
    verdict = runner.run(review(engine, [CheckerDecision(Xgid(), (6, 4), run.result)], ply=1))
    assert isinstance(verdict.plays[0], PlayVerdict) and verdict.plays[0].hint.ply == 1
