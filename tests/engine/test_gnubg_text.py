"""Reading GNU Backgammon's answers: notation replayed to boards, hint and cube listings."""

from __future__ import annotations

import pytest

from controller.engine._gnubg import (
    apply_notation,
    check_may_double,
    parse_cube,
    parse_hint,
    rank,
    replay_tuple,
)
from controller.engine.errors import EngineProtocolError
from controller.rules import START, Xgid, flip, legal_plays
from controller.rules.errors import IllegalActionError
from controller.rules.position_id import gnubg_board

# Player 1 split a back checker up to 18 (a blot there) and made nothing new.
HITS = list(START)
HITS[18], HITS[17] = -1, -2
BEAR_OFF = (0, 3, 3, 3, 3, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -3, -3, -3, -2, -2, -2, 0, 0)


@pytest.mark.parametrize(
    ("board", "player", "dice"),
    [
        (START, 0, (6, 5)),
        (START, 1, (4, 2)),
        (tuple(HITS), 0, (6, 5)),
        (tuple(HITS), 0, (3, 3)),
        (BEAR_OFF, 0, (6, 4)),
        (BEAR_OFF, 0, (1, 1)),
        (flip(BEAR_OFF), 1, (5, 2)),
    ],
)
def test_every_legal_notation_replays_to_its_own_result(
    board: tuple[int, ...], player: int, dice: tuple[int, int]
) -> None:
    for play in legal_plays(board, player, dice):
        assert apply_notation(board, player, play.notation) == play.result, play.notation


def test_notation_hits_enter_from_the_bar_and_bear_off() -> None:
    after = apply_notation(tuple(HITS), 0, "24/18*/13")
    assert after[24] == 1 and after[13] == 6 and after[18] == 0 and after[0] == -1
    # Player 0 has a checker on the bar, player 1 a blot on player 0's entry point 22.
    on_bar = (0, -2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 4, 0, 0, 0, -3, 0, -5, 0, 0, -1, 0, 2, 1)
    entered = apply_notation(on_bar, 0, "bar/22*")
    assert entered[25] == 0 and entered[22] == 1 and entered[0] == -1
    borne = apply_notation(BEAR_OFF, 0, "6/off 4/off(2)")
    assert borne[6] == 0 and borne[4] == 1 and sum(n for n in borne if n > 0) == 12


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("24/18 13", "cannot read the engine's move '24/18 13' at '13'"),
        ("7/1", "the engine's move '7/1' moves a checker from 7"),
        ("13/1", "the engine's move '13/1' lands on a point held at 1"),
        ("6/9", "the engine's move '6/9' moves a checker from 6"),
    ],
)
def test_unplayable_notation_names_the_move(text: str, message: str) -> None:
    with pytest.raises(EngineProtocolError, match="^" + message.replace("(", r"\(")):
        apply_notation(START, 0, text)


def test_bindings_tuples_replay_and_a_cut_tuple_is_refused() -> None:
    assert replay_tuple(START, 0, (8, 5, 6, 5)) == next(
        play.result for play in legal_plays(START, 0, (3, 1)) if play.notation == "8/5 6/5"
    )
    with pytest.raises(EngineProtocolError, match=r"move tuple \(6,\) is cut short"):
        replay_tuple(BEAR_OFF, 0, (6,))


def test_gnubg_board_is_opponent_then_mover_each_from_its_own_side() -> None:
    theirs, mine = gnubg_board(START, 0)
    assert mine == theirs == (0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, *(0,) * 10, 2, 0)
    assert gnubg_board(BEAR_OFF, 1) == tuple(reversed(gnubg_board(BEAR_OFF, 0)))


def test_rank_sorts_best_first_and_refuses_strangers_and_gaps() -> None:
    plays = legal_plays(START, 0, (6, 5))
    judged = [(play.result, -index / 10, 0, None) for index, play in enumerate(plays)]
    ranked = rank(START, 0, (6, 5), reversed(judged))
    assert [r.play for r in ranked] == list(plays)
    with pytest.raises(EngineProtocolError, match="did not judge the legal plays"):
        rank(START, 0, (6, 5), judged[1:])
    with pytest.raises(EngineProtocolError, match="which no legal play of"):
        rank(START, 0, (6, 5), [*judged, (START, 0.0, 0, None)])


HINT = """\
    1. Cubeful 2-ply    24/22 13/8                   Eq.: +0.00412
       0.501 0.135 0.005 - 0.499 0.131 0.004
        2-ply cubeful prune [world class]
    2. Cubeful 0-ply    8/3 6/4                      Eq.: -0.19800 (-0.20212)
       0.452 0.123 0.008 - 0.548 0.180 0.015
"""

CUBE = """\
Cube analysis
2-ply cubeless equity +0.719
  0.859 0.000 0.000 - 0.141 0.000 0.000
Cubeful equities:
1. Double, pass        +1.000
2. Double, take        +1.352  (+0.352)
3. No double           +0.959  (-0.041)
Proper cube action: Double, pass
"""


def test_hint_and_cube_listings_parse() -> None:
    assert parse_hint(HINT) == [("24/22 13/8", 0.00412, 2), ("8/3 6/4", -0.198, 0)]
    assert parse_cube(CUBE) == (0.959, 1.352, 1.0, 2, (0.859, 0.0, 0.0, 0.0, 0.0))
    with pytest.raises(EngineProtocolError, match="cannot read the engine's cube analysis"):
        parse_cube("You cannot double.")


def test_cube_questions_the_rules_forbid_are_refused() -> None:
    with pytest.raises(IllegalActionError, match="player 0 cannot double: player 1 owns"):
        check_may_double(Xgid(cube_value=2, cube_owner=1))
    with pytest.raises(IllegalActionError, match="nobody doubles in the Crawford game"):
        check_may_double(Xgid(match_length=5, score=(4, 2), crawford=True))
    check_may_double(Xgid(cube_value=2, cube_owner=0))
