"""The general (variant) generator: the golden cases through it, and a differential check.

``plays_of_numbers`` is the path every variant but backgammon's movement takes. It was
made fast; :mod:`tests.rules.reference_general` keeps the plain version it replaced, and
these tests require exactly the same plays from both (results, moves in order, numbers
left) on random Jacquet games, random Jacquet boards and descriptions mixing the rules.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from typing import Any

import pytest

from controller.rules import variant_search
from controller.rules.board import Board
from controller.rules.plays import Play, legal_plays, play_reaching, plays_of_numbers
from controller.rules.variants import (
    BACKGAMMON,
    JACQUET,
    JACQUET_LUDII,
    BearOff,
    Doublets,
    Unplayable,
    Variant,
)
from controller.simulated.players import JacquetDeclined, JacquetPlayed, play_jacquet_game
from tests.rules.positions import golden_cases, roll
from tests.rules.reference_general import reference_plays


def test_golden_cases_through_the_general_path() -> None:
    """The 5,000 golden backgammon cases, forced through the variants' generator."""
    mismatches = []
    for case in golden_cases():
        board, dice = tuple(case["board"]), tuple(case["dice"])
        plays = plays_of_numbers(board, case["player"], BACKGAMMON.moves_of(dice), BACKGAMMON)
        if {play.result for play in plays} != {tuple(result) for result in case["results"]}:
            mismatches.append(case["id"])
    assert not mismatches, mismatches[:10]


def test_golden_cases_general_path_plays_as_the_reference() -> None:
    for case in golden_cases()[::5]:
        board, player = tuple(case["board"]), case["player"]
        numbers = BACKGAMMON.moves_of(tuple(case["dice"]))
        assert plays_of_numbers(board, player, numbers, BACKGAMMON) == reference_plays(
            board, player, numbers, BACKGAMMON
        ), case["id"]


def _game_positions(variant: Variant, seeds: range) -> list[tuple[Board, int, tuple[int, ...]]]:
    """Every turn of random games, handed-over numbers included."""
    positions = []
    for seed in seeds:
        for event in play_jacquet_game(random.Random(seed), variant):
            if isinstance(event, JacquetPlayed | JacquetDeclined):
                turn = event.turn
                positions.append((turn.board, turn.player, turn.numbers))
    return positions


@pytest.mark.parametrize("variant", [JACQUET, JACQUET_LUDII], ids=lambda v: v.name)
def test_random_jacquet_games_play_as_the_reference(
    variant: Variant, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every turn of 15 games; the doublets whose moves commute, searched in one order
    only (``_search_in_order``), are most of the doublets there and are counted, so that
    the comparison covers that search too: among them, some the home limit might have
    bound but did not (played in one order), and some it did (searched in every order)."""
    in_order = 0
    limit_checked: Counter[bool] = Counter()
    search_in_order = variant_search._search_in_order

    def counted(*args: Any, **kwargs: Any) -> dict[Board, Play] | None:
        nonlocal in_order
        found = search_in_order(*args, **kwargs)
        in_order += found is not None
        if kwargs.get("limit") is not None:
            limit_checked[found is None] += 1
        return found

    positions = _game_positions(variant, range(1_000, 1_015))
    monkeypatch.setattr(variant_search, "_search_in_order", counted)
    assert len(positions) > 2_000
    for board, player, numbers in positions:
        assert plays_of_numbers(board, player, numbers, variant) == reference_plays(
            board, player, numbers, variant
        ), (board, player, numbers)
    doublets = sum(len(numbers) > len(set(numbers)) for _, _, numbers in positions)
    assert in_order > doublets / 2
    assert limit_checked[False] > 0 and limit_checked[True] > 0, limit_checked


def random_jacquet_board(rng: random.Random) -> Board:
    """Checkers of both sides placed in one of a few shapes along their own tracks.

    Unlike positions of played games these reach the rare corners at once: a courier out
    or hit, points crowding the first quadrant against the two-point limit, bearing off
    with checkers behind or on the bar.
    """
    board = [0] * 26
    for player, sign in ((0, 1), (1, -1)):
        track = JACQUET.tracks[player]
        checkers = 15 - rng.choice([0, 0, 0, rng.randint(0, 14)])
        for view_index in _shape(rng, checkers):
            point = track[view_index]
            if sign * board[point] < 0 and 1 <= point <= 24:
                continue  # the other side holds it: this checker is borne off instead
            board[point] += sign
    return tuple(board)


def _shape(rng: random.Random, checkers: int) -> list[int]:
    """View indices of ``checkers`` checkers (24 the start point, 25 the bar)."""
    shape = rng.choice(["start", "first quadrant", "courier", "home", "anywhere"])
    if shape == "courier":  # 14 waiting, the courier out or hit
        return [24] * 14 + [rng.choice([25, rng.randint(1, 23)])]
    indices = []
    for index in range(checkers):
        if shape == "start" and index < rng.randint(0, checkers):
            indices.append(24)
        elif rng.random() < 0.05:
            indices.append(25)
        elif shape == "first quadrant" and rng.random() < 0.7:
            indices.append(rng.randint(19, 24))
        elif shape == "home":
            indices.append(rng.randint(1, 6))
        else:
            indices.append(rng.randint(1, 24))
    return indices


def random_numbers(rng: random.Random, variant: Variant) -> tuple[int, ...]:
    """A roll's numbers, or the tail of them that a throw could hand over."""
    numbers = variant.moves_of(roll(rng))
    if rng.random() < 0.3:
        return numbers[rng.randrange(len(numbers)) :]
    return numbers


MIXED = [
    JACQUET,
    JACQUET_LUDII,
    replace(JACQUET, name="jacquet-forfeit", unplayable=Unplayable.FORFEIT),
    replace(JACQUET, name="jacquet-no-courier", courier=False, home_point_limit=None),
    replace(JACQUET, name="jacquet-enter-first", must_enter_first=True, home_point_limit=1),
    replace(
        BACKGAMMON,
        name="backgammon-n-times",
        doublets=Doublets.N_TIMES,
        bear_off=BearOff.ANY_HIGHER,
    ),
    replace(BACKGAMMON, name="backgammon-lost", unplayable=Unplayable.LOST, courier=True),
]


@pytest.mark.parametrize("variant", MIXED, ids=lambda v: v.name)
def test_random_boards_play_as_the_reference(variant: Variant) -> None:
    rng = random.Random(variant.name)
    for _ in range(600):
        board, player = random_jacquet_board(rng), rng.randint(0, 1)
        numbers = random_numbers(rng, variant)
        assert plays_of_numbers(board, player, numbers, variant) == reference_plays(
            board, player, numbers, variant
        ), (board, player, numbers)


@pytest.mark.parametrize("variant", [JACQUET, JACQUET_LUDII], ids=lambda v: v.name)
def test_the_play_reaching_a_result_is_the_legal_plays_one(variant: Variant) -> None:
    """As for backgammon (``tests/rules/test_plays.py``): each result's play, the same as
    legal_plays gives, and None for a board the roll does not leave."""
    rng = random.Random(f"reaching {variant.name}")
    for _ in range(200):
        board, player = random_jacquet_board(rng), rng.randint(0, 1)
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        plays = legal_plays(board, player, dice, variant)
        for play in plays:
            assert play_reaching(board, player, dice, play.result, variant) == play
        if plays[0].moves:
            assert play_reaching(board, player, dice, board, variant) is None


@pytest.mark.parametrize("variant", [JACQUET, JACQUET_LUDII, BACKGAMMON], ids=lambda v: v.name)
def test_no_numbers_is_the_one_empty_play(variant: Variant) -> None:
    assert plays_of_numbers(variant.start, 0, (), variant) == reference_plays(
        variant.start, 0, (), variant
    )
    (play,) = plays_of_numbers(variant.start, 1, (), variant)
    assert (play.moves, play.result, play.unused) == ((), variant.start, ())
