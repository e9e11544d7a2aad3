"""Resigned games: replayed, exported as GNU Backgammon writes them, imported by gnubg.

GNU Backgammon 1.07 writes a resigned game in a ``.mat`` as its ``Wins N points`` alone
after the last move and in an ``.sgf`` as ``RE[W+2R]`` with no resignation node; the real
gnubg imports ours to the same score without a warning, and our readers read them back.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.record import (
    Doubled,
    GameEnded,
    InvalidEventError,
    MatchRecord,
    MatchStarted,
    OpeningRolled,
    Phase,
    Played,
    ResignAccepted,
    Resigned,
    ResignRefused,
    Taken,
    event_from_json,
    event_to_json,
    replay,
)
from controller.record.matfile import read_mat, write_mat
from controller.record.sgf import read_sgf, write_sgf
from controller.rules import START, Rules, WinKind, legal_plays
from tests.record.gnubg_program import COMPLAINTS, run_gnubg, scores
from tests.record.matches import NAMES, resigned_events

LENGTHS = (1, 3, 5, 7, 9, 11)


@pytest.fixture(scope="module")
def records() -> list[MatchRecord]:
    """Matches each with a resignation refused, then one accepted (various kinds, cubes)."""
    return [replay(resigned_events(400 + n, LENGTHS[n % len(LENGTHS)])) for n in range(12)]


def opening(rules: Rules = Rules(match_length=5)) -> list:  # noqa: B008
    return [MatchStarted(NAMES, rules), OpeningRolled((3, 1))]


def test_the_fixture_resigns_every_kind(records: list[MatchRecord]) -> None:
    ended = [g.result for r in records for g in r.games if g.result and g.result.resigned]
    assert len(ended) == len(records)
    assert {e.kind for e in ended if e is not None} == set(WinKind)


def test_a_resignation_accepted_scores_the_kind_times_the_cube() -> None:
    events = [*opening(), Resigned(0, WinKind.GAMMON), ResignAccepted(1)]
    state = replay(events).state
    assert state.phase is Phase.GAME_OVER
    assert state.pending is not None and (state.pending.winner, state.pending.points) == (1, 2)
    record = replay([*events, GameEnded(1, 2, WinKind.GAMMON, resigned=True)])
    assert record.state.match.score == (0, 2)


def test_a_resignation_refused_lets_play_go_on() -> None:
    events = [*opening(), Resigned(1, WinKind.BACKGAMMON)]
    assert replay(events).state.phase is Phase.RESIGNED
    assert replay(events).state.to_act == 0
    state = replay([*events, ResignRefused(0)]).state
    assert state.phase is Phase.TO_PLAY and state.dice == (3, 1)


@pytest.mark.parametrize(
    ("tail", "message"),
    [
        ([Resigned(0), ResignAccepted(0)], "player 0 offered the resignation"),
        ([ResignRefused(1)], "no resignation to answer"),
        ([Resigned(0), Resigned(1)], "a resignation is pending"),
        ([Resigned(0), GameEnded(1, 1, resigned=True)], "the game is not over"),
        (
            [Resigned(0), ResignAccepted(1), GameEnded(1, 1)],
            "the game's result is GameEnded(winner=1, points=1, kind=<WinKind.SINGLE: 1>, "
            "dropped=False, resigned=True)",
        ),
    ],
)
def test_resignations_out_of_place_are_refused(tail: list, message: str) -> None:
    with pytest.raises(InvalidEventError, match=message.replace("(", r"\(").replace(")", r"\)")):
        replay([*opening(), *tail])


def test_no_resignation_with_a_double_pending() -> None:
    money = [MatchStarted(NAMES, Rules()), OpeningRolled((3, 1))]
    play = legal_plays(START, 0, (3, 1))[0]
    events = [*money, Played(0, (3, 1), play.notation, play.result), Doubled(1, 2)]
    with pytest.raises(InvalidEventError, match="player 0 cannot resign now"):
        replay([*events, Resigned(0)])
    assert replay([*events, Taken(0), Resigned(1)]).state.phase is Phase.RESIGNED


def test_the_events_round_trip_as_json_and_old_game_ends_read_the_same() -> None:
    for event in (Resigned(0, WinKind.GAMMON), ResignAccepted(1), ResignRefused(1),
                  GameEnded(1, 4, WinKind.GAMMON, resigned=True)):  # fmt: skip
        assert event_from_json(event_to_json(event)) == event
    assert "resigned" not in event_to_json(GameEnded(1, 2))
    assert event_to_json(Resigned(0, WinKind.GAMMON)) == (
        '{"v":1,"type":"resigned","player":0,"kind":"gammon"}'
    )


def test_game_ended_by_a_drop_and_a_resignation_is_refused() -> None:
    with pytest.raises(InvalidEventError, match="by a drop or by a resignation, not both"):
        GameEnded(1, 1, dropped=True, resigned=True)


def test_exports_write_the_result_alone_and_read_back(records: list[MatchRecord]) -> None:
    for record in records:
        mat, sgf = write_mat(record), write_sgf(record)
        assert "R]" in sgf and "resign" not in mat.lower() + sgf.lower()
        for again in (read_mat(mat).record(), read_sgf(sgf)):
            assert again.state.match == record.state.match
            last = again.games[-1].result
            assert last is not None and last == record.games[-1].result


def test_gnubg_imports_resigned_games_to_the_same_score(
    records: list[MatchRecord], tmp_path: Path
) -> None:
    commands = []
    for number, record in enumerate(records):
        for suffix, text, command in (
            ("mat", write_mat(record), "import mat"),
            ("sgf", write_sgf(record), "load match"),
        ):
            path = tmp_path / f"resigned-{number}.{suffix}"
            path.write_text(text)
            commands += [f"{command} {path}", "show score"]
    output = run_gnubg(commands)
    assert not COMPLAINTS.search(output), COMPLAINTS.search(output)
    expected = [r.state.match.score for r in records for _ in range(2)]
    assert scores(output) == expected
