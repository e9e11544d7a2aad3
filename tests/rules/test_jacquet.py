"""Jacquet de Versailles: one named test per rule of JACQUET.md, then properties.

Boards are written per player in their own ``pos`` numbering (JACQUET.md: player 0's
``pos p`` is point ``25 - p``, player 1's ``pos k`` is point ``24 - ((k + 11) mod 24)``).
Notation counts each player's points from their bear-off end, as backgammon does: the
start point (``pos`` 1) is 24, ``pos`` 24 is 1.
"""

from __future__ import annotations

import os
import random

import pytest

from controller.rules.errors import IllegalActionError
from controller.rules.jacquet import JacquetResult, JacquetTurn, jacquet_result
from controller.rules.plays import Move, legal_plays
from controller.rules.tree import PlayTree
from controller.rules.variants import JACQUET, JACQUET_LUDII
from controller.simulated.players import JacquetPlayed, play_jacquet_game


def jboard(
    player0: dict[int, int] | None = None,
    player1: dict[int, int] | None = None,
    bars: tuple[int, int] = (0, 0),
) -> tuple[int, ...]:
    board = [0] * 26
    for pos, count in (player0 or {}).items():
        board[25 - pos] += count
    for pos, count in (player1 or {}).items():
        board[24 - (pos + 11) % 24] -= count
    board[25], board[0] = bars[0], -bars[1]
    return tuple(board)


def plays(board: tuple[int, ...], player: int, dice: tuple[int, int], variant=JACQUET) -> list:
    found = legal_plays(board, player, dice, variant)
    return sorted((play.notation, play.unused) for play in found)


# Rule 1: start and direction.


def test_rule_1_fifteen_on_each_start_point_moving_forward() -> None:
    assert JACQUET.start == jboard({1: 15}, {1: 15})
    assert JACQUET.start[24] == 15 and JACQUET.start[12] == -15
    # A die d moves a checker from pos p to pos p + d: 5-3 takes one checker to pos 9.
    assert plays(JACQUET.start, 0, (5, 3)) == [("24/16", ())]
    player1 = legal_plays(JACQUET.start, 1, (5, 3), JACQUET)
    assert [play.result[4] for play in player1] == [-1]  # player 1's pos 9 is point 4


def test_rule_1_player_1_wraps_round_from_point_1_to_point_24() -> None:
    board = jboard({1: 15}, {1: 14, 11: 1})  # player 1's pos 11 is point 2
    results = {play.result for play in legal_plays(board, 1, (3, 1), JACQUET)}
    assert jboard({1: 15}, {1: 14, 15: 1}) in results  # pos 15 is point 22


# Rule 2: the primauté.


def test_rule_2_the_higher_die_wins_and_plays_both_numbers() -> None:
    turn = JacquetTurn.start().throw_primaute(2, 5)
    assert (turn.player, turn.numbers, turn.primaute) == (1, (5, 2), False)


def test_rule_2_a_doublet_is_played_by_both_then_thrown_again() -> None:
    turn = JacquetTurn.start().throw_primaute(3, 3)
    assert (turn.player, turn.numbers) == (0, (3, 3, 3))
    turn = turn.play(turn.plays()[0])
    assert (turn.player, turn.numbers) == (1, (3, 3, 3))
    turn = turn.play(turn.plays()[0])
    assert turn.primaute and turn.numbers == ()
    with pytest.raises(IllegalActionError, match="decided by the primauté"):
        turn.throw((6, 5))
    assert turn.throw_primaute(6, 1).player == 0


# Rule 3: an ordinary throw.


def test_rule_3_two_moves_by_one_checker_or_two_in_either_order() -> None:
    board = jboard({1: 12, 8: 1, 20: 2}, {1: 15})
    notations = [notation for notation, _ in plays(board, 0, (4, 2))]
    assert "17/11" in notations  # one checker, 4 then 2 or 2 then 4
    assert "17/13 5/3" in notations  # two checkers


# Rule 4: doublets.


def test_rule_4_the_first_1_1_of_a_game_gives_one_move() -> None:
    assert plays(JACQUET.start, 0, (1, 1)) == [("24/23", ())]


def test_rule_4_a_doublet_n_n_gives_n_moves_of_n() -> None:
    board = jboard({19: 14, 13: 1}, {1: 15})
    assert {len(play.moves) for play in legal_plays(board, 0, (2, 2), JACQUET)} == {2}
    moves = {len(play.moves) for play in legal_plays(board, 0, (5, 5), JACQUET)}
    assert moves == {5}


def test_rule_4_ludii_doublet_counter_bugs_are_not_copied() -> None:
    """A 1-1 is always one move, and a doublet after a blocked one is played in full."""
    # 6-6 at the start: the courier stops at pos 7, player 1's start point blocks pos 13.
    assert plays(JACQUET.start, 0, (6, 6)) == [("24/18", (6, 6, 6, 6, 6))]
    later = jboard({1: 14, 8: 1}, {1: 15})
    assert {len(p.moves) for p in legal_plays(later, 0, (1, 1), JACQUET)} == {1}


# Rule 5: the courier.


def test_rule_5_no_second_checker_leaves_before_the_courier_arrives() -> None:
    board = jboard({1: 14, 5: 1}, {1: 15})
    assert all(notation.startswith("20/") for notation, _ in plays(board, 0, (4, 2)))


def test_rule_5_the_courier_rule_is_checked_before_each_step_of_a_doublet() -> None:
    """Courier on pos 17: its first 3 reaches pos 20, and only then may others leave."""
    board = jboard({1: 14, 17: 1}, {1: 15})
    assert plays(board, 0, (3, 3)) == [
        ("24/18 8/5", ()),
        ("24/21 8/2", ()),
        ("24/21(2) 8/5", ()),
    ]


@pytest.mark.parametrize(
    ("board", "why"),
    [
        (jboard({1: 14}, {1: 15}, bars=(1, 0)), "a checker on the bar"),
        (jboard({1: 13, 5: 1, 9: 1}, {1: 15}), "fewer than 14 on the start point"),
        (jboard({1: 14, 21: 1}, {1: 15}), "the courier has arrived"),
    ],
)
def test_rule_5_other_checkers_may_leave_when(board: tuple[int, ...], why: str) -> None:
    assert any("24/" in notation for notation, _ in plays(board, 0, (4, 2))), why


def test_rule_5_a_checker_entering_on_the_start_point_holds_it_again() -> None:
    """13 on the start point, one on the bar, one out on pos 10: while the bar holds one,
    any checker may leave; entering with the 1 makes the start point 14 again, and the 6
    must then be played by the other checker (a referee's partial play after the entry)."""
    board = jboard({1: 13, 10: 1}, {1: 15}, bars=(1, 0))
    tree = PlayTree(board, 0, (6, 1), variant=JACQUET)
    assert Move(24, 18) in tree.next_steps(board)  # the bar lets go
    entered = jboard({1: 14, 10: 1}, {1: 15})
    assert set(tree.next_steps(entered)) == {Move(15, 9)}


# Rule 6: landing and hitting.


def test_rule_6_a_single_opposing_checker_is_hit_two_block() -> None:
    board = jboard({1: 13, 19: 1, 20: 1}, {1: 14, 5: 1})  # player 1's pos 7, 8 = points 6, 5
    assert plays(board, 1, (2, 1)) == [("20/17*", ()), ("20/18*/17*", ())]
    hit = legal_plays(board, 1, (2, 1), JACQUET)[0].result
    assert hit[25] >= 1  # player 0's checker went to the bar
    blocked = jboard({1: 13, 20: 2}, {1: 14, 5: 1})
    assert all(not notation.endswith("/17") for notation, _ in plays(blocked, 1, (2, 1)))


# Rule 7: re-entry.


def test_rule_7_reentry_on_pos_d_is_not_compulsory() -> None:
    board = jboard({19: 12, 20: 2}, {1: 15}, bars=(1, 0))
    notations = [notation for notation, _ in plays(board, 0, (2, 1))]
    assert "bar/23 6/5" in notations or any(n.startswith("bar/2") for n in notations)
    assert any("bar" not in notation for notation in notations)


def test_rule_7_no_bear_off_while_a_checker_is_on_the_bar() -> None:
    board = jboard({19: 13, 20: 1}, {1: 15}, bars=(1, 0))
    assert all("off" not in notation for notation, _ in plays(board, 0, (6, 3)))


# Rule 8: the two-point limit.


def test_rule_8_at_most_two_made_points_in_the_first_quadrant_start_included() -> None:
    board = jboard({1: 10, 3: 2, 4: 1, 20: 2}, {1: 15})  # made: pos 1 (start), pos 3
    notations = [notation for notation, _ in plays(board, 0, (3, 1))]
    assert "24/21 5/4" not in notations  # 24/21 first would make a third point
    assert "24/21 22/21" in notations  # 22/21 first breaks pos 3, then 24/21 is fine
    assert "24/20" in notations  # through pos 2, never through pos 4


# Rule 9: bearing off.


def test_rule_9_bearing_off_with_a_larger_die_while_checkers_stand_further_back() -> None:
    board = jboard({20: 1, 23: 1}, {1: 15})
    assert ("5/off 2/1", ()) in plays(board, 0, (6, 1))
    assert ("2/off", ()) in plays(board, 0, (6, 1))  # the 6 takes pos 23 off, pos 20 waits


def test_rule_9_no_move_past_pos_24_before_all_are_home() -> None:
    board = jboard({12: 1, 23: 14}, {1: 15})
    assert plays(board, 0, (6, 5)) == [("13/2", ())]  # the pos 23 checkers wait


def test_rule_9_a_home_checker_can_be_hit_and_goes_round_again() -> None:
    board = jboard({19: 1, 20: 14}, {1: 13, 6: 2})  # player 1's pos 7 is point 6 = pos 19
    hits = [p for p in legal_plays(board, 1, (1, 2), JACQUET) if p.result[25] == 1]
    assert hits
    after = hits[0].result
    # Back on the bar, the checker re-enters on pos d and must travel the whole track.
    reentered = {p.result for p in legal_plays(after, 0, (3, 1), JACQUET)}
    assert any(result[25] == 0 and result[22] == 1 for result in reentered)


# Rule 10: no die is lost.


def test_rule_10_one_playable_die_the_higher_and_the_other_handed_over() -> None:
    board = jboard({1: 14, 2: 1}, {1: 15})
    assert plays(board, 0, (6, 5)) == [("23/17", (5,))]
    turn = JacquetTurn(board=board, player=0, thrower=0).throw((6, 5))
    turn = turn.play(turn.plays()[0])
    assert (turn.player, turn.numbers, turn.thrower, turn.is_handed_over) == (1, (5,), 0, True)
    turn = turn.play(turn.plays()[0])  # player 1 plays the 5 with their own checkers
    assert (turn.player, turn.numbers) == (1, ())  # ...then throws their own dice


def test_rule_10_a_blocked_doublet_hands_its_remaining_moves_over() -> None:
    board = JACQUET.start
    assert plays(board, 0, (6, 6)) == [("24/18", (6, 6, 6, 6, 6))]
    assert plays(board, 0, (6, 6), JACQUET_LUDII) == [("24/18", (6, 6, 6, 6, 6))]
    turn = JacquetTurn(board=board, player=0, thrower=0).throw((6, 6))
    assert turn.play(turn.plays()[0]).numbers == (6, 6, 6, 6, 6)
    ludii = JacquetTurn(board=board, variant=JACQUET_LUDII).throw((6, 6))
    assert ludii.play(ludii.plays()[0]).numbers == ()  # Ludii: the rest is lost


def test_rule_10_neither_die_playable_both_go_to_the_opponent() -> None:
    # The courier on pos 6 (point 19); player 1 holds pos 11 and 12 (points 14 and 13).
    board = jboard({1: 14, 6: 1}, {1: 11, 24: 2, 23: 2})
    turn = JacquetTurn(board=board).throw((6, 5))
    (play,) = turn.plays()
    assert play.moves == () and play.unused == (6, 5)
    assert turn.play(play).numbers == (6, 5) and turn.play(play).player == 1


# Rule 11: handing back.


def test_rule_11_numbers_that_break_a_point_may_be_declined() -> None:
    # Every 6 of player 1 leaves one of their points with a single checker; player 0's
    # courier (pos 3, point 22) cannot play a 6 either: point 16 is player 1's pos 21.
    player1 = {1: 2, 5: 2, 8: 2, 9: 2, 10: 2, 11: 2, 21: 2, 20: 1}
    board = jboard({1: 14, 3: 1}, player1)
    turn = JacquetTurn(board=board, player=1, numbers=(6,), thrower=0)
    assert turn.is_handed_over and turn.may_decline()
    back = turn.decline()
    assert (back.player, back.numbers, back.handed_back) == (0, (6,), True)
    # The hand is back with player 0, who cannot play the 6 either: it is void.
    (void,) = back.plays()
    after = back.play(void)
    assert (after.player, after.numbers, after.board) == (1, (), board)


def test_rule_11_no_choice_when_a_play_keeps_every_point() -> None:
    player1 = {1: 2, 5: 2, 8: 2, 9: 2, 10: 2, 11: 3, 21: 2}  # pos 11 has a spare
    turn = JacquetTurn(board=jboard({1: 14, 3: 1}, player1), player=1, numbers=(6,), thrower=0)
    assert not turn.may_decline()
    with pytest.raises(IllegalActionError, match="a play that keeps every point exists"):
        turn.decline()


def test_rule_11_own_numbers_cannot_be_declined() -> None:
    turn = JacquetTurn(board=JACQUET.start).throw((6, 5))
    assert not turn.may_decline()


# Rule 12: the end.


def test_rule_12_a_game_ends_mid_turn_and_nothing_is_handed_over() -> None:
    board = jboard({24: 1}, {1: 14, 3: 1})
    assert plays(board, 0, (4, 4)) == [("1/off", ())]
    turn = JacquetTurn(board=board, thrower=0).throw((4, 4))
    over = turn.play(turn.plays()[0])
    assert over.result == JacquetResult(winner=0, points=2)
    with pytest.raises(IllegalActionError, match="the game is over"):
        over.throw((3, 1))


def test_rule_12_double_win_only_if_the_loser_bore_off_nothing() -> None:
    single = list(jboard({}, {19: 14}))  # player 1 has borne off one
    assert jacquet_result(tuple(single)) == JacquetResult(winner=0, points=1)
    double = jboard({}, {1: 15})
    result = jacquet_result(double)
    assert result is not None and result.is_double and result.points == 2
    assert jacquet_result(JACQUET.start) is None


# The Ludii ruleset.


def test_ludii_has_no_primaute_player_0_throws_first() -> None:
    turn = JacquetTurn.start(JACQUET_LUDII)
    assert not turn.primaute
    assert turn.throw((6, 5)).player == 0


def test_ludii_the_order_may_leave_a_die_unplayable_and_it_is_lost() -> None:
    board = jboard({1: 14, 2: 1}, {1: 15})
    assert plays(board, 0, (6, 5), JACQUET_LUDII) == [("23/17", (5,)), ("23/18", (6,))]
    turn = JacquetTurn(board=board, variant=JACQUET_LUDII).throw((6, 5))
    after = turn.play(next(p for p in turn.plays() if p.unused == (6,)))
    assert (after.player, after.numbers) == (1, ())  # nothing handed over


# With 4-1, the 1 blocked and the 4 playable, Ludii plays the 4 and then the 1 if it can:
# a number blocked at the moment is lost only when no remaining number can move.
LUDII_4_1_SAME_CHECKER_GOES_ON = jboard({1: 14, 2: 1}, {1: 13, 15: 2})
"""The courier on pos 2; player 1 holds pos 3 (their pos 15); pos 6 and 7 are open."""
LUDII_4_1_COURIER_ARRIVES = jboard({1: 14, 15: 1}, {1: 11, 4: 2, 8: 2})
"""The courier on pos 15; pos 16 and 20 held: after 15/19 only the start point can play 1."""
LUDII_4_1_STAYS_BLOCKED = jboard({1: 14, 2: 1}, {1: 11, 15: 2, 19: 2})
"""As the first, with pos 7 held too: the 1 stays blocked after the 4."""


def test_ludii_a_blocked_die_is_not_used_up_while_the_other_can_move() -> None:
    assert plays(LUDII_4_1_SAME_CHECKER_GOES_ON, 0, (4, 1), JACQUET_LUDII) == [("23/18", ())]


def test_ludii_the_1_becomes_playable_after_the_4_by_another_checker() -> None:
    # 10/6 brings the courier to the last quadrant, which lets a checker leave the start.
    assert plays(LUDII_4_1_COURIER_ARRIVES, 0, (4, 1), JACQUET_LUDII) == [("24/23 10/6", ())]


def test_ludii_the_1_still_blocked_after_the_4_is_lost() -> None:
    assert plays(LUDII_4_1_STAYS_BLOCKED, 0, (4, 1), JACQUET_LUDII) == [("23/19", (1,))]
    turn = JacquetTurn(board=LUDII_4_1_STAYS_BLOCKED, variant=JACQUET_LUDII).throw((4, 1))
    after = turn.play(turn.plays()[0])
    assert (after.player, after.numbers) == (1, ())  # lost, not handed over


# Properties over random games.


RANDOM_GAMES = int(os.environ.get("TABULA_JACQUET_GAMES", "160"))
"""Random games per ruleset: 160 in the suite (a few seconds each chunk); set
``TABULA_JACQUET_GAMES=1000`` for the full property run (about ten times longer)."""
CHUNK = 40


@pytest.mark.parametrize("variant", [JACQUET, JACQUET_LUDII], ids=lambda v: v.name)
@pytest.mark.parametrize("chunk", range(-(-RANDOM_GAMES // CHUNK)))
def test_random_games_end_with_a_winner_scoring_1_or_2(variant, chunk: int) -> None:
    """``CHUNK`` games a chunk, ``RANDOM_GAMES`` per ruleset; 15 checkers a side all along."""
    for seed in range(chunk * CHUNK, min((chunk + 1) * CHUNK, RANDOM_GAMES)):
        final = None
        for event in play_jacquet_game(random.Random(seed), variant):
            if isinstance(event, JacquetPlayed):
                board = event.play.result
                assert sum(n for n in board if n > 0) <= 15
                assert -sum(n for n in board if n < 0) <= 15
            else:
                final = event
        assert isinstance(final, JacquetTurn) and final.result is not None, seed
        assert final.result.points in (1, 2)


def test_rulesets_agree_where_the_obligations_do_not_bite() -> None:
    """Where Ludii's every play uses every number, the default's plays are the same."""
    compared = 0
    for seed in range(60):
        for event in play_jacquet_game(random.Random(seed), JACQUET):
            if not isinstance(event, JacquetPlayed) or event.turn.is_handed_over:
                continue
            turn = event.turn
            ludii = legal_plays_of(turn, JACQUET_LUDII)
            if all(not play.unused for play in ludii):
                compared += 1
                assert {p.result for p in ludii} == {p.result for p in turn.plays()}, (
                    turn.board,
                    turn.player,
                    turn.numbers,
                )
            else:
                default = {p.result for p in turn.plays()}
                assert default <= {p.result for p in ludii} | {turn.board}
    assert compared > 1_000


def legal_plays_of(turn: JacquetTurn, variant) -> tuple:
    from controller.rules.plays import plays_of_numbers

    return plays_of_numbers(turn.board, turn.player, turn.numbers, variant)
