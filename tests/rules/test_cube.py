"""The cube, the end of a game and its score: each rule of the seed and of tournaments."""

from __future__ import annotations

import pytest

from controller.rules.board import START, Board
from controller.rules.cube import (
    CubePhase,
    CubeState,
    GameResult,
    Outcome,
    Rules,
    WinKind,
    outcome,
)
from controller.rules.errors import IllegalActionError, InvalidPositionError, InvalidRulesError
from controller.rules.variants import Scoring

MONEY = Rules()
JACOBY = Rules(jacoby=True)
BEAVERS = Rules(beavers=True)
MATCH7 = Rules(match_length=7)


def board(points: dict[int, int]) -> Board:
    """A board from {index: count}; everything else empty (borne off)."""
    cells = [0] * 26
    for index, count in points.items():
        cells[index] = count
    return tuple(cells)


# Gammons et Backgammons.


def test_no_outcome_while_both_players_have_checkers() -> None:
    assert outcome(START) is None


def test_single_game_when_the_loser_bore_off_a_checker() -> None:
    # Player 0 has borne off all 15; player 1 has 14 left (one off).
    assert outcome(board({19: -14})) == Outcome(0, WinKind.SINGLE)


def test_gammon_when_the_loser_bore_off_no_checker() -> None:
    assert outcome(board({19: -15})) == Outcome(0, WinKind.GAMMON)
    assert outcome(board({6: 15})) == Outcome(1, WinKind.GAMMON)


def test_backgammon_with_a_checker_in_the_winners_home_board() -> None:
    assert outcome(board({19: -14, 6: -1})) == Outcome(0, WinKind.BACKGAMMON)
    assert outcome(board({6: 14, 24: 1})) == Outcome(1, WinKind.BACKGAMMON)


def test_backgammon_with_a_checker_on_the_bar() -> None:
    assert outcome(board({19: -14, 0: -1})) == Outcome(0, WinKind.BACKGAMMON)
    assert outcome(board({6: 14, 25: 1})) == Outcome(1, WinKind.BACKGAMMON)


def test_the_phases_and_scorings_hash_by_identity_as_they_compare() -> None:
    """Looked up for every event a resume folds: Enum's hash runs Python code, identity's
    does not, and a member equals only itself."""
    for member in [*CubePhase, *Scoring]:
        assert hash(member) == object.__hash__(member) and {member: 1}[member] == 1
    assert len({*CubePhase, *Scoring}) == len(CubePhase) + len(Scoring)


def test_a_roll_and_an_end_of_turn_are_not_checked_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A checked cube rolled or passed on stays valid: its next states are copies, unchecked
    (a resume folds both for every play), equal to the checked states."""
    cube = CubeState(MATCH7, value=2, owner=1, turn=1)
    rolled, passed = CubeState(MATCH7, 2, 1, 1, CubePhase.ROLLED), CubeState(MATCH7, 2, 1, 0)
    checks: list[CubeState] = []

    def check(checked: CubeState) -> None:
        checks.append(checked)

    monkeypatch.setattr(CubeState, "__post_init__", check)
    assert cube.roll(1) == rolled and cube.roll(1).end_turn(1) == passed
    assert checks == []


@pytest.mark.parametrize(
    "cells", [{}, {19: -14}, {19: -15}, {6: 15}, {19: -14, 6: -1}, {6: 14, 25: 1}, {1: 1, 24: -1}]
)
def test_the_outcome_of_a_board_known_possible_is_the_same_unchecked(
    cells: dict[int, int],
) -> None:
    """``checked=True`` (a play event's board, checked when the event was made) skips the
    board's check, not the rules: the same outcome, and both borne off still refused."""
    known = board(cells) if cells else START
    assert outcome(known, checked=True) == outcome(known)
    with pytest.raises(InvalidPositionError, match="both players have borne off"):
        outcome(board({}), checked=True)


def test_a_checker_just_outside_the_winners_home_board_is_only_a_gammon() -> None:
    assert outcome(board({19: -14, 7: -1})) == Outcome(0, WinKind.GAMMON)
    assert outcome(board({6: 14, 18: 1})) == Outcome(1, WinKind.GAMMON)


def test_a_stranded_checker_does_not_backgammon_a_loser_who_bore_off() -> None:
    assert outcome(board({19: -13, 3: -1})) == Outcome(0, WinKind.SINGLE)


def test_outcome_refuses_impossible_boards() -> None:
    with pytest.raises(InvalidPositionError, match="both players have borne off all 15"):
        outcome(board({}))
    with pytest.raises(InvalidPositionError, match="26 integers"):
        outcome((1, 2, 3))


# Rules settings.


def test_rules_default_to_money_play_without_options() -> None:
    rules = Rules()
    assert rules.is_money and not rules.jacoby and not rules.beavers
    assert not rules.automatic_doubles and rules.max_automatic_doubles == 1 and rules.crawford


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"match_length": -1}, "the match length is a number of points (0 for money play), got -1"),
        ({"match_length": "7"}, "got '7'"),
        ({"max_automatic_doubles": 0}, "the limit of automatic doubles is at least 1, got 0"),
        ({"jacoby": 1}, "jacoby is True or False, got 1"),
        (
            {"match_length": 5, "jacoby": True},
            "the Jacoby rule belongs to money play, not to a 5-point match",
        ),
        (
            {"match_length": 5, "beavers": True},
            "beavers belong to money play, not to a 5-point match",
        ),
        ({"match_length": 3, "automatic_doubles": True}, "automatic doubles belong to money play"),
    ],
)
def test_rules_refuse_contradictions(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidRulesError) as error:
        Rules(**kwargs)  # type: ignore[arg-type]
    assert message in str(error.value)


# Doubler.


def test_double_take_gives_the_taker_the_cube_at_twice_the_value() -> None:
    cube = CubeState(MONEY, turn=0).double(0)
    assert cube.phase is CubePhase.DOUBLED and cube.offered_value == 2 and cube.to_act == 1
    taken = cube.take(1)
    assert taken == CubeState(MONEY, value=2, owner=1, turn=0, phase=CubePhase.TO_ROLL)
    # The doubler goes on with their turn: they roll, and cannot double again.
    assert taken.double_problem(0) == "the cube is owned by player 1"


def test_drop_concedes_the_value_before_the_double() -> None:
    result = CubeState(MONEY, value=4, owner=0, turn=0).double(0).drop(1)
    assert result == GameResult(winner=0, points=4, cube_value=4, dropped=True)


def test_first_double_of_a_game_scores_one_point_when_dropped() -> None:
    assert CubeState(MONEY, turn=1).double(1).drop(0).points == 1


def test_double_only_at_the_start_of_ones_own_turn_before_rolling() -> None:
    cube = CubeState(MONEY, turn=0)
    assert cube.can_double(0)
    assert not cube.can_double(1)
    assert (
        cube.double_problem(1)
        == "it is player 0's turn: a double is offered only on one's own turn"
    )
    rolled = cube.roll(0)
    assert (
        rolled.double_problem(0) == "player 0 has rolled: a double is offered only before rolling"
    )
    with pytest.raises(IllegalActionError) as error:
        rolled.double(0)
    assert str(error.value) == (
        "player 0 cannot double: player 0 has rolled: a double is offered only before rolling"
    )
    # The next turn starts: now player 1 may double, before rolling.
    assert rolled.end_turn(0).can_double(1)


def test_only_the_cube_owner_may_redouble() -> None:
    cube = CubeState(MONEY, value=2, owner=1, turn=0)
    with pytest.raises(
        IllegalActionError, match="player 0 cannot double: the cube is owned by player 1"
    ):
        cube.double(0)
    mine = CubeState(MONEY, value=2, owner=1, turn=1)
    assert mine.can_double(1)


def test_redoubles_have_no_limit() -> None:
    cube = CubeState(MONEY, turn=0)
    for _ in range(20):
        player = cube.turn
        cube = cube.double(player).take(1 - player).roll(player).end_turn(player)
        # The taker is now on turn and owns the cube: they may redouble.
        assert cube.owner == cube.turn and cube.can_double(cube.turn)
    assert cube.value == 2**20


def test_answers_come_from_the_doubled_player_only() -> None:
    cube = CubeState(MONEY, turn=0).double(0)
    with pytest.raises(
        IllegalActionError, match="player 0 cannot take: player 0 doubled: player 1 must answer"
    ):
        cube.take(0)
    with pytest.raises(IllegalActionError, match="player 0 cannot drop: player 0 doubled"):
        cube.drop(0)
    assert cube.double_problem(0) == "a double is pending: player 1 must take or drop"
    with pytest.raises(IllegalActionError, match="player 0 cannot roll: a double is pending"):
        cube.roll(0)


def test_take_or_drop_without_a_double_is_refused() -> None:
    cube = CubeState(MONEY, turn=0)
    for action in (cube.take, cube.drop, cube.beaver):
        with pytest.raises(IllegalActionError, match="no double is pending"):
            action(1)


def test_roll_and_end_turn_out_of_turn_are_refused() -> None:
    cube = CubeState(MONEY, turn=0)
    with pytest.raises(IllegalActionError, match="player 1 cannot roll: it is player 0's turn"):
        cube.roll(1)
    with pytest.raises(
        IllegalActionError, match="player 0 cannot end the turn: player 0 has not rolled yet"
    ):
        cube.end_turn(0)
    with pytest.raises(
        IllegalActionError, match="player 1 cannot end the turn: it is player 0's turn"
    ):
        cube.roll(0).end_turn(1)
    with pytest.raises(
        IllegalActionError, match="player 0 cannot roll: player 0 has already rolled"
    ):
        cube.roll(0).roll(0)


def test_a_player_is_0_or_1() -> None:
    with pytest.raises(IllegalActionError, match="a player is 0 or 1, got 2"):
        CubeState().double(2)
    with pytest.raises(IllegalActionError, match="a cube value is a power of two, got 3"):
        CubeState(value=3)


# Crawford.


def test_no_doubling_in_the_crawford_game() -> None:
    cube = CubeState(MATCH7, turn=0, crawford=True)
    assert cube.double_problem(0) == "doubling is not allowed in the Crawford game"
    with pytest.raises(IllegalActionError, match="doubling is not allowed in the Crawford game"):
        cube.double(0)


def test_impossible_cube_states_are_refused() -> None:
    with pytest.raises(
        IllegalActionError, match="nobody doubles in the Crawford game: the cube stays at 1"
    ):
        CubeState(MATCH7, value=2, owner=0, crawford=True)
    with pytest.raises(
        IllegalActionError, match="player 0 cannot have doubled a cube owned by player 1"
    ):
        CubeState(MONEY, value=2, owner=1, turn=0, phase=CubePhase.DOUBLED)
    with pytest.raises(IllegalActionError, match="after a beaver the beaverer owns the cube"):
        CubeState(BEAVERS, value=2, owner=0, turn=0, phase=CubePhase.BEAVERED)


def test_money_play_has_no_crawford_game() -> None:
    with pytest.raises(IllegalActionError, match="money play has no Crawford game"):
        CubeState(MONEY, crawford=True)


def test_a_one_point_match_has_no_crawford_game() -> None:
    with pytest.raises(IllegalActionError, match="a 1-point match has no Crawford game"):
        CubeState(Rules(match_length=1), crawford=True)


# Castors (beavers).


def test_beaver_redoubles_at_once_and_keeps_the_cube() -> None:
    cube = CubeState(BEAVERS, turn=0).double(0).beaver(1)
    assert cube.phase is CubePhase.BEAVERED
    assert cube.value == 2 and cube.owner == 1 and cube.offered_value == 4 and cube.to_act == 0
    taken = cube.take(0)
    assert (taken.value, taken.owner, taken.turn, taken.phase) == (4, 1, 0, CubePhase.TO_ROLL)


def test_refusing_a_beaver_loses_the_doubled_value() -> None:
    result = CubeState(BEAVERS, turn=0).double(0).beaver(1).drop(0)
    assert result == GameResult(winner=1, points=2, cube_value=2, dropped=True)


def test_only_the_doubler_answers_a_beaver_and_cannot_beaver_it() -> None:
    cube = CubeState(BEAVERS, turn=0).double(0).beaver(1)
    with pytest.raises(IllegalActionError, match="player 1 beavered: player 0 must answer"):
        cube.take(1)
    assert cube.beaver_problem(0) == "a beaver cannot be beavered again (raccoons are not offered)"


def test_no_beaver_in_match_play() -> None:
    cube = CubeState(MATCH7, turn=0).double(0)
    assert cube.beaver_problem(1) == "beavers are not allowed in match play"
    with pytest.raises(
        IllegalActionError, match="player 1 cannot beaver: beavers are not allowed in match play"
    ):
        cube.beaver(1)


def test_no_beaver_without_the_option() -> None:
    cube = CubeState(MONEY, turn=0).double(0)
    assert not cube.can_beaver(1)
    assert cube.beaver_problem(1) == "beavers are not allowed by the rules of this session"


# Scoring.


@pytest.mark.parametrize(
    ("kind", "value", "points"),
    [
        (WinKind.SINGLE, 1, 1),
        (WinKind.GAMMON, 1, 2),
        (WinKind.BACKGAMMON, 1, 3),
        (WinKind.GAMMON, 4, 8),
        (WinKind.BACKGAMMON, 8, 24),
    ],
)
def test_score_is_cube_value_times_kind(kind: WinKind, value: int, points: int) -> None:
    owner = None if value == 1 else 0
    result = CubeState(MONEY, value=value, owner=owner).result(Outcome(1, kind))
    assert result == GameResult(winner=1, points=points, cube_value=value, kind=kind)


def test_jacoby_counts_gammons_single_while_nobody_doubled() -> None:
    result = CubeState(JACOBY).result(Outcome(0, WinKind.BACKGAMMON))
    assert result == GameResult(0, points=1, cube_value=1, kind=WinKind.BACKGAMMON, jacoby=True)


def test_jacoby_counts_gammons_once_the_cube_was_turned() -> None:
    cube = CubeState(JACOBY, turn=0).double(0).take(1)
    assert cube.result(Outcome(1, WinKind.GAMMON)).points == 4


def test_jacoby_ignores_automatic_doubles_as_gnubg_does() -> None:
    # Cube at 2 after an automatic double, still centred: nobody doubled.
    result = CubeState(Rules(jacoby=True, automatic_doubles=True), value=2).result(
        Outcome(0, WinKind.GAMMON)
    )
    assert (result.points, result.jacoby) == (2, True)


def test_match_play_counts_gammons_in_full() -> None:
    assert CubeState(MATCH7).result(Outcome(0, WinKind.GAMMON)).points == 2


def test_the_game_cannot_end_on_the_board_with_a_double_pending() -> None:
    with pytest.raises(IllegalActionError, match="a double is pending"):
        CubeState(MONEY).double(0).result(Outcome(0, WinKind.SINGLE))
