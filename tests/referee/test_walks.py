"""Properties: legal plays made by hand are never flagged; illegal boards are never complete."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from controller.referee import Judge, Kind, cells_from_board, location_of
from controller.rules import Board, PlayTree, legal_results
from tests.referee._support import ends_complete, lift, lift_for, put, random_steps
from tests.rules.positions import bar_case, bearoff_case, contact_bearoff_case, playout_cases

cases = st.builds(
    lambda seed, kind: kind(random.Random(seed)),
    st.integers(0, 2**32),
    st.sampled_from(
        [bearoff_case, contact_bearoff_case, bar_case, lambda rng: next(playout_cases(rng, 1))]
    ),
)

FLAGGED = (Kind.ILLEGAL, Kind.INCONSISTENT)


def opponent_bar(board: Board, player: int) -> int:
    return -board[0] if player == 0 else board[25]


@settings(max_examples=400, deadline=None)
@given(cases, st.randoms(use_true_random=False))
def test_a_legal_play_made_step_by_step_is_never_flagged(
    case: tuple[Board, int, tuple[int, int]], rng: random.Random
) -> None:
    board, player, dice = case
    tree = PlayTree(board, player, dice)
    referee = Judge(board, player, dice)
    context = f"from {board} player {player} dice {dice}"
    current = board
    for before, move, after in random_steps(tree, board, rng):
        assert before == current
        steps = tree.next_steps(current)
        target = location_of(player, move.destination)
        in_hand = lift_for(referee, current, move, location_of, context)
        if len(steps) > 1 and rng.random() < 0.3:
            other = rng.choice([step for step in sorted(steps) if step != move])
            other_source = location_of(player, other.source)
            if in_hand[other_source] is not None and in_hand[other_source][player] > 0:
                two = referee.verdict(lift(in_hand, other_source, player))
                assert two.kind is Kind.IN_HAND, f"{two} lifting {move} and {other} {context}"
        if opponent_bar(after, player) > opponent_bar(current, player):
            # The hit moment: the hitter is down, the blot not yet on the bar.
            moment = put(in_hand, target, player)
            verdict = referee.verdict(moment)
            assert verdict.kind is Kind.PARTIAL, f"{verdict} hitting with {move} {context}"
            assert verdict.pending_hits == {target}
            verdict = referee.verdict(lift(moment, target, 1 - player))
            assert verdict.kind is Kind.IN_HAND, f"{verdict} lifting the blot {context}"
        verdict = referee.verdict(cells_from_board(after))
        assert verdict.kind in (Kind.PARTIAL, Kind.COMPLETE), f"{verdict} after {move} {context}"
        current = after
    ends_complete(referee, tree, current, context)


@settings(max_examples=400, deadline=None)
@given(cases, st.randoms(use_true_random=False))
def test_a_board_no_legal_play_reaches_is_never_complete(
    case: tuple[Board, int, tuple[int, int]], rng: random.Random
) -> None:
    board, player, dice = case
    results = legal_results(board, player, dice)
    changed = list(rng.choice(sorted(results)))
    sign = 1 if player == 0 else -1
    mine = [index for index in range(26) if changed[index] * sign > 0]
    free = [index for index in range(1, 25) if changed[index] * sign >= 0]
    if not mine:  # every checker borne off: the game is over
        return
    source, target = rng.choice(mine), rng.choice(free)
    if source == target:
        return
    changed[source] -= sign
    changed[target] += sign
    after = tuple(changed)
    if after in results:
        return
    referee = Judge(board, player, dice)
    verdict = referee.verdict(cells_from_board(after))
    context = f"{after} from {board} player {player} dice {dice}"
    assert verdict.kind not in (Kind.COMPLETE, Kind.INCONSISTENT), f"{verdict} for {context}"
    final = referee.final_verdict(cells_from_board(after))
    assert final.kind is Kind.ILLEGAL, f"{final} for {context}"
    assert final.fault is not None and final.text.startswith(final.fault.value)
    assert final.locations, f"no differing location in {final} for {context}"
