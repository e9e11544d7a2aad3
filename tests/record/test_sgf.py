"""GNU Backgammon ``.sgf``: the layout gnubg saves, edits, and reading back against the rules."""

from __future__ import annotations

import pytest

from controller.record import (
    Event,
    Flagged,
    GameRecord,
    IllegalPlayAccepted,
    Observed,
    Played,
    PositionEdited,
    Rolled,
    SgfError,
    replay,
)
from controller.record.matfile import read_mat
from controller.record.sgf import read_sgf, write_sgf
from controller.rules import Rules
from tests.record.matches import irregular_events, selfplay_events
from tests.record.test_matfile import FORMATS_EXAMPLE

# What GNU Backgammon 1.07 saves for FORMATS.md's example after importing it (`save
# match`), without its application, date and statistics properties; within a roll the
# moves may come in another order (gnubg wrote 52 as `lnlq`).
GNUBG_SAVED = """\
(;FF[4]GM[6]CA[UTF-8]AP[Tabula:0.1]MI[length:3][game:0][ws:0][bs:0]PW[Alice]PB[Bob]RU[Crawford]RE[W+1]
;W[31hefe]
;B[52lqln]
;W[64xrmi]
;B[62agln]
;W[double]
;B[drop])
(;FF[4]GM[6]CA[UTF-8]AP[Tabula:0.1]MI[length:3][game:1][ws:1][bs:0]PW[Alice]PB[Bob]RU[Crawford]RE[B+1]
;B[43lplo]
;W[55mhmhhchc]
;B[double]
;W[drop])
"""


def comparable(game: GameRecord) -> tuple[object, ...]:
    """A game as an .sgf keeps it: dice in order, no mid-turn boards or verdicts."""

    def action(event: Event) -> Event:
        if isinstance(event, Played):
            return Played(event.player, (min(event.dice), max(event.dice)), event.notation,
                          event.board)  # fmt: skip
        if isinstance(event, Rolled):
            return Rolled(event.player, (min(event.dice), max(event.dice)))
        if isinstance(event, IllegalPlayAccepted):
            return IllegalPlayAccepted(event.player, (min(event.dice), max(event.dice)),
                                       event.before, event.after)  # fmt: skip
        return event

    actions = tuple(action(a) for a in game.actions if not isinstance(a, Observed | Flagged))
    return (game.number, game.score, game.crawford, game.opening, game.result, actions)


def test_the_formats_example_is_written_as_gnubg_saves_it() -> None:
    record = read_mat(FORMATS_EXAMPLE).record()
    assert write_sgf(record) == GNUBG_SAVED
    assert read_sgf(GNUBG_SAVED).state == record.state


@pytest.mark.parametrize("seed", range(3))
def test_matches_round_trip_through_sgf(seed: int) -> None:
    record = replay(selfplay_events(seed, 3 + 2 * seed))
    again = read_sgf(write_sgf(record))
    assert [comparable(g) for g in again.games] == [comparable(g) for g in record.games]
    assert again.state.match == record.state.match


@pytest.mark.parametrize(
    "rules",
    [Rules(match_length=5), Rules(jacoby=True, beavers=True, automatic_doubles=True)],
    ids=["match", "money"],
)
def test_illegal_plays_and_edits_round_trip_through_sgf(rules: Rules) -> None:
    record = replay(irregular_events(4, rules, games=6))
    text = write_sgf(record)
    assert "AE[a:y]" in text and "DI[" in text
    again = read_sgf(text)
    assert [comparable(g) for g in again.games] == [comparable(g) for g in record.games]
    kinds = {type(a) for g in again.games for a in g.actions}
    assert {IllegalPlayAccepted, PositionEdited} <= kinds


def test_an_edit_node_clears_the_board_then_places_every_checker() -> None:
    record = replay(irregular_events(1, Rules(match_length=3)))
    edit = next(a for g in record.games for a in g.actions if isinstance(a, PositionEdited))
    node = next(line for line in write_sgf(record).splitlines() if "checker misplaced" in line)
    assert node.startswith(";PL[") and "AE[a:y]AW[" in node
    assert node.count("[") - 2 == sum(abs(n) for n in edit.board) + 1  # PL, AE, C


def test_a_game_stopped_mid_turn_keeps_its_roll() -> None:
    events = selfplay_events(2, 3)
    cut = next(i for i, e in enumerate(events) if isinstance(e, Rolled) and i > 20)
    record = replay(events[: cut + 1])
    text = write_sgf(record)
    roll = events[cut]
    assert isinstance(roll, Rolled)
    assert text.rstrip().endswith(f"DI[{max(roll.dice)}{min(roll.dice)}])")
    assert read_sgf(text).state.dice is not None


def test_an_illegal_move_in_an_sgf_is_refused() -> None:
    text = GNUBG_SAVED.replace(";W[64xrmi]", ";W[64xrmh]")
    with pytest.raises(SgfError, match=r"game 1: W\[64xrmh\] is not a legal play"):
        read_sgf(text)


def test_a_wrong_result_is_refused() -> None:
    with pytest.raises(SgfError, match=r"game 2: RE\[B\+2\]: the game is worth 1, not 2"):
        read_sgf(GNUBG_SAVED.replace("RE[B+1]", "RE[B+2]"))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "no game tree in this .sgf text"),
        ("(;FF[4]GM[1])", "GM[1] is not backgammon (GM[6])"),
        ("(;GM[6]", "the text ends inside a game tree"),
        ("(;GM[6]))", "unbalanced ')' at offset 8"),
        ("(;GM[6]PW[a:b])", "game 1 root: invalid MatchStarted"),
        ("x", "unexpected 'x' at offset 0"),
    ],
)
def test_text_that_is_no_sgf_match_raises(text: str, message: str) -> None:
    with pytest.raises(SgfError) as caught:
        read_sgf(text)
    assert message in str(caught.value)


def test_names_are_escaped() -> None:
    record = read_mat(FORMATS_EXAMPLE.replace("Bob", "Bob]\\x")).record()
    text = write_sgf(record)
    assert "PB[Bob\\]\\\\x]" in text
    assert read_sgf(text).names == ("Alice", "Bob]\\x")
