"""Illegal boards: each reason a player is told, diagnosed from the board, with its text."""

from __future__ import annotations

import random

from controller.referee import Fault, Judge, Kind, Verdict, View, cells_from_board
from controller.rules import START, Board, Player, legal_results
from tests.referee._support import OPPONENT_AT_START, board_of
from tests.rules.positions import golden_cases


def verdict_on(
    before: Board, dice: tuple[int, int], after: Board, player: Player = 0, *, final: bool = False
) -> Verdict:
    referee = Judge(before, player, dice)
    observed = cells_from_board(after)
    return referee.final_verdict(observed) if final else referee.verdict(observed)


def test_blocked_point() -> None:
    # 24/19 lands on the opponent's 19 point (five checkers): both colours on a held point.
    observed = list(cells_from_board(START))
    observed[23] = (1, 0)
    observed[18] = (1, 5)
    verdict = Judge(START, 0, (6, 5)).verdict(tuple(observed))
    assert verdict.kind is Kind.ILLEGAL
    assert verdict.fault is Fault.BLOCKED
    assert verdict.text == "blocked point: the opponent holds your 19 point"
    assert 18 in verdict.locations


def test_blocked_intermediate_point() -> None:
    # 6/1 with 3-2 must stop on 4 or 3, both held by the opponent.
    before = board_of({6: 1, 5: 14}, {4: 2, 3: 2, 24: 11})
    after = board_of({1: 1, 5: 14}, {4: 2, 3: 2, 24: 11})
    verdict = verdict_on(before, (3, 2), after)
    assert verdict.fault is Fault.BLOCKED
    assert verdict.text.startswith("blocked point: the opponent holds your ")


def test_must_enter_from_the_bar_first() -> None:
    before = board_of({25: 1, 24: 1, 13: 5, 8: 3, 6: 5}, OPPONENT_AT_START)
    after = board_of({25: 1, 24: 1, 13: 3, 8: 4, 7: 1, 6: 5}, OPPONENT_AT_START)
    verdict = verdict_on(before, (6, 5), after)
    assert verdict.fault is Fault.BAR_FIRST
    assert verdict.text == "must enter from the bar first: a checker moved from your 13 point"


def test_must_use_both_dice_when_the_turn_ends() -> None:
    after_13_8 = board_of({24: 2, 13: 4, 8: 4, 6: 5}, OPPONENT_AT_START)
    assert verdict_on(START, (6, 5), after_13_8).kind is Kind.PARTIAL
    verdict = verdict_on(START, (6, 5), after_13_8, final=True)
    assert verdict.fault is Fault.BOTH_DICE
    assert verdict.text == "must use both dice: both 6-5 can be played"
    assert verdict.nearest is not None


def test_must_play_all_four_numbers() -> None:
    after = board_of({24: 2, 13: 5, 8: 3, 6: 3, 4: 2}, OPPONENT_AT_START)
    verdict = verdict_on(START, (2, 2), after, final=True)
    assert verdict.fault is Fault.ALL_FOUR
    assert verdict.text == "must play all four numbers: all four 2s can be played"


def test_must_play_as_many_numbers_as_possible() -> None:
    # Only two 6s can be played (24/18(2)); after that every 6 is blocked.
    before = board_of({24: 2, 1: 13}, {17: 2, 16: 2, 12: 2, 10: 2, 11: 2, 6: 5})
    verdict = verdict_on(before, (6, 6), before, final=True)
    assert verdict.fault is Fault.AS_MANY
    assert verdict.text == "must play as many numbers as possible: 2 of the 6s can be played"


def test_must_play_the_higher_die() -> None:
    # Either die alone but not both: the 6 (13/7), not the 1 (13/12).
    before = board_of({13: 1, 1: 14}, {6: 2, 24: 13})
    after = board_of({12: 1, 1: 14}, {6: 2, 24: 13})
    verdict = verdict_on(before, (6, 1), after)
    assert verdict.fault is Fault.HIGHER_DIE
    assert verdict.text == "must play the higher die: the 6 can be played"


def test_cannot_bear_off_yet() -> None:
    before = board_of({7: 1, 6: 5, 5: 5, 4: 4}, {24: 15})
    after = board_of({7: 1, 6: 4, 5: 4, 4: 5}, {24: 15})
    verdict = verdict_on(before, (6, 1), after)
    assert verdict.fault is Fault.BEAR_OFF_EARLY
    assert verdict.text == "cannot bear off yet: not every checker is in your home board"


def test_must_move_the_higher_checker_first() -> None:
    before = board_of({6: 1, 3: 2, 1: 12}, {24: 15})
    after = board_of({6: 1, 1: 12}, {24: 15})
    verdict = verdict_on(before, (5, 4), after)
    assert verdict.fault is Fault.HIGHER_FIRST
    assert verdict.text.startswith("must move the higher checker first: a ")


def test_moved_the_opponents_checker() -> None:
    after = board_of({24: 2, 13: 5, 8: 3, 6: 5}, {1: 2, 12: 4, 10: 1, 17: 3, 19: 5})
    verdict = verdict_on(START, (6, 5), after)
    assert verdict.fault is Fault.OPPONENT
    assert verdict.text.startswith("moved the opponent's checker: it moved on ")
    assert {9, 11} <= verdict.locations


def test_opponent_sent_to_the_bar_without_a_hit() -> None:
    before = board_of({24: 2, 13: 5, 8: 3, 6: 5}, {1: 1, 15: 1, 12: 5, 17: 3, 19: 5})
    after = board_of({24: 1, 18: 1, 13: 5, 8: 3, 6: 5}, {0: 1, 1: 1, 12: 5, 17: 3, 19: 5})
    verdict = verdict_on(before, (6, 5), after)
    assert verdict.fault is Fault.OPPONENT
    assert (
        verdict.text == "moved the opponent's checker: a checker went to the bar without being hit"
    )


def test_moved_backwards() -> None:
    after = board_of({24: 2, 14: 1, 13: 6, 8: 1, 6: 5}, OPPONENT_AT_START)
    verdict = verdict_on(START, (6, 5), after)
    assert verdict.fault is Fault.BACKWARDS
    assert verdict.text == "moved backwards: a checker went back to your 14 point"


def test_the_move_does_not_match_the_dice() -> None:
    after = board_of({24: 1, 20: 1, 13: 4, 10: 1, 8: 3, 6: 5}, OPPONENT_AT_START)
    verdict = verdict_on(START, (6, 5), after)
    assert verdict.fault is Fault.WRONG_NUMBERS
    assert verdict.text == "the move does not match the dice: the checkers moved are not 6-5"


def test_player_1_reasons_use_their_numbering() -> None:
    # Player 1 plays 24/19 onto player 0's 6 point (player 1's 19 point).
    observed = list(cells_from_board(START))
    observed[0] = (0, 1)
    observed[5] = (5, 1)
    verdict = Judge(START, 1, (6, 5)).verdict(tuple(observed))
    assert verdict.text == "blocked point: the opponent holds your 19 point"
    assert 5 in verdict.locations


def test_illegal_with_a_checker_in_hand_names_the_fault() -> None:
    # 24/19 onto the blocked point, and a second checker lifted from 13.
    observed = list(cells_from_board(START))
    observed[23] = (1, 0)
    observed[18] = (1, 5)
    observed[12] = (4, 0)
    verdict = Judge(START, 0, (6, 5)).verdict(tuple(observed))
    assert verdict.kind is Kind.ILLEGAL and verdict.fault is Fault.BLOCKED
    assert verdict.board is None


def test_the_nearest_legal_position_and_the_differing_locations() -> None:
    # 24/18 13/9 with 6-5: one checker is a point short of 13/8, the nearest legal board.
    after = board_of({24: 1, 18: 1, 13: 4, 9: 1, 8: 3, 6: 5}, OPPONENT_AT_START)
    verdict = verdict_on(START, (6, 5), after)
    assert verdict.kind is Kind.ILLEGAL
    assert verdict.nearest is not None
    differing = {index - 1 for index in range(1, 25) if verdict.nearest[index] != after[index]}
    assert verdict.locations == differing
    assert differing == {7, 8}  # points 8 and 9


def test_an_illegal_board_is_reported_in_the_layout_for_either_player() -> None:
    """The board of an illegal verdict is the 26 integers seen, player 1's checkers negative."""
    for player, after in (
        (0, board_of({24: 1, 20: 1, 13: 5, 8: 3, 6: 5}, OPPONENT_AT_START)),
        (1, tuple(-n for n in reversed(board_of({24: 1, 20: 1, 13: 5, 8: 3, 6: 5},
                                               OPPONENT_AT_START)))),
    ):  # fmt: skip
        verdict = verdict_on(START, (6, 5), after, player, final=True)
        assert verdict.kind is Kind.ILLEGAL
        assert verdict.board == after


def _checkers_beyond(seen: View, position: View) -> int:
    """The checkers ``seen`` has beyond a position's counts, row by row."""
    pairs = zip(seen, position, strict=True)
    return sum(max(0, s - p) for row, counts in pairs for s, p in zip(row, counts, strict=True))


def test_the_nearest_position_has_the_fewest_checkers_seen_beyond_it() -> None:
    """Against a brute force of its definition: on golden rolls with each player's checkers
    moved at random (the opponent's too, so both rows count), the nearest position is the
    first of the fewest checkers beyond, the one reached with the most numbers on a tie."""
    rng = random.Random(18)
    illegal = 0
    for case in golden_cases()[::50]:
        board, player, dice = tuple(case["board"]), case["player"], tuple(case["dice"])
        referee = Judge(board, player, dice)
        result = rng.choice(sorted(legal_results(board, player, dice)))
        cells = [list(cell) for cell in cells_from_board(result)]
        for colour in {player, rng.randint(0, 1)}:
            held = [location for location, cell in enumerate(cells) if cell[colour] > 0]
            cells[rng.choice(held)][colour] -= 1
            cells[rng.randrange(24)][colour] += 1
        verdict = referee.verdict(tuple((red, green) for red, green in cells))
        if verdict.kind is not Kind.ILLEGAL:
            continue
        seen = referee._view(tuple((red, green) for red, green in cells))
        fewest = min(_checkers_beyond(seen, node.view) for node in referee._nodes)
        nearest = max(
            (node for node in referee._nodes if _checkers_beyond(seen, node.view) == fewest),
            key=lambda node: node.used,
        )
        assert verdict.nearest == nearest.board
        illegal += 1
    assert illegal > 30
