"""Dice corrected after a misread, games abandoned, the orientation confirmed: replay and
exports (imported by the real GNU Backgammon), and their JSON form."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.record import (
    DiceCorrected,
    Event,
    GameAbandoned,
    InvalidEventError,
    MatchStarted,
    OpeningRolled,
    OrientationConfirmed,
    Played,
    Rolled,
    event_from_json,
    event_to_json,
    replay,
)
from controller.record.decisions import decisions_of
from controller.record.matfile import write_mat
from controller.record.sgf import read_sgf, write_sgf
from controller.rules import START, Rules, legal_plays
from tests.record.gnubg_program import COMPLAINTS, run_gnubg, scores
from tests.record.matches import NAMES, selfplay_events


def misread(events: list[Event], count: int) -> tuple[list[Event], int]:
    """``events`` with the first ``count`` rolls read wrong, then corrected; how many.

    A roll is misread as a roll that cannot make the play recorded (so that a ``.mat``
    with the misread dice would not import), then corrected to the dice played.
    """
    out: list[Event] = []
    done = 0
    for index, event in enumerate(events):
        following = events[index + 1] if index + 1 < len(events) else None
        if (
            done < count
            and isinstance(event, Rolled)
            and isinstance(following, Played)
            and following.notation
            and event.dice[0] != event.dice[1]
        ):
            wrong = (event.dice[0] % 6 + 1, event.dice[1])
            if wrong[0] != wrong[1] and sorted(wrong) != sorted(event.dice):
                out += [Rolled(event.player, wrong), DiceCorrected(event.player, event.dice)]
                done += 1
                continue
        out.append(event)
    return out, done


def knocked_game() -> list[Event]:
    """An opening, a play and a roll of a game then abandoned."""
    first = next(p for p in legal_plays(START, 0, (3, 1)) if p.notation == "8/5 6/5")
    return [
        OpeningRolled((3, 1)),
        Played(0, (3, 1), first.notation, first.result),
        Rolled(1, (4, 4)),
        GameAbandoned("knocked board"),
    ]


def test_new_events_round_trip_through_json() -> None:
    for event in (
        DiceCorrected(1, (6, 2)),
        GameAbandoned("knocked board"),
        GameAbandoned(),
        OrientationConfirmed(far=True, colour_b=False),
    ):
        assert event_from_json(event_to_json(event)) == event
    with pytest.raises(InvalidEventError, match=r"far is True or False, got 1"):
        OrientationConfirmed(1, False)  # type: ignore[arg-type]
    with pytest.raises(InvalidEventError, match=r"dice are two numbers from 1 to 6, got \(7, 2\)"):
        DiceCorrected(0, (7, 2))


def test_the_replay_checks_where_the_new_events_may_stand() -> None:
    start = MatchStarted(NAMES, Rules(match_length=3))
    with pytest.raises(InvalidEventError, match="no game in progress"):
        replay([start, GameAbandoned()])
    with pytest.raises(InvalidEventError, match="no dice of player 1 to correct"):
        replay([start, OpeningRolled((3, 1)), DiceCorrected(1, (6, 2))])
    with pytest.raises(InvalidEventError, match="the orientation is set before a game"):
        replay([start, OpeningRolled((3, 1)), OrientationConfirmed(False, False)])
    record = replay([start, OrientationConfirmed(True, True), *knocked_game()])
    assert record.state.orientation == OrientationConfirmed(True, True)
    assert record.state.abandoned == 1 and record.games == ()
    assert (record.state.match.score, record.state.match.game_number) == ((0, 0), 1)
    assert record.state.describe().endswith("game 1: awaiting the opening roll")
    # A tie of the opening roll may be abandoned too; then the game starts again.
    record = replay([start, OpeningRolled((2, 2)), GameAbandoned(), OpeningRolled((5, 1))])
    assert record.games[0].opening == (OpeningRolled((5, 1)),)


def test_corrected_dice_and_an_abandoned_game_export_and_import_into_gnubg(
    tmp_path: Path,
) -> None:
    commands = []
    records = []
    for number, length in enumerate((3, 5, 7)):
        played = selfplay_events(400 + number, length)
        events, corrected = misread(played, 6)
        assert corrected == 6
        # The first game is knocked over after a few moves and abandoned.
        events = [events[0], OrientationConfirmed(False, False), *knocked_game(), *events[1:]]
        record = replay(events)
        plain = replay(played)
        assert record.state.match == plain.state.match
        assert len(record.games) == len(plain.games)
        mat, sgf = write_mat(record), write_sgf(record)
        # The exports hold the dice as corrected: the same files as without the misreads.
        assert (mat, sgf) == (write_mat(plain), write_sgf(plain))
        assert read_sgf(sgf).state.match == record.state.match
        for suffix, text, command in ((".mat", mat, "import mat"), (".sgf", sgf, "load match")):
            path = tmp_path / f"corrected-{number}{suffix}"
            path.write_text(text)
            commands += [f"{command} {path}", "show score"]
            records.append(record)
    output = run_gnubg(commands)
    assert not COMPLAINTS.search(output), COMPLAINTS.search(output)
    assert scores(output) == [r.state.match.score for r in records]


def test_without_the_correction_the_misread_roll_does_not_replay() -> None:
    events, _ = misread(selfplay_events(400, 3), 1)
    uncorrected = [e for e in events if not isinstance(e, DiceCorrected)]
    with pytest.raises(InvalidEventError, match="the dice rolled were"):
        replay(uncorrected)


def test_an_abandoned_game_has_no_decisions_to_review() -> None:
    played = selfplay_events(401, 3)
    events = [played[0], *knocked_game(), *played[1:]]
    assert decisions_of(replay(events)) == decisions_of(replay(played))
