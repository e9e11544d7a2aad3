"""XGID: known values, errors, round trips, and GNU Backgammon's XGID reader."""

from __future__ import annotations

import itertools
import random
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from controller.rules.board import START
from controller.rules.cube import CubePhase, CubeState, Outcome, Rules, WinKind
from controller.rules.errors import IllegalActionError, InvalidNotationError, InvalidRulesError
from controller.rules.gnubg_ids import gnubg_id, parse_gnubg_id
from controller.rules.match import MatchState, roll_opening
from controller.rules.match_id import parse_match_id
from controller.rules.position_id import position_id
from controller.rules.xgid import CubeOffer, Xgid, parse_xgid, xgid
from tests.rules._codec_support import boards, load_gnubg, random_board
from tests.rules.test_match_id import CENTRED, id_from_bits

OPENING = "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0:10"


def test_opening_position_money_jacoby_beavers() -> None:
    position = parse_xgid(OPENING)
    assert position == Xgid(board=START, dice=(5, 2), jacoby=True, beavers=True)
    assert xgid(position) == OPENING


def test_prefix_and_blanks_are_optional() -> None:
    assert parse_xgid("  " + OPENING[5:] + "\n") == parse_xgid(OPENING)


def test_the_position_maps_onto_the_board_layout_character_for_character() -> None:
    # Top player's checker on the bar (index 0), bottom player's two on the bar (25).
    text = "XGID=aa----E-C---eD---c-e----AB:1:-1:-1:00:0:0:0:0:10"
    position = parse_xgid(text)
    assert position.board[0] == -1 and position.board[1] == -1 and position.board[25] == 2
    assert position.board[24] == 1
    assert (position.cube_value, position.cube_owner, position.turn) == (2, 1, 1)
    assert position.dice is None and position.offer is None
    assert xgid(position) == text


def test_match_play_scores_crawford_and_the_pending_double() -> None:
    text = "XGID=-b----E-C---eE---c-e----B-:2:1:1:D:3:6:0:7:10"
    position = parse_xgid(text)
    assert position.offer is CubeOffer.DOUBLE and position.turn == 0
    assert (position.cube_value, position.cube_owner) == (4, 0)
    assert position.score == (3, 6) and position.match_length == 7 and not position.crawford
    assert xgid(position) == text
    crawford = parse_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:-1:00:6:2:1:7:10")
    assert crawford.crawford and crawford.turn == 1


def test_dice_keep_the_order_written() -> None:
    assert parse_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:25:0:0:0:0:10").dice == (2, 5)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("x", "expected 10 fields, got 1"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0", "expected 10 fields, got 9"),
        (
            "XGID=-b----E-C---eE---c-e----B:0:0:1:52:0:0:3:0:10",
            "the position has 26 characters, got 25",
        ),
        (
            "XGID=-b----E-C---eE---c-e----Bz:0:0:1:52:0:0:3:0:10",
            "'z' at 25 is not '-', 'A'..'O' or 'a'..'o'",
        ),
        (
            "XGID=Ab----E-C---eE---c-e----A-:0:0:1:52:0:0:3:0:10",
            "the first character is the top player's bar: lower case or '-'",
        ),
        (
            "XGID=-b----E-C---eE---c-e----Ba:0:0:1:52:0:0:3:0:10",
            "the last character is the bottom player's bar: upper case or '-'",
        ),
        (
            "XGID=-b----E-C---eE---c-e---BB-:0:0:1:52:0:0:3:0:10",
            "player 0 has 17 checkers on the board, more than 15",
        ),
        (
            "XGID=-b----E-C---eE---c-e----B-:x:0:1:52:0:0:3:0:10",
            "the cube (log2 of its value) is an integer, got 'x'",
        ),
        (
            "XGID=-b----E-C---eE---c-e----B-:+1:0:1:52:0:0:3:0:10",
            "the cube (log2 of its value) is an integer, got '+1'",
        ),
        (
            "XGID=-b----E-C---eE---c-e----B-:16:0:1:52:0:0:3:0:10",
            "the cube (log2 of its value) is 0 to 15, got 16",
        ),
        (
            "XGID=-b----E-C---eE---c-e----B-:0:2:1:52:0:0:3:0:10",
            "the cube position is -1 to 1, got 2",
        ),
        (
            "XGID=-b----E-C---eE---c-e----B-:0:0:0:52:0:0:3:0:10",
            "the turn is 1 (bottom player) or -1 (top player), got 0",
        ),
        (
            "XGID=-b----E-C---eE---c-e----B-:0:0:1:72:0:0:3:0:10",
            "the dice are two digits from 1 to 6 (or 00), got '72'",
        ),
        (
            "XGID=-b----E-C---eE---c-e----B-:0:0:1:5:0:0:3:0:10",
            "the dice field is two digits, 00, D, B or R, got '5'",
        ),
        (
            "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:-1:0:3:0:10",
            "the bottom player's score is at least 0, got -1",
        ),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:4:0:10", "the rules field is 0 to 3, got 4"),
        (
            "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:5:10",
            "in a match the rules field is 0 or 1 (Crawford game), got 3",
        ),
        (
            "XGID=-b----E-C---eE---c-e----B-:0:1:1:52:0:0:0:0:10",
            "a cube at 1 is centred, not owned by player 0",
        ),
        (
            "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:5:2:0:5:10",
            "a score of (5, 2) ends a 5-point match",
        ),
        (
            "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:3:2:1:5:10",
            "the Crawford game needs a player at 4 points, the score is (3, 2)",
        ),
        (
            "XGID=-b----E-C---eE---c-e----B-:0:0:1:D:4:2:1:5:10",
            "doubling is not allowed in the Crawford game",
        ),
        (
            "XGID=-b----E-C---eE---c-e----B-:0:0:-1:31:0:0:1:1:10",
            "a 1-point match has no Crawford game",
        ),
        (
            "XGID=-b----E-C---eE---c-e----B-:1:-1:1:D:0:0:0:0:10",
            "player 0 cannot double a cube owned by player 1",
        ),
        (
            "XGID=-b----E-C---eE---c-e----B-:0:0:1:B:0:0:1:0:10",
            "beaver needs money play with beavers",
        ),
        (
            "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0:16",
            "the max cube (log2) is 0 to 15, got 16",
        ),
    ],
)
def test_bad_xgids_say_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(InvalidNotationError) as error:
        parse_xgid(text)
    assert str(error.value) == f"invalid XGID {text!r}: {message}"


def test_huge_numbers_are_refused_before_they_are_read() -> None:
    text = f"XGID=-b----E-C---eE---c-e----B-:0:0:1:52:{'9' * 5000}:0:3:0:10"
    with pytest.raises(
        InvalidNotationError, match="the bottom player's score has more than 9 digits"
    ):
        parse_xgid(text)


def test_fields_are_validated_on_construction() -> None:
    with pytest.raises(
        InvalidNotationError, match="invalid XGID fields: the cube value is a power of two, got 6"
    ):
        Xgid(cube_value=6)
    with pytest.raises(
        InvalidNotationError, match="dice cannot be rolled while a cube action is pending"
    ):
        Xgid(dice=(1, 2), offer=CubeOffer.DOUBLE)
    with pytest.raises(InvalidNotationError, match="money play has no Crawford game"):
        Xgid(crawford=True)
    with pytest.raises(
        InvalidNotationError, match="the Jacoby rule and beavers belong to money play"
    ):
        Xgid(match_length=5, jacoby=True)
    with pytest.raises(InvalidNotationError, match="invalid XGID fields: a board is 26 integers"):
        Xgid(board=(0,) * 3)


@st.composite
def xgids(draw: st.DrawFn) -> Xgid:
    """Any XGID we can write."""
    length = draw(st.sampled_from((0, 0, 1, 3, 5, 7, 11, 25)))
    if length:
        score = (draw(st.integers(0, length - 1)), draw(st.integers(0, length - 1)))
        crawford = length - 1 in score and length > 1 and draw(st.booleans())
        jacoby = beavers = False
    else:
        score = (draw(st.integers(0, 99)), draw(st.integers(0, 99)))
        crawford = False
        jacoby, beavers = draw(st.booleans()), draw(st.booleans())
    turn = draw(st.sampled_from((0, 1)))
    cube_value = 1 if crawford else 1 << draw(st.integers(0, 15))
    owner = None if cube_value == 1 else draw(st.sampled_from((None, 0, 1)))
    offers: list[CubeOffer | None] = [None]
    if not crawford and owner in (None, turn):
        offers.append(CubeOffer.DOUBLE)
    if beavers and owner == 1 - turn:
        offers.append(CubeOffer.BEAVER)
    if beavers and owner == turn:
        offers.append(CubeOffer.RACCOON)
    offer = draw(st.sampled_from(offers))
    dice = None if offer else draw(st.none() | st.tuples(st.integers(1, 6), st.integers(1, 6)))
    return Xgid(
        board=draw(boards()),
        cube_value=cube_value,
        cube_owner=owner,
        turn=turn,
        dice=dice,
        offer=offer,
        score=score,
        crawford=crawford,
        jacoby=jacoby,
        beavers=beavers,
        match_length=length,
        max_cube=1 << draw(st.integers(0, 15)),
    )


@given(xgids())
def test_round_trip(position: Xgid) -> None:
    text = xgid(position)
    assert parse_xgid(text) == position
    assert xgid(parse_xgid(text)) == text


@given(st.text(max_size=80))
def test_any_text_parses_or_raises_invalid_notation(text: str) -> None:
    try:
        parse_xgid(text)
    except InvalidNotationError as error:
        assert repr(text) in str(error)


@given(
    st.lists(
        st.text(alphabet="-ABCOPabcop0123456789DBR:", max_size=27),
        min_size=10,
        max_size=10,
    )
)
def test_any_ten_fields_parse_or_raise_invalid_notation(fields: list[str]) -> None:
    text = "XGID=" + ":".join(fields)
    try:
        position = parse_xgid(text)
    except InvalidNotationError as error:
        assert repr(text) in str(error)
    else:
        assert parse_xgid(xgid(position)) == position


# Differential: GNU Backgammon's own XGID reader.

DIFFERENTIAL_XGIDS = 10000


def _random_xgid(rng: random.Random) -> Xgid:
    length = rng.choice((0, 0, 1, 3, 5, 7, 11, 25))
    turn = rng.randint(0, 1)
    if length:
        score = (rng.randint(0, length - 1), rng.randint(0, length - 1))
        if length > 1 and rng.random() < 0.3:
            score = (length - 1, score[1]) if rng.random() < 0.5 else (score[0], length - 1)
        crawford = length > 1 and length - 1 in score and rng.random() < 0.5
        jacoby = beavers = False
    else:
        score = (rng.randint(0, 30), rng.randint(0, 30))
        crawford = False
        jacoby, beavers = rng.random() < 0.5, rng.random() < 0.5
    cube_value = 1 if crawford else 1 << rng.randint(0, 12)
    return Xgid(
        board=random_board(rng),
        cube_value=cube_value,
        cube_owner=None if cube_value == 1 else rng.choice((None, 0, 1)),
        turn=turn,
        dice=None if rng.random() < 0.3 else (rng.randint(1, 6), rng.randint(1, 6)),
        score=score,
        crawford=crawford,
        jacoby=jacoby,
        beavers=beavers,
        match_length=length,
    )


def _as_gnubg_holds(position: Xgid) -> Xgid:
    """``position`` without what a GNU Backgammon ID loses: money scores, beavers, dice order."""
    return replace(
        position,
        score=position.score if position.match_length else (0, 0),
        beavers=False,
        dice=None if position.dice is None else (max(position.dice), min(position.dice)),
        max_cube=1024,
    )


# One checker a side: a state that no random position repeats.
RESET = xgid(Xgid(board=(0, -1, *(0,) * 22, 1, 0)))


def _gnubg_reads(gnubg: object, text: str) -> str:
    gnubg.set_gnubg_id(text)  # type: ignore[attr-defined]
    return str(gnubg.gnubg_id())  # type: ignore[attr-defined]


def test_gnubg_reads_our_xgids_as_we_do() -> None:
    """gnubg imports each XGID we write; its Position ID and Match ID are ours, and read
    back they give the XGID again (but for what a GNU Backgammon ID cannot hold)."""
    gnubg = load_gnubg()
    gnubg.command("set player 0 human")
    gnubg.command("set player 1 human")
    rng = random.Random(5)
    mismatches = []
    for _ in range(DIFFERENTIAL_XGIDS):
        position = _random_xgid(rng)
        text = xgid(position)
        # Reset to a different state first, so a refused import cannot look like success.
        _gnubg_reads(gnubg, RESET)
        theirs = _gnubg_reads(gnubg, text)
        if theirs != gnubg_id(position) or xgid(parse_gnubg_id(theirs)) != xgid(
            _as_gnubg_holds(position)
        ):
            mismatches.append(f"{text}: ours {gnubg_id(position)}, gnubg {theirs}")
    assert not mismatches, f"{len(mismatches)} mismatches, first: {mismatches[:3]}"


def test_gnubg_steps_back_from_a_pending_double() -> None:
    """With D, gnubg keeps the position from the doubler's side and drops the offer."""
    gnubg = load_gnubg()
    position = Xgid(board=START, cube_value=2, cube_owner=1, turn=1, offer=CubeOffer.DOUBLE)
    theirs = _gnubg_reads(gnubg, xgid(position))
    assert theirs.split(":")[0] == position_id(START, 1)
    without_offer = Xgid(board=START, cube_value=2, cube_owner=1, turn=1)
    assert theirs == gnubg_id(without_offer)


def test_gnubg_keeps_a_crawford_flag_exactly_where_we_accept_one() -> None:
    """Issue 14, defect 7. Where GNU Backgammon clears a Crawford flag on import (a 1-point
    match, nobody at match point) or refuses the ID (money play), we refuse it in one line;
    where it keeps the flag, we read the same IDs and a match and cube with that flag."""
    gnubg = load_gnubg()
    reset = _gnubg_reads(gnubg, RESET)
    mismatches = []
    for length in range(8):
        for score in itertools.product(range(max(length, 1)), repeat=2):
            # Match ID: the Crawford bit, playing, 3-1 rolled by its player 0 (our player 1).
            bits = CENTRED | 1 << 7 | 1 << 8 | 3 << 15 | 1 << 18 | length << 21
            bits |= score[0] << 36 | score[1] << 51
            texts = [f"{position_id(START, 1)}:{id_from_bits(bits)}"]
            if length:
                texts.append(f"XGID={OPENING[5:31]}:0:0:-1:31:{score[1]}:{score[0]}:1:{length}:10")
            for text in texts:
                _gnubg_reads(gnubg, RESET)
                theirs = _gnubg_reads(gnubg, text)
                kept = theirs != reset and parse_match_id(theirs.split(":")[1]).crawford
                parse = parse_xgid if text.startswith("XGID=") else parse_gnubg_id
                try:
                    position = parse(text)
                except InvalidNotationError as error:
                    assert "\n" not in str(error) and "Crawford" in str(error), error
                    accepted = False
                else:
                    accepted = theirs == gnubg_id(position)
                    assert position.match_state().crawford and position.cube_state().crawford
                if accepted != kept:
                    mismatches.append(f"{text}: gnubg {theirs}, ours accepted={accepted}")
    assert not mismatches, f"{len(mismatches)} mismatches: {mismatches[:3]}"


# Game states in and out of an XGID.


def _random_game_states(rng: random.Random, rules: Rules) -> list[tuple[MatchState, CubeState]]:
    """A money session or match played with random cube actions, every state on the way."""
    match = MatchState(rules)
    states = []
    while len(states) < 300:
        if match.is_over or match.game_number > 12:
            match = MatchState(rules)
        cube = match.start_game(roll_opening(rng, rules))
        while True:
            states.append((match, cube))
            player = cube.to_act
            if cube.phase is CubePhase.ROLLED:
                if rng.random() < 0.15:
                    result = cube.result(Outcome(player, rng.choice(list(WinKind))))
                    break
                cube = cube.end_turn(player)
            elif cube.phase is CubePhase.TO_ROLL:
                cube = (
                    cube.double(player)
                    if cube.can_double(player) and rng.random() < 0.3
                    else cube.roll(player)
                )
            else:
                choice = rng.random()
                if cube.can_beaver(player) and choice < 0.3:
                    cube = cube.beaver(player)
                elif choice < 0.8:
                    cube = cube.take(player)
                else:
                    result = cube.drop(player)
                    break
        match = match.after_game(result.points, result.winner)
    return states


@pytest.mark.parametrize(
    "rules",
    [
        Rules(),
        Rules(jacoby=True, beavers=True, automatic_doubles=True),
        Rules(match_length=7),
        Rules(match_length=3),
    ],
)
def test_game_states_survive_an_xgid(rules: Rules) -> None:
    rng = random.Random(rules.match_length * 10 + rules.beavers)
    states = _random_game_states(rng, rules)
    phases = {cube.phase for _, cube in states}
    assert (
        phases == set(CubePhase)
        if rules.beavers
        else phases == set(CubePhase) - {CubePhase.BEAVERED}
    )
    if rules.match_length:
        assert any(match.crawford for match, _ in states)
        assert any(match.post_crawford for match, _ in states)
    for match, cube in states:
        dice = (rng.randint(1, 6), rng.randint(1, 6)) if cube.phase is CubePhase.ROLLED else None
        position = parse_xgid(xgid(Xgid.from_game(START, match, cube, dice)))
        assert position.cube_state(rules) == cube
        assert position.dice == dice
        back = position.match_state(rules)
        assert (back.score, back.crawford, back.post_crawford) == (
            match.score,
            match.crawford,
            match.post_crawford,
        )


def test_from_game_refuses_dice_that_disagree_with_the_turn() -> None:
    match = MatchState()
    with pytest.raises(
        InvalidNotationError,
        match="dice go with a rolled turn and only with one, got None with the cube rolled",
    ):
        Xgid.from_game(START, match, CubeState(phase=CubePhase.ROLLED))
    with pytest.raises(InvalidNotationError, match="got \\(3, 1\\) with the cube to roll"):
        Xgid.from_game(START, match, CubeState(), (3, 1))
    with pytest.raises(InvalidNotationError, match="the cube follows"):
        Xgid.from_game(START, match, CubeState(Rules(match_length=3)))


def test_rules_given_must_agree_with_the_xgid() -> None:
    position = parse_xgid(OPENING)
    assert position.rules() == Rules(jacoby=True, beavers=True)
    with_doubles = Rules(jacoby=True, beavers=True, automatic_doubles=True)
    assert position.cube_state(with_doubles).rules == with_doubles
    with pytest.raises(InvalidRulesError, match="the XGID states jacoby=True, the rules False"):
        position.match_state(Rules(beavers=True))


def test_a_raccoon_has_no_cube_state() -> None:
    position = parse_xgid("XGID=-b----E-C---eE---c-e----B-:2:1:1:R:0:0:2:0:10")
    with pytest.raises(IllegalActionError, match="raccoons are not offered by these rules"):
        position.cube_state()
