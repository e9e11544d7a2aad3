"""The turn's state machine: roll, move, commit, and the seed's irregularities."""

from __future__ import annotations

import ast
from pathlib import Path
from types import ModuleType

import pytest

from controller.referee import (
    BoardSeen,
    Button,
    ButtonPressed,
    DiceCocked,
    DiceEntered,
    DiceLifted,
    DiceRolled,
    DiceSource,
    DiceUnreadable,
    Fault,
    Kind,
    Phase,
    TurnState,
    cells_from_board,
    display,
    turn,
)
from controller.rules import START, IllegalActionError, legal_plays
from tests.referee._support import PARTIAL_13_8, PLAY_24_13, board_of, lift


def rolled(dice: tuple[int, int] = (6, 5)) -> TurnState:
    return TurnState.start(START, 0).on(BoardSeen(cells_from_board(START))).on(DiceRolled(dice))


def test_a_legal_play_ends_when_the_mover_lifts_the_dice() -> None:
    state = rolled()
    assert state.phase is Phase.MOVING and state.dice_source is DiceSource.CAMERA
    assert state.verdict is not None and state.verdict.kind is Kind.WAITING
    state = state.on(BoardSeen(cells_from_board(PLAY_24_13)))
    assert state.verdict is not None and state.verdict.kind is Kind.COMPLETE
    state = state.on(DiceLifted())
    assert state.phase is Phase.DONE
    assert state.end is not None and state.end.board == PLAY_24_13
    assert state.end.play is not None and state.end.play.notation == "24/13"
    assert not state.end.accepted


def test_done_commits_too_and_undo_takes_it_back() -> None:
    state = rolled().on(BoardSeen(cells_from_board(PLAY_24_13))).on(ButtonPressed(Button.DONE))
    assert state.phase is Phase.DONE
    state = state.on(ButtonPressed(Button.UNDO))
    assert state.phase is Phase.MOVING and state.notice == "undone"
    assert state.on(ButtonPressed(Button.UNDO)).notice == "nothing to undo"


def test_an_incomplete_play_is_flagged_and_the_opponent_may_accept_it() -> None:
    state = rolled().on(BoardSeen(cells_from_board(PARTIAL_13_8))).on(DiceLifted())
    assert state.phase is Phase.FLAGGED
    assert state.flagged is not None and state.flagged.fault is Fault.BOTH_DICE
    assert state.notice == (
        "illegal play, must use both dice: both 6-5 can be played: Accept it or demand a legal play"
    )
    state = state.on(ButtonPressed(Button.ACCEPT))
    assert state.phase is Phase.DONE
    assert state.end is not None and state.end.accepted
    assert state.end.board == PARTIAL_13_8 and state.end.play is None
    assert state.end.fault is Fault.BOTH_DICE


def test_a_demanded_legal_play_starts_again_from_the_position_before() -> None:
    state = rolled().on(BoardSeen(cells_from_board(PARTIAL_13_8))).on(ButtonPressed(Button.DONE))
    state = state.on(ButtonPressed(Button.DEMAND))
    assert state.phase is Phase.MOVING and state.demanded
    assert state.before == START
    # The board goes back and a legal play is made.
    state = state.on(BoardSeen(cells_from_board(START)))
    assert state.verdict is not None and state.verdict.kind is Kind.WAITING
    state = state.on(BoardSeen(cells_from_board(PLAY_24_13))).on(DiceLifted())
    assert state.end is not None and state.end.play is not None and not state.end.accepted


def test_the_opponent_rolling_accepts_the_play_as_made_and_the_early_roll_is_void() -> None:
    state = rolled().on(BoardSeen(cells_from_board(PARTIAL_13_8))).on(DiceRolled((3, 1)))
    assert state.phase is Phase.DONE
    assert state.end is not None and state.end.accepted and state.end.void_roll
    assert state.end.next_roll is None
    assert state.notice == ("the play is accepted as made; player 1's roll is void: roll again")
    following = state.next_turn()
    assert following.player == 1 and following.before == PARTIAL_13_8
    assert following.phase is Phase.ROLL
    assert following.notice == "the roll was void: player 1 rolls again"


def test_the_opponent_rolling_after_the_mover_finished_keeps_the_roll() -> None:
    state = rolled().on(BoardSeen(cells_from_board(PARTIAL_13_8))).on(ButtonPressed(Button.DONE))
    state = state.on(DiceRolled((3, 1)))
    assert state.end is not None and state.end.accepted
    assert state.end.next_roll == DiceRolled((3, 1))
    following = state.next_turn()
    assert following.phase is Phase.MOVING and following.dice == (3, 1)


def test_the_void_roll_rule_is_waived_without_contact() -> None:
    race = board_of({6: 5, 5: 5, 4: 5}, {24: 5, 23: 5, 22: 5})
    after = board_of({6: 4, 5: 5, 4: 5, 3: 1}, {24: 5, 23: 5, 22: 5})
    state = TurnState.start(race, 0, dice=(3, 1)).on(BoardSeen(cells_from_board(after)))
    state = state.on(DiceRolled((2, 2)))
    assert state.end is not None and not state.end.void_roll
    assert state.end.next_roll == DiceRolled((2, 2))
    strict = TurnState.start(race, 0, dice=(3, 1), waive_void_roll=False)
    strict = strict.on(BoardSeen(cells_from_board(after))).on(DiceRolled((2, 2)))
    assert strict.end is not None and strict.end.void_roll


def test_a_cocked_roll_of_the_opponent_ends_the_turn_and_is_rolled_again() -> None:
    state = rolled().on(BoardSeen(cells_from_board(PARTIAL_13_8))).on(ButtonPressed(Button.DONE))
    state = state.on(DiceCocked("a die is cocked"))
    assert state.end is not None and state.end.accepted
    following = state.next_turn()
    assert following.phase is Phase.ROLL and following.roll_fault == "a die is cocked"


def test_the_opponent_doubling_accepts_the_play() -> None:
    state = rolled().on(BoardSeen(cells_from_board(PLAY_24_13)))
    state = state.on(ButtonPressed(Button.DOUBLE))
    assert state.end is not None and state.end.doubled and state.end.play is not None
    assert not state.end.accepted


def test_a_roll_while_a_checker_is_in_hand_ends_nothing() -> None:
    in_hand = lift(cells_from_board(START), 23, 0)
    state = rolled().on(BoardSeen(in_hand)).on(DiceRolled((3, 1)))
    assert state.phase is Phase.MOVING
    assert state.notice == "player 1 rolled before the play was finished"
    state = state.on(ButtonPressed(Button.DONE))
    assert state.phase is Phase.MOVING and state.notice == "not finished: checker in hand"


def test_a_cocked_die_asks_for_a_new_roll() -> None:
    state = TurnState.start(START, 0).on(DiceCocked("a die is cocked"))
    assert state.phase is Phase.ROLL and state.roll_fault == "a die is cocked"
    assert state.notice == "roll again: a die is cocked"
    state = state.on(DiceRolled((6, 5)))
    assert state.phase is Phase.MOVING and state.roll_fault == ""


def test_unreadable_dice_are_entered_by_hand() -> None:
    state = TurnState.start(START, 0).on(DiceUnreadable())
    assert state.phase is Phase.MANUAL_DICE
    assert state.notice == "cannot read the dice: enter them"
    state = state.on(DiceEntered((6, 5)))
    assert state.phase is Phase.MOVING and state.dice_source is DiceSource.MANUAL
    assert state.on(ButtonPressed(Button.UNDO)).phase is Phase.MANUAL_DICE


def test_manual_dice_are_checked_against_the_checkers_moved() -> None:
    (play,) = [p for p in legal_plays(START, 0, (6, 2)) if p.notation == "24/18 13/11"]
    state = TurnState.start(START, 0).on(DiceUnreadable())
    state = state.on(BoardSeen(cells_from_board(play.result)))
    state = state.on(DiceEntered((5, 3)))
    assert state.phase is Phase.CONFIRM_DICE
    assert state.alternatives == ((6, 2), (2, 2))
    assert state.notice == (
        "the dice were entered 5-3 but the checkers moved 6-2 or 2-2: confirm the dice"
    )
    state = state.on(DiceEntered((6, 2)))
    assert state.phase is Phase.MOVING and state.dice == (6, 2)
    assert state.verdict is not None and state.verdict.kind is Kind.COMPLETE


def test_camera_and_checkers_disagree_at_the_commit() -> None:
    (play,) = [p for p in legal_plays(START, 0, (6, 2)) if p.notation == "24/18 13/11"]
    state = rolled((5, 3)).on(BoardSeen(cells_from_board(play.result)))
    assert state.verdict is not None and state.verdict.kind is Kind.ILLEGAL
    state = state.on(DiceLifted())
    assert state.phase is Phase.CONFIRM_DICE
    assert state.notice == (
        "the dice were read 5-3 but the checkers moved 6-2 or 2-2: confirm the dice"
    )
    confirmed = state.on(DiceEntered((6, 2)))
    assert confirmed.phase is Phase.DONE
    assert confirmed.end is not None and confirmed.end.play == play
    kept = state.on(DiceEntered((5, 3)))
    assert kept.phase is Phase.FLAGGED
    assert kept.flagged is not None and kept.flagged.fault is Fault.WRONG_NUMBERS


def test_given_dice_skip_the_roll() -> None:
    state = TurnState.start(START, 0, dice=(6, 5))
    assert state.phase is Phase.MOVING and state.dice_source is DiceSource.GIVEN


def test_buttons_out_of_place_are_refused_with_a_notice() -> None:
    accepted = rolled().on(ButtonPressed(Button.ACCEPT))
    assert accepted.notice == "accept counts only after an illegal play"
    assert TurnState.start(START, 0).on(ButtonPressed(Button.DONE)).notice == (
        "Done counts only while playing"
    )
    done = rolled().on(BoardSeen(cells_from_board(PLAY_24_13))).on(DiceLifted())
    assert done.on(ButtonPressed(Button.ACCEPT)).notice == "the turn is over"


def test_the_mover_throws_before_playing_and_the_opponent_while_they_play() -> None:
    assert TurnState.start(START, 0).thrower == 0
    assert TurnState.start(START, 0).on(DiceUnreadable()).thrower == 0
    assert rolled().thrower == 1  # an opponent's roll now accepts the play as made


def test_next_turn_needs_a_finished_turn() -> None:
    with pytest.raises(IllegalActionError, match="turn of player 0 is not over: moving"):
        rolled().next_turn()


@pytest.mark.parametrize("module", [turn, display], ids=lambda module: module.__name__)
def test_the_general_turn_never_branches_on_the_variant(module: ModuleType) -> None:
    """What a variant changes is asked of the state's TurnRules (issue 17): no condition in
    the general turn or its display names Jacquet, a scoring or a variant."""
    conditions = [
        node.test
        for node in ast.walk(ast.parse(Path(str(module.__file__)).read_text(encoding="utf-8")))
        if isinstance(node, ast.If | ast.IfExp | ast.While | ast.Assert)
    ]
    named = [
        f"line {condition.lineno}: {ast.unparse(condition)}"
        for condition in conditions
        for node in ast.walk(condition)
        if isinstance(node, ast.Name | ast.Attribute)
        and any(
            word in (node.id if isinstance(node, ast.Name) else node.attr).lower()
            for word in ("jacquet", "scoring", "variant")
        )
    ]
    assert not named, f"{module.__name__} branches on the variant: {named}"
