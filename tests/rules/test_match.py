"""Match play (Crawford, post-Crawford), money play and the opening roll."""

from __future__ import annotations

import random

import pytest

from controller.rules.cube import CubePhase, CubeState, Rules
from controller.rules.errors import IllegalActionError, InvalidDiceError
from controller.rules.match import MatchState, OpeningRoll, roll_opening

MATCH7 = Rules(match_length=7)


# The opening roll.


def test_the_higher_die_plays_both_numbers() -> None:
    opening = OpeningRoll().roll(2, 5)
    assert opening.is_decided
    assert opening.first_player == 1
    assert opening.play_dice == (5, 2)
    assert opening.cube_value == 1


def test_equal_opening_dice_are_rolled_again() -> None:
    opening = OpeningRoll().roll(4, 4)
    assert not opening.is_decided and opening.first_player is None and opening.play_dice is None
    assert opening.ties == (4,)
    decided = opening.roll(6, 1)
    assert (decided.first_player, decided.play_dice, decided.ties) == (0, (6, 1), (4,))


def test_ties_do_not_double_the_cube_without_the_option() -> None:
    assert OpeningRoll().roll(3, 3).roll(2, 2).roll(1, 2).cube_value == 1


def test_automatic_double_turns_the_cube_to_2_once_by_default() -> None:
    rules = Rules(automatic_doubles=True)
    opening = OpeningRoll(rules).roll(3, 3).roll(5, 5).roll(1, 2)
    assert (opening.automatic_doubles, opening.cube_value) == (1, 2)


def test_automatic_doubles_up_to_the_agreed_limit() -> None:
    rules = Rules(automatic_doubles=True, max_automatic_doubles=2)
    opening = OpeningRoll(rules)
    values = []
    for die in (1, 2, 3):
        opening = opening.roll(die, die)
        values.append(opening.cube_value)
    assert values == [2, 4, 4]


def test_automatic_doubles_leave_the_cube_centred() -> None:
    match = MatchState(Rules(automatic_doubles=True))
    cube = match.start_game(OpeningRoll(match.rules).roll(6, 6).roll(3, 1))
    assert (cube.value, cube.owner, cube.turn, cube.phase) == (2, None, 0, CubePhase.ROLLED)
    # The first player played the opening roll: the opponent may double on their turn.
    assert not cube.can_double(0)
    assert cube.end_turn(0).can_double(1)


def test_opening_roll_refuses_bad_dice_and_a_second_decision() -> None:
    with pytest.raises(InvalidDiceError, match="a die shows 1 to 6, got 7"):
        OpeningRoll().roll(7, 1)
    with pytest.raises(IllegalActionError, match="the opening roll is decided: player 0 plays 5-3"):
        OpeningRoll().roll(5, 3).roll(1, 2)
    with pytest.raises(InvalidDiceError, match="equal opening dice"):
        OpeningRoll(dice=(2, 2))


def test_roll_opening_draws_from_the_random_generator() -> None:
    rng = random.Random(7)
    expected = OpeningRoll()
    twin = random.Random(7)
    while not expected.is_decided:
        expected = expected.roll(twin.randint(1, 6), twin.randint(1, 6))
    assert roll_opening(rng) == expected


def test_roll_opening_first_player_is_fair_and_ties_happen() -> None:
    rng = random.Random(2026)
    openings = [roll_opening(rng) for _ in range(3000)]
    firsts = sum(opening.first_player == 0 for opening in openings)
    assert 1350 < firsts < 1650
    tied = sum(bool(opening.ties) for opening in openings)
    assert 400 < tied < 620  # 1/6 of openings start with a tie


# Match play.


def test_a_match_is_won_on_reaching_the_length_and_excess_points_are_recorded() -> None:
    match = MatchState(MATCH7).after_game(4, 0).after_game(8, 1)
    assert match.is_over and match.winner == 1 and match.score == (4, 8)
    assert match.away(1) == 0 and match.away(0) == 3
    with pytest.raises(IllegalActionError, match="the match is over: player 1 won it"):
        match.after_game(1, 0)
    with pytest.raises(IllegalActionError, match="the match is over"):
        match.start_game(OpeningRoll().roll(1, 2))


def test_crawford_game_follows_the_first_time_a_player_reaches_match_point() -> None:
    match = MatchState(MATCH7).after_game(2, 0)
    assert not match.crawford
    match = match.after_game(4, 0)  # 6-0: match point
    assert match.crawford and not match.post_crawford and match.game_number == 3
    cube = match.start_game(OpeningRoll().roll(1, 2)).end_turn(1)
    assert cube.double_problem(0) == "doubling is not allowed in the Crawford game"


def test_post_crawford_games_have_the_cube_back() -> None:
    match = MatchState(MATCH7).after_game(6, 0).after_game(1, 1)  # Crawford game lost by the leader
    assert not match.crawford and match.post_crawford and match.score == (6, 1)
    cube = match.start_game(OpeningRoll().roll(1, 2)).end_turn(1)
    assert cube.can_double(0)
    # The trailer reaching match point too does not make another Crawford game.
    match = match.after_game(5, 1)
    assert match.score == (6, 6) and not match.crawford and match.post_crawford


def test_the_crawford_game_can_end_the_match() -> None:
    match = MatchState(MATCH7).after_game(6, 1).after_game(2, 1)
    assert match.winner == 1 and not match.crawford


def test_a_player_jumping_past_match_point_makes_no_crawford_game() -> None:
    match = MatchState(MATCH7).after_game(5, 0).after_game(1, 1)
    assert not match.crawford and not match.post_crawford


def test_without_the_crawford_rule_there_is_no_crawford_game() -> None:
    match = MatchState(Rules(match_length=5, crawford=False)).after_game(4, 0)
    assert not match.crawford and not match.post_crawford


def test_a_one_point_match_has_no_crawford_game() -> None:
    match = MatchState(Rules(match_length=1))
    assert not match.crawford
    assert match.after_game(1, 0).winner == 0


def test_money_play_only_adds_up_scores() -> None:
    session = MatchState().after_game(4, 0).after_game(1, 1).after_game(3, 0)
    assert session.score == (7, 1) and session.game_number == 4
    assert not session.is_over and session.away(0) is None


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"score": (-1, 0)}, "a score is two counts of points, got (-1, 0)"),
        ({"game_number": 0}, "games are numbered from 1, got 0"),
        (
            {"rules": Rules(), "crawford": True},
            "money play has no Crawford game and no match winner",
        ),
        (
            {"rules": MATCH7, "score": (7, 2)},
            "player 0 has 7 points in a 7-point match: they are its winner",
        ),
        (
            {"rules": MATCH7, "score": (3, 2), "winner": 0},
            "player 0 cannot win a 7-point match at (3, 2)",
        ),
        (
            {"rules": MATCH7, "score": (6, 2)},
            "at 6-2 in a 7-point match the game is the Crawford game or post-Crawford",
        ),
        (
            {"rules": MATCH7, "score": (5, 2), "crawford": True},
            "neither the Crawford game nor post-Crawford",
        ),
        (
            {"rules": MATCH7, "score": (6, 2), "crawford": True, "post_crawford": True},
            "both the Crawford game and post-Crawford",
        ),
    ],
)
def test_impossible_match_states_are_refused(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(IllegalActionError) as error:
        MatchState(**kwargs)  # type: ignore[arg-type]
    assert message in str(error.value)


def test_after_game_refuses_nonsense() -> None:
    with pytest.raises(IllegalActionError, match="a game is worth at least 1 point, got 0"):
        MatchState().after_game(0, 0)
    with pytest.raises(IllegalActionError, match="a winner is player 0 or 1, got 2"):
        MatchState().after_game(1, 2)


def test_start_game_needs_a_decided_opening() -> None:
    with pytest.raises(IllegalActionError, match="the opening roll is not decided: roll again"):
        MatchState().start_game(OpeningRoll().roll(2, 2))


def test_a_whole_game_from_the_opening_to_the_score() -> None:
    match = MatchState(MATCH7)
    cube = match.start_game(OpeningRoll(match.rules).roll(3, 5))
    assert cube == CubeState(MATCH7, turn=1, phase=CubePhase.ROLLED)
    cube = cube.end_turn(1).double(0).take(1).roll(0).end_turn(0).double(1)
    result = cube.drop(0)
    match = match.after_game(result.points, result.winner)
    assert match.score == (0, 2) and match.game_number == 2
