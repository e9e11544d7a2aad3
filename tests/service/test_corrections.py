"""The flow's dice corrections and abandoned games, pure, checked by the record's replay."""

from __future__ import annotations

import pytest

from controller import record
from controller.match.errors import RefusedError
from controller.match.flow import Flow
from controller.referee import (
    BoardSeen,
    Button,
    ButtonPressed,
    DiceEntered,
    DiceLifted,
    DiceRolled,
    cells_from_board,
)
from controller.rules import START, Rules, legal_plays
from tests.match.test_flow import play, started

START_EVENT = record.MatchStarted(("Ann", "Bob"), Rules(match_length=5))


def feed(flow: Flow, *inputs: object) -> tuple[Flow, list[record.Event]]:
    """``flow`` after ``inputs``, and every event they journalled."""
    journalled: list[record.Event] = []
    for item in inputs:
        flow, events = flow.on(item)  # type: ignore[arg-type]
        journalled += events
    return flow, journalled


def misread_turn() -> tuple[Flow, list[record.Event], record.Played]:
    """Ann plays 3-1; the camera reads Bob's 6-2 as 5-3; Bob plays 24/18 13/11, Done."""
    flow, first = feed(play(started(), "8/5 6/5"), DiceLifted())
    after = first[0]
    assert isinstance(after, record.Played)
    six_two = next(p for p in legal_plays(after.board, 1, (6, 2)) if p.notation == "24/18 13/11")
    assert all(p.result != six_two.result for p in legal_plays(after.board, 1, (5, 3)))
    flow, events = feed(
        flow, DiceRolled((5, 3)), BoardSeen(cells_from_board(six_two.result)),
        ButtonPressed(Button.DONE),
    )  # fmt: skip
    assert flow.phase == "confirm-dice", flow.notice
    played = record.Played(1, (6, 2), "24/18 13/11", six_two.result)
    return flow, [record.OpeningRolled((3, 1)), *first, *events], played


def test_dice_confirmed_by_hand_after_a_misread_are_journalled_as_corrected() -> None:
    flow, events, played = misread_turn()
    assert record.Rolled(1, (5, 3)) in events
    flow, more = feed(flow, DiceEntered((6, 2)))
    assert more == [record.DiceCorrected(1, (6, 2)), played]
    assert flow.phase == "roll" and flow.turn is not None and flow.turn.player == 0
    match = record.replay([START_EVENT, *events, *more])
    assert match.games[0].actions[-1] == played


def test_dice_entered_twice_before_the_play_are_corrected_and_resume_as_corrected() -> None:
    flow, events = feed(play(started(), "8/5 6/5"), DiceLifted())
    flow, more = feed(flow, DiceEntered((5, 3)), DiceEntered((6, 2)))
    # The second entry while still playing is no correction: the dice are known.
    assert more == [record.Rolled(1, (5, 3))]
    flow, undo = feed(flow, ButtonPressed(Button.UNDO), DiceEntered((6, 2)))
    assert undo == [record.DiceCorrected(1, (6, 2))]
    snapshot = record.replay([START_EVENT, record.OpeningRolled((3, 1)), *events, *more,
                              *undo]).state  # fmt: skip
    assert snapshot.dice == (6, 2)
    resumed, owed = Flow.resume(snapshot)
    assert owed == [] and resumed.turn is not None and resumed.turn.dice == (6, 2)


def test_a_game_is_abandoned_with_the_score_unchanged() -> None:
    flow, events = feed(play(started(), "8/5 6/5"), DiceLifted(), DiceRolled((5, 3)))
    with pytest.raises(RefusedError, match="no game in progress"):
        Flow.new(("Ann", "Bob"), START_EVENT.rules).abandon("knocked")
    flow, abandoned = flow.abandon("knocked board")
    assert abandoned == [record.GameAbandoned("knocked board")]
    assert flow.phase == "opening" and flow.turn is None
    assert flow.notice == "game 1 abandoned: opening roll, one die each"
    flow, again = feed(flow, BoardSeen(cells_from_board(START)), DiceRolled((6, 4)))
    assert again == [record.OpeningRolled((6, 4))] and flow.turn is not None
    assert flow.turn.before == START
    match = record.replay([START_EVENT, record.OpeningRolled((3, 1)), *events, *abandoned, *again])
    assert [g.opening for g in match.games] == [(record.OpeningRolled((6, 4)),)]
    assert match.state.match.score == (0, 0) and match.state.abandoned == 1
