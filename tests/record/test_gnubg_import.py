"""Exported files imported by the real GNU Backgammon: no warning, the same score.

Every ``.mat`` and ``.sgf`` below is imported headless (``import mat`` / ``load match``,
then ``show score``), several per gnubg run. GNU Backgammon checks a ``.mat``'s moves (an
illegal one prints a warning) but not an ``.sgf``'s, so each ``.sgf`` is also read back
and replayed against the rules; and the boards its position edits set are compared with
GNU Backgammon's own Position IDs.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from controller.record import (
    IllegalPlayAccepted,
    MatchRecord,
    PositionEdited,
    replay,
)
from controller.record.matfile import write_mat
from controller.record.sgf import read_sgf, write_sgf
from controller.rules import MatchKey, Rules, gnubg_id, parse_match_id, position_id, xgid
from tests.record.gnubg_program import (
    COMPLAINTS,
    MATCH_ID,
    POSITION_ID,
    run_gnubg,
    scores,
)
from tests.record.matches import irregular_events, selfplay_events

LENGTHS = (1, 3, 5, 7, 9, 11, 2, 4)
MATCHES = 20


@pytest.fixture(scope="module")
def matches() -> list[MatchRecord]:
    """20 simulated matches of various lengths, with cube actions."""
    return [replay(selfplay_events(100 + n, LENGTHS[n % len(LENGTHS)])) for n in range(MATCHES)]


@pytest.fixture(scope="module")
def irregular() -> list[MatchRecord]:
    """Matches and money sessions with illegal plays accepted and position edits."""
    records = [replay(irregular_events(200 + n, Rules(match_length=3 + 2 * n))) for n in range(6)]
    records += [
        replay(irregular_events(300 + n, Rules(jacoby=True, beavers=True,
                                               automatic_doubles=n % 2 == 0), games=5))
        for n in range(2)
    ]  # fmt: skip
    return records


def test_matches_have_cube_actions_and_several_lengths(matches: list[MatchRecord]) -> None:
    kinds = {type(a).__name__ for m in matches for g in m.games for a in g.actions}
    assert {"Doubled", "Taken", "Dropped"} <= kinds
    assert len({m.rules.match_length for m in matches}) == len(LENGTHS)
    assert sum(len(m.games) for m in matches) >= 60


def test_mat_files_import_without_warning_to_the_same_score(
    matches: list[MatchRecord], tmp_path: Path
) -> None:
    commands = []
    for number, record in enumerate(matches):
        path = tmp_path / f"match-{number}.mat"
        path.write_text(write_mat(record))
        commands += [f"import mat {path}", "show score"]
    output = run_gnubg(commands)
    assert not COMPLAINTS.search(output), COMPLAINTS.search(output)
    assert scores(output) == [m.state.match.score for m in matches]


def test_sgf_files_load_without_warning_to_the_same_score_and_replay(
    matches: list[MatchRecord], irregular: list[MatchRecord], tmp_path: Path
) -> None:
    records = matches + irregular
    commands = []
    for number, record in enumerate(records):
        text = write_sgf(record)
        again = read_sgf(text)  # gnubg does not check .sgf moves: the rules do
        assert again.state.match == record.state.match
        path = tmp_path / f"match-{number}.sgf"
        path.write_text(text)
        commands += [f"load match {path}", "show score"]
    output = run_gnubg(commands)
    assert not COMPLAINTS.search(output), COMPLAINTS.search(output)
    assert scores(output) == [r.state.match.score for r in records]


def test_illegal_plays_and_edits_set_the_same_board_in_gnubg(tmp_path: Path) -> None:
    events = irregular_events(7, Rules(match_length=5))
    cuts = [
        index + 1
        for index, event in enumerate(events)
        if isinstance(event, IllegalPlayAccepted | PositionEdited)
    ]
    assert len(cuts) >= 8
    commands = []
    expected = []
    for number, cut in enumerate(cuts[:12]):
        state = replay(events[:cut]).state
        assert state.cube is not None
        path = tmp_path / f"cut-{number}.sgf"
        path.write_text(write_sgf(replay(events[:cut])))
        commands += [f"load match {path}", "show board"]
        expected.append(position_id(state.board, state.cube.turn))
    output = run_gnubg(commands)
    shown = POSITION_ID.findall(output)
    # gnubg shows the board once on loading and once for `show board`.
    assert shown[1::2] == expected


def mirrored(key: MatchKey) -> MatchKey:
    """The same match key with GNU Backgammon's two player numbers swapped."""
    return replace(
        key,
        player_on_roll=1 - key.player_on_roll,
        turn=1 - key.turn,
        score=(key.score[1], key.score[0]),
        cube_owner=None if key.cube_owner is None else 1 - key.cube_owner,
    )


def test_exported_ids_are_what_gnubg_shows_for_the_xgid() -> None:
    """``tabula export --position`` prints an XGID and IDs that gnubg agrees with.

    Which player GNU Backgammon numbers 0 after ``set xgid`` depends on its session (its
    first reading of an XGID makes the bottom player its player 1, a later one may not):
    the Position ID must be the same, the Match ID the same or its mirror image.
    """
    events = selfplay_events(5, 5)
    for cut in (30, 61, 95):
        position = replay(events[:cut]).state.position()
        output = run_gnubg([f"set xgid {xgid(position)}", "show board"])
        ours_position, ours_match = gnubg_id(position).split(":")
        assert POSITION_ID.findall(output)[-1] == ours_position
        shown = parse_match_id(MATCH_ID.findall(output)[-1])
        assert shown in (parse_match_id(ours_match), mirrored(parse_match_id(ours_match)))
