"""The tree of partial plays: what a referee asks while a play is being made."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from controller.rules.board import START
from controller.rules.plays import legal_results
from controller.rules.tree import PlayTree
from tests.rules.positions import bar_case, bearoff_case, contact_bearoff_case, playout_cases
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


def test_player_1_destinations_use_their_own_numbering() -> None:
    tree = PlayTree(START, 1, (6, 5))
    assert tree.destinations(START, 24) == {18, 13}


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
    current = board
    while True:
        assert tree.is_partial(current)
        steps = tree.next_steps(current)
        for move in steps:
            assert move.destination in tree.destinations(current, move.source)
        if not steps or (tree.play_for(current) is not None and rng.random() < 0.3):
            break
        current = steps[rng.choice(sorted(steps))]
    assert current in results, f"walk stuck at {current} from {board} player {player} dice {dice}"
