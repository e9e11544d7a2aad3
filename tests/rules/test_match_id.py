"""GNU Backgammon Match ID: known values, errors, round trips, and gnubg itself."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from controller.rules.errors import InvalidNotationError
from controller.rules.match_id import GameState, MatchKey, match_id, parse_match_id
from tests.rules._codec_support import load_gnubg

ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


def id_from_bits(bits: int) -> str:
    """A match ID written straight from a 72-bit key (first bit least significant)."""
    stream = int.from_bytes(bits.to_bytes(9, "little"), "big")
    return "".join(ALPHABET[(stream >> (6 * (11 - i))) & 63] for i in range(12))


CENTRED = 0b11 << 4


def test_money_game_player_1_rolled_52() -> None:
    # What gnubg shows for XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0:10.
    key = MatchKey(player_on_roll=1, turn=1, dice=(5, 2))
    assert match_id(key) == "cIkKAAAAAAAA"
    assert parse_match_id("cIkKAAAAAAAA") == key


def test_no_game_started() -> None:
    key = parse_match_id("cAgAAAAAAAAA")
    assert key == MatchKey(player_on_roll=1, turn=1, game_state=GameState.NONE)


def test_match_with_cube_crawford_and_dice() -> None:
    # gnuid2xgid's example: 3-point match at 2-1, the Crawford game.
    key = parse_match_id("8IhuACAACAAE")
    assert key == MatchKey(
        player_on_roll=1,
        turn=1,
        crawford=True,
        game_state=GameState.NONE,
        dice=(5, 3),
        match_length=3,
        score=(2, 1),
        jacoby=False,
    )
    assert match_id(key) == "8IhuACAACAAE"


def test_bit_layout_field_by_field() -> None:
    key = MatchKey(
        cube_value=8,
        cube_owner=1,
        player_on_roll=1,
        crawford=True,
        game_state=GameState.RESIGNED,
        turn=0,
        doubled=True,
        resigned=2,
        dice=(6, 4),
        match_length=9,
        score=(8, 3),
        jacoby=False,
    )
    bits = (
        3
        | 0b01 << 4
        | 1 << 6
        | 1 << 7
        | 3 << 8
        | 0 << 11
        | 1 << 12
        | 2 << 13
        | 6 << 15
        | 4 << 18
        | 9 << 21
        | 8 << 36
        | 3 << 51
        | 1 << 66
    )
    assert match_id(key) == id_from_bits(bits)


def test_the_higher_die_is_written_first() -> None:
    assert MatchKey(dice=(2, 6)).dice == (6, 2)
    with pytest.raises(InvalidNotationError, match="GNU Backgammon writes the higher die first"):
        parse_match_id(id_from_bits(1 << 8 | 2 << 15 | 6 << 18))


@pytest.mark.parametrize(
    ("bits", "message"),
    [
        (0b10 << 4, "the cube owner bits are 10, neither a player (00, 01) nor centred (11)"),
        (CENTRED | 5 << 8, "the game state is 0 to 4, got 5"),
        (CENTRED | 3 << 15, "the dice are both 0 (not rolled) or both 1 to 6, got (3, 0)"),
        (CENTRED | 7 << 15 | 7 << 18, "a die shows 1 to 6, got (7, 7)"),
        (CENTRED | 1 << 67, "bits are set after bit 67"),
        (CENTRED | 3 << 21 | 4 << 36, "a score of (4, 0) is over the match length 3"),
        (CENTRED | 1 << 7, "money play has no Crawford game"),
        (CENTRED | 1 << 7 | 1 << 21, "a 1-point match has no Crawford game"),
    ],
)
def test_bad_match_ids_say_what_is_wrong(bits: int, message: str) -> None:
    text = id_from_bits(bits)
    with pytest.raises(InvalidNotationError) as error:
        parse_match_id(text)
    assert str(error.value) == f"invalid match ID {text!r}: {message}"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("cIkKAAAAAAA", "expected 12 characters, got 11"),
        ("cIkKAAAAAAA=", "'=' is not a base64 character"),
    ],
)
def test_bad_match_id_text(text: str, message: str) -> None:
    with pytest.raises(InvalidNotationError) as error:
        parse_match_id(text)
    assert str(error.value) == f"invalid match ID {text!r}: {message}"


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"cube_value": 3}, "the cube value is a power of two, got 3"),
        ({"cube_value": 1 << 16}, "the cube value is at most 2**15, got 65536"),
        ({"turn": 2}, "turn is 0 or 1, got 2"),
        ({"cube_owner": -1}, "the cube owner is 0, 1 or None, got -1"),
        ({"dice": (0, 3)}, "the dice are two numbers from 1 to 6 or None, got (0, 3)"),
        ({"match_length": 1 << 15}, "the match length is 0 to 32767, got 32768"),
        ({"resigned": 4}, "a resignation is 0 to 3, got 4"),
    ],
)
def test_match_keys_are_validated(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidNotationError) as error:
        MatchKey(**kwargs)  # type: ignore[arg-type]
    assert str(error.value) == f"invalid match key: {message}"


@st.composite
def match_keys(draw: st.DrawFn) -> MatchKey:
    """Any match key that can be encoded."""
    length = draw(st.sampled_from((0, 1, 3, 5, 7, 11, 25, 32767)))
    if length:
        score = (draw(st.integers(0, length)), draw(st.integers(0, length)))
    else:
        score = (draw(st.integers(0, 32767)), draw(st.integers(0, 32767)))
    return MatchKey(
        cube_value=1 << draw(st.integers(0, 15)),
        cube_owner=draw(st.sampled_from((None, 0, 1))),
        player_on_roll=draw(st.sampled_from((0, 1))),
        crawford=length > 1 and draw(st.booleans()),
        game_state=draw(st.sampled_from(GameState)),
        turn=draw(st.sampled_from((0, 1))),
        doubled=draw(st.booleans()),
        resigned=draw(st.integers(0, 3)),
        dice=draw(st.none() | st.tuples(st.integers(1, 6), st.integers(1, 6))),
        match_length=length,
        score=score,
        jacoby=draw(st.booleans()),
    )


@given(match_keys())
def test_round_trip(key: MatchKey) -> None:
    text = match_id(key)
    assert len(text) == 12
    assert parse_match_id(text) == key


@given(st.text(max_size=16))
def test_any_text_parses_or_raises_invalid_notation(text: str) -> None:
    try:
        key = parse_match_id(text)
    except InvalidNotationError as error:
        assert repr(text) in str(error)
    else:
        assert match_id(key) == text


@given(st.text(alphabet=ALPHABET, min_size=12, max_size=12))
def test_any_base64_id_parses_or_raises_invalid_notation(text: str) -> None:
    try:
        key = parse_match_id(text)
    except InvalidNotationError as error:
        assert repr(text) in str(error)
    else:
        assert match_id(key) == text


# Differential: GNU Backgammon's own encoder.

DIFFERENTIAL_KEYS = 10000


def test_matches_gnubg_on_random_keys() -> None:
    """gnubg.match_id of the same fields, for random keys (money scores are 0 in gnubg)."""
    gnubg = load_gnubg()
    rng = random.Random(11)
    mismatches = []
    for _ in range(DIFFERENTIAL_KEYS):
        key = _random_key(rng)
        cube = gnubg.cubeinfo(
            key.cube_value,
            -1 if key.cube_owner is None else key.cube_owner,
            key.player_on_roll,
            key.match_length,
            key.score,
            int(key.crawford),
            0,
        )
        cube["jacoby"] = int(key.jacoby)
        position = gnubg.posinfo(
            key.turn, key.resigned, int(key.doubled), int(key.game_state), key.dice or (0, 0)
        )
        theirs = gnubg.match_id(cube, position)
        if match_id(key) != theirs or parse_match_id(theirs) != key:
            mismatches.append(f"{key}: ours {match_id(key)}, gnubg {theirs}")
    assert not mismatches, f"{len(mismatches)} mismatches, first: {mismatches[:3]}"


def _random_key(rng: random.Random) -> MatchKey:
    length = rng.choice((0, 0, 1, 3, 5, 7, 9, 13, 25, 64))
    # gnubg's cubeinfo refuses a finished match (a score at the length).
    score = (rng.randint(0, length - 1), rng.randint(0, length - 1)) if length else (0, 0)
    dice = None if rng.random() < 0.3 else (rng.randint(1, 6), rng.randint(1, 6))
    return MatchKey(
        cube_value=1 << rng.randint(0, 15),
        cube_owner=rng.choice((None, 0, 1)),
        player_on_roll=rng.randint(0, 1),
        crawford=length > 1 and rng.random() < 0.3,
        game_state=rng.choice(list(GameState)),
        turn=rng.randint(0, 1),
        doubled=rng.random() < 0.3,
        resigned=rng.randint(0, 3),
        dice=dice,
        match_length=length,
        score=score,
        jacoby=rng.random() < 0.5,
    )
