"""GNU Backgammon Position ID: known values, errors, round trips, and gnubg itself."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from controller.rules.board import START, Board, flip
from controller.rules.errors import InvalidNotationError, InvalidPositionError
from controller.rules.position_id import board_from_position_id, position_id
from tests.rules._codec_support import boards, gnubg_board, load_gnubg, random_board

# The starting position with one of player 0's back checkers on the bar.
BAR_BOARD: Board = (*START[:24], 1, 1)


def test_starting_position_id() -> None:
    assert position_id(START, 0) == "4HPwATDgc/ABMA"
    assert position_id(START, 1) == "4HPwATDgc/ABMA"
    assert board_from_position_id("4HPwATDgc/ABMA", 0) == START


def test_the_player_on_roll_is_written_second_as_gnubg_does() -> None:
    # gnubg shows 4HPwATDgc/ABUA for this board with the bottom player, whose checker is
    # on the bar, on roll (XGID=-b----E-C---eE---c-e----AA:0:0:1:52:0:0:3:0:10).
    assert position_id(BAR_BOARD, 0) == "4HPwATDgc/ABUA"
    assert position_id(BAR_BOARD, 1) == "4HPwAVDgc/ABMA"
    assert board_from_position_id("4HPwATDgc/ABUA", 0) == BAR_BOARD
    assert board_from_position_id("4HPwATDgc/ABUA", 1) == flip(BAR_BOARD)


def test_empty_board_is_all_zero_bits() -> None:
    assert position_id((0,) * 26, 0) == "AAAAAAAAAAAAAA"


ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


def id_from_bits(bits: int) -> str:
    """A position ID written straight from an 80-bit key (first bit least significant)."""
    stream = int.from_bytes(bits.to_bytes(10, "little"), "big") << 4
    return "".join(ALPHABET[(stream >> (6 * (13 - i))) & 63] for i in range(14))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("4HPwATDgc/ABU", "expected 14 characters, got 13"),
        ("4HPwATDgc/ABMA:", "expected 14 characters, got 15"),
        ("4HPwATDgc/AB.A", "'.' is not a base64 character"),
        ("4HPwATDgc/ABMB", "the last character has padding bits set"),
        ("//////////////", "the last character has padding bits set"),
        ("/////////////A", "the key ends before its 50 point separators"),
        # Sixteen 1 bits on the opponent's ace point.
        (id_from_bits((1 << 16) - 1), "the opponent has 16 checkers, more than 15"),
        # 17 checkers for the player on roll: 25 separators, then seventeen 1 bits.
        (id_from_bits(((1 << 17) - 1) << 25), "the player on roll has 17 checkers, more than 15"),
        # Bit 79 set after the 50 separators of an empty board.
        (id_from_bits(1 << 79), "bits are set after the last point separator"),
    ],
)
def test_bad_position_ids_say_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(InvalidNotationError) as error:
        board_from_position_id(text, 0)
    assert str(error.value) == f"invalid position ID {text!r}: {message}"


def test_a_point_held_by_both_players_is_refused() -> None:
    # The opponent (player 1 here) on their ace point = point 24; player 0 on their 24 point.
    opponent = 0b1  # one checker on the opponent's ace point, then separators
    on_roll = 1 << (25 + 1 + 23)  # after 26 separators... player on roll's point 24
    text = id_from_bits(opponent | on_roll)
    with pytest.raises(InvalidNotationError, match="both players have checkers on point 24"):
        board_from_position_id(text, 0)


def test_bad_boards_and_players_are_refused() -> None:
    with pytest.raises(InvalidPositionError, match="a board is 26 integers"):
        position_id((0,) * 25, 0)
    with pytest.raises(InvalidPositionError, match="the player on roll is 0 or 1, got 2"):
        position_id(START, 2)
    with pytest.raises(InvalidNotationError, match="a position ID is a string"):
        board_from_position_id(None, 0)  # type: ignore[arg-type]


@given(boards(), st.sampled_from((0, 1)))
def test_round_trip(board: Board, player: int) -> None:
    text = position_id(board, player)
    assert len(text) == 14
    assert board_from_position_id(text, player) == board
    # The key is relative to the player on roll: the flipped board has the same ID.
    assert position_id(flip(board), 1 - player) == text


@given(st.text(max_size=20))
def test_any_text_parses_or_raises_invalid_notation(text: str) -> None:
    try:
        board = board_from_position_id(text, 0)
    except InvalidNotationError as error:
        assert repr(text) in str(error)
    else:
        assert position_id(board, 0) == text


@given(
    st.text(
        alphabet=ALPHABET,
        min_size=14,
        max_size=14,
    )
)
def test_any_base64_id_parses_or_raises_invalid_notation(text: str) -> None:
    try:
        board = board_from_position_id(text, 1)
    except InvalidNotationError as error:
        assert repr(text) in str(error)
    else:
        assert position_id(board, 1) == text


# Differential: GNU Backgammon's own encoder and decoder.

DIFFERENTIAL_BOARDS = 20000


def test_matches_gnubg_on_random_boards() -> None:
    gnubg = load_gnubg()
    rng = random.Random(20261122)
    mismatches = []
    for _ in range(DIFFERENTIAL_BOARDS):
        board = random_board(rng)
        for player in (0, 1):
            ours = position_id(board, player)
            expected = gnubg_board(board, player)
            theirs = gnubg.position_id(expected)
            decoded = tuple(tuple(side) for side in gnubg.position_from_id(ours))
            if (
                ours != theirs
                or decoded != expected
                or board_from_position_id(theirs, player) != board
            ):
                mismatches.append(f"{board} player {player}: ours {ours}, gnubg {theirs}")
    assert not mismatches, f"{len(mismatches)} mismatches, first: {mismatches[:3]}"


def test_reads_mutated_ids_as_gnubg_does() -> None:
    """Random one-character changes of real IDs: the same board as gnubg, or refused.

    We refuse more than gnubg in one way only: an ID with bits set after the last point
    separator, which gnubg reads past but would never write.
    """
    gnubg = load_gnubg()
    rng = random.Random(7)
    disagreements = []
    counts = {"same board": 0, "both refuse": 0, "non-canonical": 0}
    for _ in range(3000):
        text = list(position_id(random_board(rng), 0))
        text[rng.randrange(13)] = rng.choice(ALPHABET)  # the 14th holds padding bits
        mutated = "".join(text)
        try:
            theirs = gnubg.position_from_id(mutated)
        except ValueError:
            theirs = None
        try:
            ours = board_from_position_id(mutated, 0)
        except InvalidNotationError as error:
            if theirs is None:
                counts["both refuse"] += 1
            elif "bits are set after" in str(error) and gnubg.position_id(theirs) != mutated:
                counts["non-canonical"] += 1
            else:
                disagreements.append((mutated, str(error), theirs))
            continue
        if theirs is None or gnubg_board(ours, 0) != tuple(map(tuple, theirs)):
            disagreements.append((mutated, ours, theirs))
        else:
            counts["same board"] += 1
    assert not disagreements, disagreements[:3]
    assert min(counts.values()) > 100, counts
