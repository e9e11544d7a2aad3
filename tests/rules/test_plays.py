"""Legal plays: the golden cases, the seed's own figures, hand-checked edge cases, properties."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import TypeVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.rules import search as search_module
from controller.rules.board import START, flip
from controller.rules.errors import InvalidDiceError, InvalidPositionError
from controller.rules.plays import Move, legal_plays, legal_results, play_reaching
from controller.rules.steps import apply_step
from tests.rules.positions import bar_case, bearoff_case, contact_bearoff_case, golden_cases
from tests.rules.reference_search import search_by_scan

_T = TypeVar("_T")


def board_of(player0: dict[int, int], player1: dict[int, int] | None = None) -> tuple[int, ...]:
    """A board from {point: count} per player, in the layout's numbering (player 0's side)."""
    board = [0] * 26
    for point, count in player0.items():
        board[point] += count
    for point, count in (player1 or {}).items():
        board[point] -= count
    return tuple(board)


def notations(board: tuple[int, ...], player: int, dice: tuple[int, int]) -> list[str]:
    return sorted(play.notation for play in legal_plays(board, player, dice))


def test_golden_cases() -> None:
    mismatches = []
    for case in golden_cases():
        got = legal_results(case["board"], case["player"], case["dice"])
        expected = frozenset(tuple(result) for result in case["results"])
        if got != expected:
            mismatches.append(
                f"{case['id']} ({case['kind']}) board={case['board']} player={case['player']} "
                f"dice={case['dice']}: {len(got)} results, expected {len(expected)}; "
                f"missing {sorted(expected - got)[:3]}, extra {sorted(got - expected)[:3]}"
            )
    assert not mismatches, "\n".join(mismatches[:10])


def test_golden_cases_plays_match_results() -> None:
    for case in golden_cases()[:500]:
        plays = legal_plays(case["board"], case["player"], case["dice"])
        assert len(plays) == case["n"], case["id"]
        assert {play.result for play in plays} == {tuple(r) for r in case["results"]}


def test_the_play_reaching_each_result_is_the_legal_plays_one() -> None:
    """Same moves (so the same notation) as legal_plays finds first, for every result of
    the golden cases; None for the board before (when a move can be made) and for a board
    no play of the roll leaves."""
    for case in golden_cases()[:1500]:
        board, player, dice = tuple(case["board"]), case["player"], case["dice"]
        plays = legal_plays(board, player, dice)
        for play in plays:
            assert play_reaching(board, player, dice, play.result) == play, case["id"]
        other = (3, 3) if dice != [3, 3] else (2, 1)
        strangers = {play.result for play in legal_plays(board, player, other)}
        for stranger in strangers - {play.result for play in plays}:
            assert play_reaching(board, player, dice, stranger) is None, case["id"]
        if plays[0].moves:
            assert play_reaching(board, player, dice, board) is None, case["id"]


def test_the_play_reaching_the_board_when_none_can_move_is_the_empty_one() -> None:
    board = board_of({25: 2, 6: 13}, {19: 2, 20: 2, 21: 2, 22: 2, 23: 2, 24: 2, 12: 3})
    assert play_reaching(board, 0, (3, 4), board) == legal_plays(board, 0, (3, 4))[0]
    assert play_reaching(board, 0, (3, 4), list(board)) == legal_plays(board, 0, (3, 4))[0]
    assert play_reaching(board, 0, (3, 4), START) is None


# The seed's figures (regles-du-backgammon.txt).


def test_figure_3_two_ways_to_play_5_3() -> None:
    """A 5 and a 3 are separate moves, or one checker moves 8 through an open point."""
    plays = notations(START, 0, (5, 3))
    assert "13/8 13/10" not in plays  # GNU Backgammon writes the higher destination first
    assert "13/10 13/8" in plays
    assert "24/16" in plays
    assert "8/3 6/3" in plays


def test_one_checker_needs_the_intermediate_point_open() -> None:
    """24/16 with 5-3 is illegal when both 21 and 19 are blocked."""
    board = board_of({24: 1, 6: 14}, {21: 2, 19: 2, 1: 11})
    assert all(not n.startswith("24/16") for n in notations(board, 0, (5, 3)))
    open_via_21 = board_of({24: 1, 6: 14}, {19: 2, 1: 13})
    assert "24/16" in notations(open_via_21, 0, (5, 3))


def test_figure_4_enter_on_the_four_point_against_a_closed_six_point() -> None:
    """With a checker on the bar and 6-4, the 6 is blocked: enter with the 4, then play the 6."""
    board = board_of({25: 1, 13: 5, 8: 3, 6: 5, 24: 1}, {19: 2, 1: 2, 12: 5, 17: 3, 23: 3})
    plays = legal_plays(board, 0, (6, 4))
    assert plays
    assert all(play.moves[0] == Move(25, 21) for play in plays)
    assert "bar/21 24/18" in [play.notation for play in plays]


def test_figure_5_bearing_off_with_6_4() -> None:
    """All home, 6-4: a checker off the 6 point and one off the 4 point."""
    board = board_of({6: 3, 5: 3, 4: 3, 3: 2, 2: 2, 1: 2}, {24: 15})
    assert "6/off 4/off" in notations(board, 0, (6, 4))


def test_higher_die_must_be_played_when_only_one_can() -> None:
    """Either die alone but not both: the higher one (6), not the 1."""
    board = board_of({13: 1, 1: 14}, {6: 2, 24: 13})
    # 13/7 or 13/12, but the 6 point is closed to both continuations.
    assert notations(board, 0, (6, 1)) == ["13/7"]


def test_only_the_smaller_die_when_the_higher_cannot_be_played() -> None:
    board = board_of({13: 1, 1: 14}, {7: 2, 6: 2, 24: 11})
    assert notations(board, 0, (6, 1)) == ["13/12"]


def test_both_dice_must_be_used_when_possible() -> None:
    """9/8 alone is no play when 9/8/2 uses both dice (the 6 first is blocked)."""
    board = board_of({9: 1, 1: 14}, {3: 2, 24: 11})
    assert notations(board, 0, (6, 1)) == ["9/2"]


def test_partial_double_plays_as_many_as_possible() -> None:
    """6-6 with the path blocked after two sixes plays exactly two."""
    board = board_of({24: 1, 1: 14}, {6: 2, 20: 13})
    plays = legal_plays(board, 0, (6, 6))
    assert [play.notation for play in plays] == ["24/12"]
    assert len(plays[0].moves) == 2


def test_no_legal_move_loses_the_turn() -> None:
    board = board_of({25: 2, 6: 13}, {19: 2, 20: 2, 21: 2, 22: 2, 23: 2, 24: 2, 12: 3})
    plays = legal_plays(board, 0, (3, 4))
    assert len(plays) == 1
    assert plays[0].moves == ()
    assert plays[0].result == board
    assert plays[0].notation == ""


def test_enter_all_bar_checkers_first_then_lose_the_rest() -> None:
    """Two on the bar, only the 5 enters: enter one and the turn is over."""
    board = board_of({25: 2, 6: 13}, {19: 2, 22: 2, 21: 2, 24: 2, 23: 2, 12: 5})
    assert notations(board, 0, (5, 3)) == ["bar/20"]


def test_after_entering_the_last_checker_the_other_die_is_played() -> None:
    board = board_of({25: 1, 13: 1, 6: 13}, {19: 2, 12: 13})
    assert notations(board, 0, (6, 3)) == ["bar/16", "bar/22 13/7"]


def test_hit_during_bear_off_stops_bearing_off() -> None:
    """A checker hit while bearing off must come home before any more bear off."""
    board = board_of({25: 1, 6: 2, 5: 3, 4: 4, 2: 3}, {1: 1, 24: 13})
    plays = notations(board, 0, (6, 5))
    assert all("off" not in play for play in plays)
    assert sorted(plays) == ["bar/14", "bar/19 6/1*"]


def test_bear_off_from_the_highest_point_with_a_higher_die() -> None:
    board = board_of({4: 2, 2: 1}, {24: 15})
    assert notations(board, 0, (6, 5)) == ["4/off(2)"]


def test_higher_die_may_not_bear_off_while_a_checker_stands_higher() -> None:
    board = board_of({6: 1, 3: 1}, {24: 15})
    assert notations(board, 0, (5, 1)) == ["6/1 3/2", "6/off"]


def test_hits_are_marked_and_sent_to_the_bar() -> None:
    board = board_of({13: 2, 8: 13}, {10: 1, 24: 14})
    play = next(p for p in legal_plays(board, 0, (3, 1)) if p.notation == "13/10*/9")
    assert play.result[10] == 0 and play.result[9] == 1 and play.result[0] == -1


def test_player_1_moves_the_other_way() -> None:
    plays = legal_plays(START, 1, (6, 5))
    assert "24/13" in [play.notation for play in plays]
    result = next(play.result for play in plays if play.notation == "24/13")
    assert result[1] == -1 and result[12] == -6


def test_doubles_are_played_four_times() -> None:
    assert {"13/7(2) 8/2(2)", "24/18(2) 13/7(2)"} <= set(notations(START, 0, (6, 6)))
    assert all(len(play.moves) == 4 for play in legal_plays(START, 0, (1, 1)))


# Bad input.


@pytest.mark.parametrize(
    ("dice", "message"),
    [
        ((7, 1), "[7, 1]"),
        ((0, 3), "[0, 3]"),
        ((1,), "[1]"),
        ((1, 2, 3), "[1, 2, 3]"),
        ((True, 2), "[True, 2]"),
        ((4, 2.0), "[4, 2.0]"),
        (("5", 2), "['5', 2]"),
    ],
)
def test_bad_dice_are_refused_with_a_message(dice: tuple[int, ...], message: str) -> None:
    with pytest.raises(InvalidDiceError, match="two numbers from 1 to 6") as error:
        legal_plays(START, 0, dice)
    assert message in str(error.value)


def test_impossible_boards_are_refused_with_a_message() -> None:
    too_many = list(START)
    too_many[6] += 1
    with pytest.raises(InvalidPositionError, match="player 0 has 16 checkers"):
        legal_plays(tuple(too_many), 0, (3, 1))
    with pytest.raises(InvalidPositionError, match="26 integers"):
        legal_plays((0, 1, 2), 0, (3, 1))
    for intruder in (True, 1.0, "2", None):  # a bool is not a checker count either
        board = (*START[:6], intruder, *START[7:])
        with pytest.raises(InvalidPositionError, match="a board holds integers only"):
            legal_results(board, 0, (3, 1))  # type: ignore[arg-type]


# Properties.

cases = st.builds(
    lambda seed, kind: kind(random.Random(seed)),
    st.integers(0, 2**32),
    st.sampled_from([bearoff_case, contact_bearoff_case, bar_case]),
)


@settings(max_examples=300, deadline=None)
@given(cases)
def test_results_do_not_depend_on_dice_order(case: tuple) -> None:
    board, player, (d1, d2) = case
    assert legal_results(board, player, (d1, d2)) == legal_results(board, player, (d2, d1))


@settings(max_examples=300, deadline=None)
@given(cases)
def test_fifteen_checkers_a_side_always(case: tuple) -> None:
    board, player, dice = case
    for result in legal_results(board, player, dice):
        mine = sum(n for n in result if n > 0)
        theirs = -sum(n for n in result if n < 0)
        before = sum(n for n in board if n > 0), -sum(n for n in board if n < 0)
        off = (
            (before[0] - mine, before[1] - theirs)
            if player == 0
            else (before[1] - theirs, before[0] - mine)
        )
        assert off[1] == 0, "the opponent never bears off on our turn"
        assert 0 <= off[0] <= 4


@settings(max_examples=300, deadline=None)
@given(cases)
def test_every_play_replays_step_by_step_into_its_result(case: tuple) -> None:
    board, player, dice = case
    for play in legal_plays(board, player, dice):
        view = board if player == 0 else flip(board)
        for move in play.moves:
            assert move in _legal_steps(view, dice)
            view = apply_step(view, move.source, move.destination)
        assert (view if player == 0 else flip(view)) == play.result


def _legal_steps(view: tuple[int, ...], dice: tuple[int, int]) -> set:
    from controller.rules.plays import step_moves

    return {move for die in set(dice) for move in step_moves(view, die)}


def test_fast_paths_match_the_general_search_move_for_move(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The fast paths give the general search's results, first plays and order.

    A fifth of the golden positions with each of the 21 rolls, from the mover's view: the
    notation of a legal play comes from the first play found, so the order matters as much
    as the set.
    """
    taken: Counter[str] = Counter()
    for name, path in _FAST_PATHS.items():
        monkeypatch.setattr(search_module, path.__name__, _counted(path, name, taken))
    for case in golden_cases()[::5]:
        board = tuple(case["board"])
        view = board if case["player"] == 0 else flip(board)
        for high in range(1, 7):
            for low in range(1, high + 1):
                fast = list(search_module.search(view, 0, (high, low)).items())
                general = list(search_by_scan(view, high, low).items())
                assert fast == general, (view, (high, low))
    # Each fast path was taken, not only the general one.
    assert taken["plain"] > 4_000
    assert taken["two dice"] > 5_000
    assert taken["entering"] > 500
    assert taken["double"] > 5_000


_FAST_PATHS: dict[str, Callable[..., object]] = {
    "plain": search_module._search_plain,
    "two dice": search_module._search_two,
    "entering": search_module._search_entering,
    "double": search_module._search_double,
}


def _counted(path: Callable[..., _T], name: str, taken: Counter[str]) -> Callable[..., _T]:
    """``path``, counting its calls in ``taken[name]``."""

    def call(*args: object) -> _T:
        taken[name] += 1
        return path(*args)

    return call


def test_results_written_flipped_are_the_views_flipped_back() -> None:
    """A search of player 1's layout gives the results of its view flipped, in order.

    Every fast path and the scan, on a fifth of the golden positions with each roll: the
    flipped frame is written move by move, not flipped at the end, so each path is checked.
    """
    for case in golden_cases()[::5]:
        view = tuple(case["board"])
        for high in range(1, 7):
            for low in range(1, high + 1):
                flipped = list(search_module.search(flip(view), 1, (high, low)).items())
                plain = search_module.search(view, 0, (high, low)).items()
                assert flipped == [(flip(result), steps) for result, steps in plain], (view, high)
