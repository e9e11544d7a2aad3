"""The verdict on one observation: every kind, hits, carried checkers, checkers in hand."""

from __future__ import annotations

import random

import pytest

from controller.referee import (
    BARS,
    TRAYS,
    InvalidObservationError,
    Judge,
    Kind,
    Lifted,
    cells_from_board,
    explaining_dice,
    judge,
    location_of,
    point_of,
)
from controller.rules import BACKGAMMON, JACQUET, JACQUET_LUDII, START, Variant, legal_plays
from controller.simulated.players import JacquetPlayed, play_jacquet_game
from tests.referee._support import board_of, cells, lift, put
from tests.rules.positions import golden_cases

# Player 0's point p is location p - 1.
P0 = {point: point - 1 for point in range(1, 25)}

# A player 1 blot on player 0's 18 point (from one of player 1's back checkers).
BLOT_18 = board_of(
    {24: 2, 13: 5, 8: 3, 6: 5},
    {1: 1, 18: 1, 12: 5, 17: 3, 19: 5},
)


def test_locations_follow_each_players_numbering() -> None:
    assert [location_of(0, point) for point in (1, 24, 25, 0)] == [0, 23, 24, 26]
    assert [location_of(1, point) for point in (1, 24, 25, 0)] == [23, 0, 25, 27]
    assert all(
        point_of(player, location_of(player, p)) == p for player in (0, 1) for p in range(26)
    )
    assert point_of(0, BARS[1]) is None and point_of(1, TRAYS[0]) is None


def test_waiting_before_any_checker_moves() -> None:
    verdict = judge(START, 0, (6, 5), cells(START))
    assert verdict.kind is Kind.WAITING
    assert verdict.dice_left == (6, 5)
    assert verdict.text == "6-5 to play"
    assert verdict.board == START


def test_partial_after_one_die() -> None:
    after_13_8 = board_of({24: 2, 13: 4, 8: 4, 6: 5}, {1: 2, 12: 5, 17: 3, 19: 5})
    verdict = judge(START, 0, (6, 5), cells(after_13_8))
    assert verdict.kind is Kind.PARTIAL
    assert verdict.dice_left == (6,)
    assert verdict.text == "6 to play"


def test_complete_gives_the_canonical_play() -> None:
    after = board_of({24: 1, 13: 6, 8: 3, 6: 5}, {1: 2, 12: 5, 17: 3, 19: 5})
    verdict = judge(START, 0, (6, 5), cells(after))
    assert verdict.kind is Kind.COMPLETE
    assert verdict.play is not None and verdict.play.notation == "24/13"
    assert verdict.text == "complete: 24/13"


def test_complete_for_player_1_in_their_numbering() -> None:
    (play,) = [p for p in legal_plays(START, 1, (6, 5)) if p.notation == "24/13"]
    verdict = judge(START, 1, (6, 5), cells(play.result))
    assert verdict.kind is Kind.COMPLETE and verdict.play == play


def test_no_legal_move_is_complete_at_once() -> None:
    # Player 0 on the bar against a closed board.
    board = board_of({25: 1, 6: 14}, {19: 2, 20: 2, 21: 2, 22: 2, 23: 2, 24: 2, 1: 3})
    verdict = judge(board, 0, (6, 5), cells(board))
    assert verdict.kind is Kind.COMPLETE
    assert verdict.play is not None and verdict.play.moves == ()
    assert verdict.text == "no legal move"


def test_a_lifted_checker_shows_its_destinations() -> None:
    verdict = judge(START, 0, (6, 5), lift(cells(START), P0[24], 0))
    assert verdict.kind is Kind.IN_HAND
    assert verdict.lifted == (Lifted(0, P0[24], frozenset({P0[18], P0[13]})),)
    assert verdict.text == "checker in hand"


def test_a_checker_carried_over_two_points_is_one_play() -> None:
    referee = Judge(START, 0, (6, 5))
    in_hand = lift(cells(START), P0[24], 0)
    assert referee.verdict(in_hand).kind is Kind.IN_HAND
    verdict = referee.verdict(put(in_hand, P0[13], 0))
    assert verdict.kind is Kind.COMPLETE
    assert verdict.play is not None and verdict.play.notation == "24/13"


def test_a_checker_lifted_again_after_landing_can_go_on() -> None:
    # 13/8 is put down, then the same checker is lifted again: the 8 point's checker may
    # go on to 2 (13/2), or be a checker from 13 that goes anywhere 13 may.
    referee = Judge(START, 0, (6, 5))
    after_13_8 = put(lift(cells(START), P0[13], 0), P0[8], 0)
    verdict = referee.verdict(lift(after_13_8, P0[8], 0))
    assert verdict.kind is Kind.IN_HAND
    (checker,) = verdict.lifted
    assert {P0[7], P0[2], P0[8]} <= checker.destinations | {checker.source}


def test_two_checkers_in_hand_each_get_destinations() -> None:
    two_lifted = lift(lift(cells(START), P0[24], 0), P0[13], 0)
    verdict = judge(START, 0, (6, 5), two_lifted)
    assert verdict.kind is Kind.IN_HAND
    assert verdict.text == "2 checkers in hand"
    by_source = {checker.source: checker.destinations for checker in verdict.lifted}
    assert by_source == {P0[24]: {P0[18], P0[13]}, P0[13]: {P0[8], P0[7], P0[2]}}


def test_the_moment_of_a_hit_is_not_an_error() -> None:
    referee = Judge(BLOT_18, 0, (6, 5))
    start = cells(BLOT_18)
    in_hand = lift(start, P0[24], 0)
    assert P0[18] in referee.verdict(in_hand).lifted[0].destinations
    # The hitter is put down on the blot: both colours on the point for a moment.
    both = put(in_hand, P0[18], 0)
    verdict = referee.verdict(both)
    assert verdict.kind is Kind.PARTIAL
    assert verdict.pending_hits == {P0[18]}
    assert verdict.text == "hit: put the hit checker on the bar"
    assert not verdict.is_settled
    # The blot is lifted: the opponent's checker is in hand, on its way to the bar.
    blot_lifted = lift(both, P0[18], 1)
    verdict = referee.verdict(blot_lifted)
    assert verdict.kind is Kind.IN_HAND
    assert verdict.lifted == (Lifted(1, P0[18], frozenset({BARS[1]})),)
    # On the bar: the hit is done, a 5 is left.
    verdict = referee.verdict(put(blot_lifted, BARS[1], 1))
    assert verdict.kind is Kind.PARTIAL and verdict.dice_left == (5,)
    assert verdict.is_settled


def test_a_checker_carried_through_a_hit() -> None:
    referee = Judge(BLOT_18, 0, (6, 5))
    both = put(lift(cells(BLOT_18), P0[24], 0), P0[18], 0)
    # Lifted again from the hit point before the blot went to the bar: the board shows
    # the same as a checker lifted from 24, which may go to 13.
    verdict = referee.verdict(lift(both, P0[18], 0))
    assert verdict.kind is Kind.IN_HAND
    assert verdict.lifted == (Lifted(0, P0[24], frozenset({P0[18], P0[13]})),)
    # Put down on 13, the blot still standing: the hit is pending, not an error.
    on_13 = put(lift(both, P0[18], 0), P0[13], 0)
    verdict = referee.verdict(on_13)
    assert verdict.kind is Kind.PARTIAL and verdict.pending_hits == {P0[18]}
    final = put(lift(on_13, P0[18], 1), BARS[1], 1)
    verdict = referee.verdict(final)
    assert verdict.kind is Kind.COMPLETE
    assert verdict.play is not None and verdict.play.notation == "24/18*/13"


def test_a_hit_the_only_path_needs_is_pending_until_the_blot_is_on_the_bar() -> None:
    # 24/19 is blocked, so 24/13 goes through the blot on 18 and hits it.
    on_13 = put(lift(cells(BLOT_18), P0[24], 0), P0[13], 0)
    verdict = judge(BLOT_18, 0, (6, 5), on_13)
    assert verdict.kind is Kind.PARTIAL and verdict.pending_hits == {P0[18]}


def test_passing_over_a_blot_without_landing_does_not_hit() -> None:
    # 19 is open here: 24/19/13 passes the blot on 18 without hitting it.
    board = board_of({24: 2, 13: 5, 8: 3, 6: 5}, {1: 1, 18: 1, 12: 5, 17: 3, 20: 5})
    on_13 = put(lift(cells(board), P0[24], 0), P0[13], 0)
    verdict = judge(board, 0, (6, 5), on_13)
    assert verdict.kind is Kind.COMPLETE
    assert verdict.play is not None and verdict.play.notation == "24/13"


def test_a_checker_on_the_other_players_bar_half_counts_as_on_the_bar() -> None:
    board = board_of({25: 1, 24: 1, 13: 5, 8: 3, 6: 5}, {1: 2, 12: 5, 17: 3, 19: 5})
    observed = put(lift(cells(board), BARS[0], 0), BARS[1], 0)
    assert judge(board, 0, (6, 5), observed).kind is Kind.WAITING


@pytest.mark.parametrize(
    ("change", "text"),
    [
        (lambda c: (*c[:3], None, *c[4:]), "check the board: cannot read point 4"),
        (lambda c: put(c, P0[5], 0), "check the board: 16 checkers of player 0, at most 15"),
        (
            lambda c: put(lift(c, P0[12], 1), P0[6], 1),
            "check the board: both colours on point 6",
        ),
        (
            lambda c: lift(lift(c, P0[12], 1), P0[12], 1),
            "check the board: 13 checkers of player 1, expected 15",
        ),
    ],
    ids=["unknown", "sixteen", "mixed", "opponent-missing"],
)
def test_inconsistent_boards(change: object, text: str) -> None:
    observed = change(cells(START))  # type: ignore[operator]
    verdict = judge(START, 0, (6, 5), observed)
    assert verdict.kind is Kind.INCONSISTENT
    assert verdict.text == text


def test_inconsistent_names_the_locations() -> None:
    observed = put(lift(cells(START), P0[12], 1), P0[6], 1)
    assert judge(START, 0, (6, 5), observed).locations == {P0[6]}


def test_bad_cells_raise_with_the_input() -> None:
    with pytest.raises(InvalidObservationError, match=r"^27 cells: expected 28$"):
        judge(START, 0, (6, 5), cells(START)[:27])
    bad = (*cells(START)[:5], (1, -1), *cells(START)[6:])
    with pytest.raises(InvalidObservationError, match=r"cell \(1, -1\) of point 6"):
        judge(START, 0, (6, 5), bad)


def test_cells_from_board_puts_borne_off_checkers_in_the_trays() -> None:
    board = board_of({1: 2}, {24: 3})
    observed = cells_from_board(board)
    assert observed[TRAYS[0]] == (13, 0) and observed[TRAYS[1]] == (0, 12)
    assert observed[BARS[0]] == (0, 0) and observed[0] == (2, 0) and observed[23] == (0, 3)


def test_explaining_dice_finds_the_roll_the_checkers_moved() -> None:
    (play,) = [p for p in legal_plays(START, 0, (6, 2)) if p.notation == "24/18 13/11"]
    found = explaining_dice(START, 0, play.result)
    assert found == ((6, 2), (2, 2))  # 24/22/20/18 13/11 is a 2-2
    assert (5, 3) not in found


@pytest.mark.parametrize("variant", [BACKGAMMON, JACQUET, JACQUET_LUDII], ids=lambda v: v.name)
def test_a_position_is_read_as_its_cells_are(variant: Variant) -> None:
    """The Judge reads its tree's positions from their counts, not through their cells:
    the same views, for both players, hits, the bars and borne-off checkers included."""
    if variant is BACKGAMMON:
        rolls = [(case["board"], case["player"], case["dice"]) for case in golden_cases()[::40]]
    else:
        turns = [event.turn for seed in range(2) for event in play_jacquet_game(
            random.Random(seed), variant) if isinstance(event, JacquetPlayed)]  # fmt: skip
        throws = [(turn, (turn.numbers[0], turn.numbers[-1])) for turn in turns]
        rolls = [(turn.board, turn.player, dice) for turn, dice in throws
                 if variant.moves_of(dice) == turn.numbers]  # fmt: skip
    players, positions = set(), 0
    for board, player, dice in rolls:
        referee = Judge(board, player, dice, variant=variant)
        for position in referee.tree.positions:
            assert referee._position_view(position) == referee._view(cells_from_board(position))
            positions += 1
        players.add(player)
    assert players == {0, 1} and positions > 1000
