"""Jellyfish ``.mat``: GNU Backgammon's layout, round trips, and the tolerant reader."""

from __future__ import annotations

import re

import pytest

from controller.record import (
    Event,
    GameRecord,
    MatchRecord,
    MatFileError,
    OpeningRolled,
    Played,
    Rolled,
    replay,
)
from controller.record.matfile import read_mat, write_mat
from controller.rules import Rules
from tests.record.matches import irregular_events, selfplay_events

# FORMATS.md's example, which GNU Backgammon imports cleanly (score 1-1 after 2 games).
FORMATS_EXAMPLE = """\
 3 point match

 Game 1
 Alice : 0                          Bob : 0
  1) 31: 8/5 6/5                    52: 13/8 13/11
  2) 64: 24/18 13/9                 62: 24/18 13/11
  3)  Doubles => 2                   Drops
      Wins 1 point

 Game 2
 Alice : 1                          Bob : 0
  1)                                43: 13/9 13/10
  2) 55: 13/3(2)                     Doubles => 2
  3)  Drops                          Wins 1 point
"""

# The same match as Tabula writes it: GNU Backgammon's own export layout, one move per die.
WRITTEN = """\
 3 point match

 Game 1
 Alice : 0                      Bob : 0
  1) 31: 8/5 6/5                 52: 13/8 13/11
  2) 64: 24/18 13/9              62: 24/18 13/11
  3)  Doubles => 2                Drops
      Wins 1 point

 Game 2
 Alice : 1                      Bob : 0
  1)                             43: 13/9 13/10
  2) 55: 13/8 13/8 8/3 8/3        Doubles => 2
  3)  Drops                       Wins 1 point

"""


def normalised(game: GameRecord) -> tuple[object, ...]:
    """A game with each roll's dice in order (a .mat writes the higher die first)."""

    def action(event: Event) -> Event:
        if isinstance(event, Played):
            dice = (min(event.dice), max(event.dice))
            return Played(event.player, dice, event.notation, event.board)
        if isinstance(event, Rolled):
            return Rolled(event.player, (min(event.dice), max(event.dice)))
        return event

    return (game.number, game.score, game.crawford, game.opening, game.result,
            tuple(action(a) for a in game.actions), game.board)  # fmt: skip


def test_formats_example_reads_and_writes_in_gnubg_layout() -> None:
    mat = read_mat(FORMATS_EXAMPLE)
    assert mat.errors == ()
    record = mat.record()
    assert record.names == ("Alice", "Bob")
    assert record.state.match.score == (1, 1)
    second = record.games[1]
    assert second.opening == (OpeningRolled((3, 4)),)
    assert [a.notation for a in second.actions if isinstance(a, Played)] == [
        "13/10 13/9", "13/3(2)",
    ]  # fmt: skip
    written = write_mat(record)
    assert [line.rstrip() for line in written.splitlines()] == WRITTEN.splitlines()
    # The left column is padded (as GNU Backgammon pads it): no move line is short enough
    # to make GNU Backgammon re-read the line before it.
    assert all(len(line) >= 33 for line in written.splitlines() if line[:5].strip(" )").isdigit()
               or "Wins" in line)  # fmt: skip
    assert read_mat(WRITTEN).record().state == record.state


@pytest.mark.parametrize(("seed", "length"), [(0, 1), (1, 3), (2, 5), (3, 7), (4, 9)])
def test_matches_round_trip_through_mat(seed: int, length: int) -> None:
    record = replay(selfplay_events(seed, length))
    again = read_mat(write_mat(record))
    assert again.errors == ()
    assert [normalised(g) for g in again.record().games] == [normalised(g) for g in record.games]
    assert again.record().state.match == record.state.match


def test_long_left_cells_keep_a_blank_before_the_right_column() -> None:
    longest = 0
    for seed in range(8):
        text = write_mat(replay(selfplay_events(seed, 5)))
        for line in text.splitlines():
            cells = list(re.finditer(r"[1-6][1-6]:", line))
            if len(cells) == 2:
                left = line[cells[0].start() : cells[1].start()].rstrip()
                longest = max(longest, len(left))
                assert line[cells[1].start() - 1] == " ", line
                assert cells[1].start() >= 33, line
    assert longest >= 28  # some left cell filled the column (four moves with hits)


def test_an_unfinished_match_is_written_as_far_as_it_goes() -> None:
    events = selfplay_events(5, 5)
    cut = next(i for i, e in enumerate(events) if isinstance(e, Rolled) and i > 40)
    text = write_mat(replay(events[: cut + 1]))
    assert "Wins" not in text.split(" Game ")[-1]
    again = read_mat(text)
    assert again.errors == ()
    assert again.record().state.dice is None  # a roll without its play is not in a .mat


def test_the_reader_collects_errors_per_game_and_goes_on() -> None:
    text = FORMATS_EXAMPLE.replace("31: 8/5 6/5", "31: 8/4 6/5").replace(
        " Alice : 1 ", " Alice   1 "
    )
    text += "\n Game 3\n Alice : 1                          Bob : 1\n  1) 21: 13/11 6/5\n"
    mat = read_mat(text)
    assert mat.errors == (
        "game 1, line 5: '31: 8/4 6/5' is not a legal play for Alice",
        "game 2 (line 10): no 'name : score' line",
    )
    assert [g.errors != () for g in mat.games] == [True, True, False]
    assert isinstance(mat.games[2].events[-1], Played)
    with pytest.raises(MatFileError, match="is not a legal play for Alice; game 2"):
        mat.record()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("hello\n", "not a .mat match: no ' N point match' line"),
        (" 5 point match\n\n", "no game in this 5-point match"),
    ],
)
def test_text_that_is_no_match_raises(text: str, message: str) -> None:
    with pytest.raises(MatFileError, match=re.escape(message)):
        read_mat(text)


def test_money_play_and_irregular_games_need_sgf() -> None:
    record = replay(irregular_events(1, Rules(match_length=3)))
    with pytest.raises(MatFileError, match="game 1 has an illegal play accepted or a position"):
        write_mat(record)
    money = MatchRecord(record.names, Rules(), (), record.state)
    with pytest.raises(MatFileError, match="holds match play, not money play"):
        write_mat(money)
