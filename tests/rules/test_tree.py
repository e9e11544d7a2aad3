"""The tree of partial plays: what a referee asks while a play is being made."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.rules import plays as plays_module
from controller.rules import search as search_module
from controller.rules.board import START, Board
from controller.rules.errors import InvalidDiceError
from controller.rules.jacquet import JacquetTurn
from controller.rules.plays import Move, legal_plays, legal_results
from controller.rules.tree import PlayTree
from controller.rules.variants import BACKGAMMON, JACQUET, JACQUET_LUDII, Variant
from controller.simulated.players import JacquetPlayed, play_jacquet_game
from tests.rules.positions import (
    bar_case,
    bearoff_case,
    contact_bearoff_case,
    golden_cases,
    playout_cases,
)
from tests.rules.reference_general import Partials, reference_partials
from tests.rules.test_general_path import MIXED, random_jacquet_board, random_numbers
from tests.rules.test_jacquet import (
    LUDII_4_1_SAME_CHECKER_GOES_ON,
    LUDII_4_1_STAYS_BLOCKED,
    jboard,
)
from tests.rules.test_plays import board_of


def test_destinations_of_a_lifted_checker_at_the_start() -> None:
    tree = PlayTree(START, 0, (6, 5))
    assert tree.destinations(START, 24) == {18, 13}
    assert tree.destinations(START, 13) == {8, 7, 2}
    assert tree.destinations(START, 8) == {3, 2}
    assert tree.destinations(START, 6) == set()  # 6/1 is blocked, and nobody bears off yet


def test_after_part_of_the_roll_only_the_rest_is_left() -> None:
    tree = PlayTree(START, 0, (6, 5))
    after_13_8 = board_of({24: 2, 13: 4, 8: 4, 6: 5}, {1: 2, 12: 5, 17: 3, 19: 5})
    assert tree.is_partial(after_13_8)
    assert tree.dice_left(after_13_8) == {(6,)}
    assert tree.destinations(after_13_8, 13) == {7}
    assert tree.destinations(after_13_8, 8) == {2}
    assert tree.play_for(after_13_8) is None


def test_a_step_that_leaves_the_higher_die_unplayed_is_not_partial() -> None:
    board = board_of({13: 1, 1: 14}, {6: 2, 24: 13})
    tree = PlayTree(board, 0, (6, 1))
    after_13_12 = board_of({12: 1, 1: 14}, {6: 2, 24: 13})
    assert not tree.is_partial(after_13_12)
    assert tree.destinations(board, 13) == {7}
    assert [play.notation for play in tree.plays] == ["13/7"]


def test_bearing_off_the_last_checker_with_the_higher_die_ends_the_play_too() -> None:
    # 4-1 with one checker left on 4: 4/off leaves no checker for the 1, on the board that
    # 4/3/off reaches with both dice; both ways are on the way to that legal play.
    board = board_of({4: 1}, {20: 15})
    tree = PlayTree(board, 0, (4, 1))
    done = board_of({}, {20: 15})
    assert tree.dice_left(done) == {(1,), ()}
    assert tree.destinations(board, 4) == {3, 0}
    assert [play.notation for play in tree.plays] == ["4/off"]


def test_positions_are_the_partial_boards() -> None:
    tree = PlayTree(START, 1, (6, 5))
    assert START in tree.positions
    assert {play.result for play in tree.plays} <= tree.positions
    assert all(tree.is_partial(board) for board in tree.positions)
    walked = {START}
    frontier = [START]
    while frontier:
        for child in tree.next_steps(frontier.pop()).values():
            if child not in walked:
                walked.add(child)
                frontier.append(child)
    assert tree.positions == walked


@pytest.mark.parametrize("variant", [BACKGAMMON, JACQUET, JACQUET_LUDII], ids=lambda v: v.name)
def test_dice_left_by_position_is_dice_left_of_each_position(variant: Variant) -> None:
    """What a referee indexes at once is what it would ask position by position, for both
    players (each a view of their own) and a doublet."""
    for player in (0, 1):
        for dice in ((6, 5), (2, 2)):
            tree = PlayTree(variant.start, player, dice, variant=variant)
            by_position = tree.dice_left_by_position
            assert set(by_position) == tree.positions
            assert by_position == {board: tree.dice_left(board) for board in tree.positions}


def test_player_1_destinations_use_their_own_numbering() -> None:
    tree = PlayTree(START, 1, (6, 5))
    assert tree.destinations(START, 24) == {18, 13}


def walk(tree: PlayTree, board: Board, rng: random.Random) -> Board:
    """A random walk through ``tree`` from ``board``, checking each step; where it stops."""
    current = board
    while True:
        assert tree.is_partial(current)
        steps = tree.next_steps(current)
        for move in steps:
            assert move.destination in tree.destinations(current, move.source)
        if not steps or (tree.play_for(current) is not None and rng.random() < 0.3):
            return current
        current = steps[rng.choice(sorted(steps))]


cases = st.builds(
    lambda seed, kind: kind(random.Random(seed)),
    st.integers(0, 2**32),
    st.sampled_from(
        [bearoff_case, contact_bearoff_case, bar_case, lambda rng: next(playout_cases(rng, 1))]
    ),
)


@settings(max_examples=200, deadline=None)
@given(cases, st.randoms(use_true_random=False))
def test_any_walk_through_the_tree_ends_in_a_legal_play(case: tuple, rng: random.Random) -> None:
    board, player, dice = case
    tree = PlayTree(board, player, dice)
    results = legal_results(board, player, dice)
    assert {play.result for play in tree.plays} == results
    current = walk(tree, board, rng)
    assert current in results, f"walk stuck at {current} from {board} player {player} dice {dice}"


# Variants: Jacquet de Versailles (boards by each player's pos, as in test_jacquet).


def test_backgammon_is_the_default_variant() -> None:
    plain, described = PlayTree(START, 0, (6, 5)), PlayTree(START, 0, (6, 5), variant=BACKGAMMON)
    assert plain.positions == described.positions and plain.plays == described.plays


def test_jacquet_the_courier_must_arrive_before_another_checker_leaves() -> None:
    """Courier on pos 17 (view 8): a 3 takes it home to pos 20; only then may pos 1 move."""
    board = jboard({1: 14, 17: 1}, {1: 15})
    tree = PlayTree(board, 0, (3, 3), variant=JACQUET)
    assert set(tree.next_steps(board)) == {Move(8, 5)}  # 24/21 first would break rule 5
    assert tree.destinations(board, 24) == set()
    assert tree.destinations(board, 8) == {5, 2}
    home = tree.next_steps(board)[Move(8, 5)]
    assert tree.dice_left(home) == {(3, 3)}
    assert set(tree.next_steps(home)) == {Move(24, 21), Move(5, 2)}


def test_jacquet_the_two_point_limit_holds_after_each_step() -> None:
    board = jboard({1: 10, 3: 2, 4: 1, 20: 2}, {1: 15})  # made: pos 1 (start), pos 3
    tree = PlayTree(board, 0, (3, 1), variant=JACQUET)
    assert Move(24, 21) not in tree.next_steps(board)  # pos 1 -> pos 4 makes a third point
    after = tree.next_steps(board)[Move(22, 21)]  # pos 3 -> pos 4 breaks pos 3 first
    assert Move(24, 21) in tree.next_steps(after)


def test_jacquet_handed_over_numbers_have_their_own_tree() -> None:
    board = jboard({1: 14, 2: 1}, {1: 15})
    tree = PlayTree(board, 0, (6, 5), variant=JACQUET)
    assert [(play.notation, play.unused) for play in tree.plays] == [("23/17", (5,))]
    assert tree.destinations(board, 23) == {17}  # the 5 alone is not the higher die
    handed = PlayTree.of_numbers(board, 1, (5,), JACQUET)
    assert handed.dice is None and handed.numbers == (5,)
    assert {play.notation for play in handed.plays} == {"24/19"}


def test_ludii_a_number_with_no_move_is_lost_and_the_other_order_is_legal() -> None:
    board = jboard({1: 14, 2: 1}, {1: 15})
    tree = PlayTree(board, 0, (6, 5), variant=JACQUET_LUDII)
    assert tree.destinations(board, 23) == {17, 18}
    after_5 = tree.next_steps(board)[Move(23, 18)]
    assert tree.play_for(after_5) is not None  # the 6 cannot follow: it is lost
    assert tree.dice_left(after_5) == {(6,)}
    assert tree.next_steps(after_5) == {}


def test_ludii_the_4_alone_is_only_partial_when_the_1_can_follow() -> None:
    board = LUDII_4_1_SAME_CHECKER_GOES_ON
    tree = PlayTree(board, 0, (4, 1), variant=JACQUET_LUDII)
    assert [(play.notation, play.unused) for play in tree.plays] == [("23/18", ())]
    assert tree.destinations(board, 23) == {19, 18}  # 19 on the way, 18 the end
    after_4 = tree.next_steps(board)[Move(23, 19)]
    assert tree.play_for(after_4) is None
    assert tree.dice_left(after_4) == {(1,)}
    assert set(tree.next_steps(after_4)) == {Move(19, 18)}


def test_ludii_a_1_still_blocked_after_the_4_ends_the_play() -> None:
    board = LUDII_4_1_STAYS_BLOCKED
    tree = PlayTree(board, 0, (4, 1), variant=JACQUET_LUDII)
    after_4 = tree.next_steps(board)[Move(23, 19)]
    play = tree.play_for(after_4)
    assert play is not None and play.unused == (1,)
    assert tree.next_steps(after_4) == {}


def test_numbers_must_be_1_to_6() -> None:
    with pytest.raises(InvalidDiceError, match=r"numbers must be from 1 to 6, got \[7\]"):
        PlayTree.of_numbers(START, 0, (7,), JACQUET)


def test_a_turn_plays_six_numbers_at_most() -> None:
    """Seven numbers are refused, not given a tree whose nodes the code may no longer tell
    apart (each count's difference must stay under half its field's base)."""
    PlayTree.of_numbers(START, 0, (6,) * 6, JACQUET)  # Jacquet's 6-6
    with pytest.raises(InvalidDiceError, match=r"six numbers at most, got \[6, 6, 6, 6, 6, 6, 1\]"):
        PlayTree.of_numbers(START, 0, (6,) * 6 + (1,), JACQUET)


def _jacquet_turns(seed: int, variant: Variant) -> list[JacquetTurn]:
    game = play_jacquet_game(random.Random(seed), variant)
    return [item.turn for item in game if isinstance(item, JacquetPlayed)]


@pytest.mark.parametrize("variant", [JACQUET, JACQUET_LUDII], ids=lambda v: v.name)
@pytest.mark.parametrize("seed", range(3))
def test_any_walk_through_a_jacquet_tree_ends_in_a_legal_play(variant: Variant, seed: int) -> None:
    rng = random.Random(seed)
    for turn in _jacquet_turns(seed, variant)[::3]:
        tree = PlayTree.of_numbers(turn.board, turn.player, turn.numbers, variant)
        assert {play.result for play in tree.plays} == {play.result for play in turn.plays()}
        current = walk(tree, turn.board, rng)
        assert tree.play_for(current) is not None, f"stuck at {current} from {turn}"


def test_plays_made_on_demand_are_those_of_legal_plays() -> None:
    """A backgammon tree makes a play only when asked (a 2-2 can have 900): each one asked
    of a fresh tree is legal_plays' own, and so is the longest play's length."""
    no_move = 0
    for case in golden_cases()[::10]:
        board, player, dice = tuple(case["board"]), case["player"], tuple(case["dice"])
        expected = legal_plays(board, player, dice)
        fresh = PlayTree(board, player, dice)
        assert fresh.most_moves == max(len(play.moves) for play in expected)
        assert [PlayTree(board, player, dice).play_for(p.result) for p in expected] == list(
            expected
        )
        stuck = expected[0].moves == ()
        assert fresh.play_for(board) == (expected[0] if stuck else None)  # none left as it was
        no_move += stuck
    assert no_move  # the cases include a roll that cannot move


def test_the_tree_s_plays_are_the_legal_plays_without_a_second_search(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 18: a referee asking the tree for its plays (a forced play? the illegal play's
    diagnosis) gets the plays of the results the tree found, not a new search."""
    cases = golden_cases()[::10]
    expected = [legal_plays(tuple(c["board"]), c["player"], tuple(c["dice"])) for c in cases]
    searched: list[tuple[int, int]] = []

    def counted(board: Board, player: int, dice: tuple[int, int]) -> object:
        searched.append(dice)
        return search_module.search(board, player, dice)

    monkeypatch.setattr(plays_module, "search", counted)  # legal_plays and legal_results
    for case, plays in zip(cases, expected, strict=True):
        tree = PlayTree(tuple(case["board"]), case["player"], tuple(case["dice"]))
        assert tree.plays == plays, case["id"]
    assert searched == []


def test_a_jacquet_turn_and_its_tree_search_the_numbers_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The turn's plays (asked on every observation) and the referee's tree of the same
    numbers share one search."""
    turns = _jacquet_turns(7, JACQUET)[5:15]
    searched: list[tuple[int, ...]] = []
    search_plays = plays_module._search_plays

    def counted(board: Board, player: int, numbers: tuple[int, ...], variant: Variant) -> object:
        searched.append(numbers)
        return search_plays(board, player, numbers, variant)

    monkeypatch.setattr(plays_module, "_search_plays", counted)
    for turn in turns:
        for _ in range(3):
            turn.plays()
            PlayTree.of_numbers(turn.board, turn.player, turn.numbers, JACQUET)
    assert searched == [turn.numbers for turn in turns]


def _partials(tree: PlayTree) -> Partials:
    return {
        position: (tree.dice_left(position), tree.next_steps(position))
        for position in tree.positions
    }


@pytest.mark.parametrize("variant", MIXED, ids=lambda v: v.name)
def test_variant_trees_hold_what_every_order_of_every_move_reaches(variant: Variant) -> None:
    """The variants' tree (its positions, numbers left and next steps) against a brute force
    over the reference's single steps, on random boards with doublets of 1 to 6 moves."""
    rng = random.Random(f"tree {variant.name}")
    for _ in range(150):
        board, player = random_jacquet_board(rng), rng.randint(0, 1)
        numbers = random_numbers(rng, variant)
        if rng.random() < 0.5:
            numbers = (rng.randint(1, 6),) * rng.randint(1, 6)
        tree = PlayTree.of_numbers(board, player, numbers, variant)
        assert _partials(tree) == reference_partials(board, player, numbers, variant), (
            board,
            player,
            numbers,
        )


@pytest.mark.parametrize("variant", [JACQUET, JACQUET_LUDII], ids=lambda v: v.name)
def test_jacquet_game_trees_hold_what_every_order_of_every_move_reaches(variant: Variant) -> None:
    for turn in _jacquet_turns(11, variant) + _jacquet_turns(12, variant):
        tree = PlayTree.of_numbers(turn.board, turn.player, turn.numbers, variant)
        assert _partials(tree) == reference_partials(
            turn.board, turn.player, turn.numbers, variant
        ), turn
