"""GNU Backgammon's Position ID and Match ID of an XGID position: known values, errors,
round trips."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from controller.rules.board import START
from controller.rules.errors import InvalidNotationError
from controller.rules.gnubg_ids import gnubg_id, parse_gnubg_id
from controller.rules.match_id import parse_match_id
from controller.rules.xgid import CubeOffer, Xgid
from tests.rules.test_xgid import xgids


def test_gnubg_id_refuses_a_pending_beaver() -> None:
    position = Xgid(cube_value=2, cube_owner=1, turn=0, offer=CubeOffer.BEAVER, beavers=True)
    with pytest.raises(
        InvalidNotationError, match="GNU Backgammon IDs cannot hold a pending beaver"
    ):
        gnubg_id(position)


def test_gnubg_id_writes_a_pending_double_as_gnubg_holds_one_in_play() -> None:
    text = gnubg_id(Xgid(offer=CubeOffer.DOUBLE, turn=0))
    key = parse_match_id(text.split(":")[1])
    # gnubg's player 1 (our player 0) doubled; its player 0 must answer.
    assert (key.doubled, key.player_on_roll, key.turn, key.dice) == (True, 1, 0, None)


def test_parse_gnubg_id_known_values() -> None:
    assert parse_gnubg_id("4HPwATDgc/ABMA:cIkKAAAAAAAA") == Xgid(dice=(5, 2), jacoby=True)
    assert parse_gnubg_id("4HPwATDgc/ABMA") == Xgid()
    # The starting position's checker on the bar belongs to the player on roll: gnubg's
    # player 1 in cIkK..., our player 0.
    assert parse_gnubg_id(" 4HPwATDgc/ABUA:cIkKAAAAAAAA\n").board == (*START[:24], 1, 1)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "4HPwATDgc/ABMA:cIkKAAAAAAA",
            "invalid match ID 'cIkKAAAAAAA': expected 12 characters, got 11",
        ),
        (
            "4HPwATDgc/AB:cIkKAAAAAAAA",
            "invalid position ID '4HPwATDgc/AB': expected 14 characters, got 12",
        ),
        # cIkK... with resignation bits 14-15 = 01 (bit 14 is bit 5 of byte 1: 0x89 | 0x20).
        ("4HPwATDgc/ABMA:cKkKAAAAAAAA", "a pending resignation has no XGID"),
        # MAEA... (player 0 on roll, not rolled) with the doubled bit set and the turn left.
        ("4HPwATDgc/ABMA:MBEAAAAAAAAA", "with a double pending the turn is the doubled player's"),
    ],
)
def test_parse_gnubg_id_says_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(InvalidNotationError) as error:
        parse_gnubg_id(text)
    assert message in str(error.value)


@st.composite
def gnubg_xgids(draw: st.DrawFn) -> Xgid:
    """XGIDs holding only what a GNU Backgammon ID holds too."""
    position = draw(xgids())
    offer = position.offer if position.offer is CubeOffer.DOUBLE else None
    score = position.score if position.match_length else (0, 0)
    return Xgid(
        board=position.board,
        cube_value=position.cube_value,
        cube_owner=position.cube_owner,
        turn=position.turn,
        dice=None if position.dice is None else (max(position.dice), min(position.dice)),
        offer=offer,
        score=score,
        crawford=position.crawford,
        jacoby=position.jacoby,
        match_length=position.match_length,
    )


@given(gnubg_xgids())
def test_gnubg_id_round_trip(position: Xgid) -> None:
    assert parse_gnubg_id(gnubg_id(position)) == position


@given(st.text(max_size=40))
def test_any_text_parses_as_a_gnubg_id_or_raises_invalid_notation(text: str) -> None:
    try:
        parse_gnubg_id(text)
    except InvalidNotationError as error:
        assert repr(text) in str(error)
