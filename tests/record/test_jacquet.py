"""Jacquet de Versailles in the match record: the variant, the primauté, numbers handed
over and declined, no cube, 1 or 2 points a game; old records read as backgammon;
GNU Backgammon's formats refused, JSON lines and text offered."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from controller import record
from controller.record.matfile import write_mat
from controller.record.plain import gnubg_refusal, write_events, write_text
from controller.record.sgf import write_sgf
from controller.rules import (
    BACKGAMMON,
    JACQUET,
    JACQUET_LUDII,
    NACKGAMMON,
    IllegalActionError,
    Rules,
    WinKind,
)
from controller.simulated.players import jacquet_record_events

NAMES = ("Ann", "Bob")


def jacquet_match(seed: int = 44, games: int = 2) -> list[record.Event]:
    rng = random.Random(seed)
    return list(jacquet_record_events(Rules(3), rng, games=games, decline_rate=1.0))


def test_the_variant_is_in_match_started_and_old_records_read_as_backgammon() -> None:
    start = record.MatchStarted(NAMES, Rules(3), "jacquet-versailles")
    data = record.event_to_dict(start)
    assert data["variant"] == "jacquet-versailles"
    assert record.event_from_dict(data) == start
    old = record.event_to_dict(record.MatchStarted(NAMES, Rules(3)))
    assert "variant" not in old  # backgammon records are written as before
    assert record.event_from_dict(old).variant == "backgammon"  # type: ignore[union-attr]
    assert record.replay([record.event_from_dict(old)]).variant is BACKGAMMON
    with pytest.raises(record.InvalidEventError, match="unknown variant 'chess'"):
        record.MatchStarted(NAMES, Rules(3), "chess")
    declined = record.Declined(1)
    assert record.event_from_json(record.event_to_json(declined)) == declined


def test_a_jacquet_match_replays_with_its_primaute_hand_overs_declines_and_score() -> None:
    events = jacquet_match()
    match = record.replay(events)
    assert match.variant is JACQUET and len(match.games) == 2
    assert any(isinstance(e, record.Declined) for e in events)
    for game in match.games:
        assert game.opening and game.result is not None
        assert game.result.points == (2 if game.result.kind is WinKind.GAMMON else 1)
    wins = [0, 0]
    for game in match.games:
        assert game.result is not None
        wins[game.result.winner] += game.result.points
    assert match.state.match.score == tuple(wins)
    assert match.state.cube is None


def test_every_prefix_of_a_jacquet_match_has_a_snapshot_that_says_who_acts() -> None:
    events = jacquet_match(7, games=1)
    for cut in range(1, len(events), 37):
        state = record.replay(events[:cut]).state
        following = events[cut]
        if isinstance(following, record.Rolled | record.Played | record.Declined):
            assert state.to_act == following.player, (cut, state.describe())
            assert state.phase in (record.Phase.TO_ROLL, record.Phase.TO_PLAY)
        if isinstance(following, record.OpeningRolled):
            assert state.phase is record.Phase.OPENING


@pytest.mark.parametrize(
    ("event", "reason"),
    [
        (record.Doubled(0, 2), "played without the doubling cube"),
        (record.Rolled(0, (3, 1)), "the first turn is thrown for"),
        (record.Declined(0), "is to throw for the primauté"),
    ],
)
def test_what_a_jacquet_game_cannot_have_is_refused(event: record.Event, reason: str) -> None:
    start = record.MatchStarted(NAMES, Rules(3), JACQUET.name)
    with pytest.raises(record.InvalidEventError, match=reason):
        record.replay([start, event])


def test_a_play_with_the_wrong_dice_or_a_wrong_board_is_refused() -> None:
    events = jacquet_match(7, games=1)
    index = next(i for i, e in enumerate(events) if isinstance(e, record.Played) and i > 5)
    played = events[index]
    assert isinstance(played, record.Played)
    other = (1, 1) if sorted(played.dice) != [1, 1] else (2, 2)
    with pytest.raises(record.InvalidEventError, match="the numbers come from the throw"):
        record.replay([*events[:index], replace(played, dice=other)])
    with pytest.raises(record.InvalidEventError, match="no legal play reaches this board"):
        record.replay([*events[:index], replace(played, board=JACQUET.start)])


def test_ludii_s_ruleset_starts_with_player_0_s_throw() -> None:
    events = list(jacquet_record_events(Rules(1), random.Random(3), JACQUET_LUDII, games=1))
    assert isinstance(events[1], record.Rolled)
    match = record.replay(events)
    assert match.variant is JACQUET_LUDII and match.state.match.is_over


def test_a_nackgammon_match_starts_from_nackgammon_s_position() -> None:
    start = record.MatchStarted(NAMES, Rules(3), NACKGAMMON.name)
    state = record.replay([start, record.OpeningRolled((3, 1))]).state
    assert state.board == NACKGAMMON.start and state.to_act == 0


def test_gnubg_formats_are_refused_for_jacquet_and_the_plain_records_offered() -> None:
    events = jacquet_match(7, games=1)
    match = record.replay(events)
    refusal = gnubg_refusal(match, ".sgf")
    assert refusal == (
        "a .sgf file holds backgammon, not jacquet-versailles: export the match as JSON "
        "lines or text instead (tabula export --format jsonl|txt)"
    )
    with pytest.raises(record.SgfError, match=r"a \.sgf file holds backgammon"):
        write_sgf(match)
    with pytest.raises(record.MatFileError, match=r"a \.mat file holds backgammon"):
        write_mat(match)
    with pytest.raises(IllegalActionError, match="XGID and GNU Backgammon IDs"):
        match.state.position()
    lines = write_events(match).splitlines()
    assert [record.event_from_json(line) for line in lines] == events
    text = write_text(match)
    assert text.startswith("White - Black, jacquet-versailles, 3-point match\n")
    assert "first throw" in text and "wins" in text


def test_an_abandoned_jacquet_game_starts_again_with_the_primaute() -> None:
    events = jacquet_match(7, games=1)[:12]
    state = record.replay([*events, record.GameAbandoned("knocked board")]).state
    assert state.phase is record.Phase.OPENING and state.board == JACQUET.start
    assert state.jacquet is not None and state.jacquet.primaute and state.abandoned == 1
    again = record.replay([*events, record.GameAbandoned("knocked"), record.OpeningRolled((6, 1))])
    assert again.state.to_act == 0 and again.state.dice == (6, 1)
