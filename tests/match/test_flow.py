"""The match's flow, pure: opening, cube, turns, irregular plays, game end, resumption."""

from __future__ import annotations

from typing import Any

import pytest

from controller import record
from controller.match.errors import RefusedError
from controller.match.flow import Flow
from controller.referee import (
    BoardSeen,
    Button,
    ButtonPressed,
    DiceCocked,
    DiceEntered,
    DiceLifted,
    DiceRolled,
    Mode,
    PositionCorrected,
    cells_from_board,
)
from controller.rules import START, Board, Rules, legal_plays
from controller.rules import plays as plays_module
from controller.rules import search as search_module
from controller.rules import tree as tree_module


def started(dice: tuple[int, int] = (3, 1)) -> Flow:
    flow = Flow.new(("Ann", "Bob"), Rules(match_length=5)).on(BoardSeen(cells_from_board(START)))[0]
    flow, events = flow.on(DiceRolled(dice))
    assert events == [record.OpeningRolled(dice)]
    return flow


def play(flow: Flow, notation: str) -> Flow:
    turn = flow.turn
    assert turn is not None and turn.dice is not None
    board = next(
        p for p in legal_plays(turn.before, turn.player, turn.dice) if p.notation == notation
    )
    flow, events = flow.on(BoardSeen(cells_from_board(board.result)))
    assert events == [record.Observed(board.result)]
    return flow


def test_the_opening_roll_ties_then_the_higher_die_plays_both() -> None:
    flow = Flow.new(("Ann", "Bob"), Rules(match_length=5))
    assert flow.phase == "opening"
    flow, events = flow.on(DiceRolled((4, 4)))
    assert events == [record.OpeningRolled((4, 4))] and flow.phase == "opening"
    assert "tie" in flow.notice
    flow, _ = flow.on(DiceLifted())
    flow, events = flow.on(DiceEntered((2, 5)))
    assert events == [record.OpeningRolled((2, 5))]
    assert flow.phase == "moving" and flow.turn is not None
    assert (flow.turn.player, flow.turn.dice) == (1, (5, 2))


def test_a_legal_play_is_committed_by_lifting_the_dice_and_the_opponent_rolls() -> None:
    flow = play(started(), "8/5 6/5")
    flow, events = flow.on(DiceLifted())
    after = next(p.result for p in legal_plays(START, 0, (3, 1)) if p.notation == "8/5 6/5")
    assert events == [record.Played(0, (3, 1), "8/5 6/5", after)]
    assert flow.phase == "roll" and flow.turn is not None and flow.turn.player == 1
    flow, events = flow.on(DiceRolled((6, 2)))
    assert events == [record.Rolled(1, (6, 2))] and flow.phase == "moving"


def test_a_roll_is_searched_once_by_the_referee_and_the_record_takes_its_play(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 18: the referee's tree is built once per roll and shared by the turn; the
    play recorded at its end is the tree's, not a second search of every legal play."""
    after = next(p.result for p in legal_plays(START, 0, (3, 1)) if p.notation == "8/5 6/5")
    built: list[tuple[int, ...]] = []
    searched: list[tuple[int, int]] = []
    build = tree_module.PlayTree._build

    def counted_build(tree: tree_module.PlayTree, *args: Any) -> None:
        built.append(args[2])  # the numbers
        build(tree, *args)

    def counted_search(board: Board, player: int, dice: tuple[int, int]) -> object:
        searched.append(dice)
        return search_module.search(board, player, dice)

    monkeypatch.setattr(tree_module.PlayTree, "_build", counted_build)
    monkeypatch.setattr(plays_module, "search", counted_search)  # legal_plays, legal_results
    flow = started((3, 1))
    flow, _ = flow.on(BoardSeen(cells_from_board(after)))
    flow, events = flow.on(DiceLifted())
    assert events == [record.Played(0, (3, 1), "8/5 6/5", after)]
    assert built == [(3, 1)]
    assert searched == []


def test_a_cocked_roll_is_rolled_again_and_records_nothing() -> None:
    flow, _ = play(started(), "8/5 6/5").on(ButtonPressed(Button.DONE))
    flow, events = flow.on(DiceCocked("die at [1, 2, 3, 4] is cocked"))
    assert events == [] and flow.phase == "roll"
    assert flow.display().text.startswith("roll again")


def test_an_illegal_play_is_flagged_then_accepted_or_demanded() -> None:
    flow = started()
    moved = list(START)
    moved[13], moved[7], moved[11] = 2, 2, 1  # 13/7(2) 13/11: no roll plays that
    board = tuple(moved)
    flow, _ = flow.on(BoardSeen(cells_from_board(board)))
    flow, events = flow.on(ButtonPressed(Button.DONE))
    assert flow.phase == "flagged"
    assert [type(e) for e in events] == [record.Flagged]
    demanded, _ = flow.on(ButtonPressed(Button.UNDO))  # Undo while flagged: a legal play demanded
    assert demanded.phase == "moving"
    flow, events = flow.on(ButtonPressed(Button.ACCEPT))
    assert events == [record.IllegalPlayAccepted(0, (3, 1), START, board)]
    assert flow.phase == "roll"


def test_cube_double_take_then_a_drop_ends_the_game() -> None:
    flow, _ = play(started(), "8/5 6/5").on(DiceLifted())
    flow, events = flow.on(ButtonPressed(Button.DOUBLE))
    assert events == [record.Doubled(1, 2)] and flow.phase == "cube-offered"
    with pytest.raises(RefusedError, match="player 0 must take or drop"):
        flow.on(ButtonPressed(Button.DONE))
    flow, events = flow.on(ButtonPressed(Button.TAKE))
    assert events == [record.Taken(0)] and flow.phase == "roll"
    with pytest.raises(RefusedError, match="no double to answer"):
        flow.on(ButtonPressed(Button.TAKE))
    flow, _ = flow.on(DiceRolled((6, 5)))
    flow, _ = flow.on(DiceLifted())  # 6-5 unplayed: the board did not move
    assert flow.phase == "flagged"  # the dice left unplayed: an illegal play


def test_a_drop_scores_the_cube_and_the_next_game_opens() -> None:
    flow, _ = play(started(), "8/5 6/5").on(DiceLifted())
    flow, _ = flow.on(ButtonPressed(Button.DOUBLE))
    flow, events = flow.on(ButtonPressed(Button.DROP))
    assert events == [record.Dropped(0), record.GameEnded(1, 1, dropped=True)]
    assert flow.phase == "opening" and flow.match.score == (0, 1)


def test_the_position_is_corrected_before_the_roll_only() -> None:
    flow = started()
    with pytest.raises(RefusedError, match="before the roll"):
        flow.on(PositionCorrected(START))
    flow, _ = play(flow, "8/5 6/5").on(DiceLifted())
    flow, events = flow.on(PositionCorrected(START))
    assert [type(e) for e in events] == [record.PositionEdited]
    assert flow.turn is not None and flow.turn.before == START


def test_resumes_mid_turn_from_the_journal_snapshot() -> None:
    events = [
        record.MatchStarted(("Ann", "Bob"), Rules(match_length=5)),
        record.OpeningRolled((3, 1)),
    ]
    snapshot = record.replay(events).state
    flow, owed = Flow.resume(snapshot, Mode.LEARNER)
    assert owed == [] and flow.phase == "moving" and flow.mode is Mode.LEARNER
    assert flow.turn is not None and flow.turn.dice == (3, 1)
    assert flow.notice.startswith("resumed: Ann - Bob, 5-point match")


def test_the_thrower_is_both_at_the_opening_the_mover_then_the_opponent() -> None:
    # The camera needs it: each player throws into his own right-hand half.
    flow = Flow.new(("Ann", "Bob"), Rules(match_length=5))
    assert flow.thrower is None  # one die each
    flow = started((3, 1))
    assert flow.phase == "moving" and flow.thrower == 1  # a throw now is Bob's (accepts)
    flow, _ = play(flow, "8/5 6/5").on(DiceLifted())
    assert flow.phase == "roll" and flow.thrower == 1
    flow, _ = flow.on(DiceRolled((6, 2)))
    assert flow.phase == "moving" and flow.thrower == 0
