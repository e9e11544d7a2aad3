"""Record events: validation on construction and the versioned JSON form."""

from __future__ import annotations

import json

import pytest

from controller.match.errors import InvalidEventError
from controller.match.event_json import (
    FORMAT_VERSION,
    event_from_dict,
    event_from_json,
    event_to_dict,
    event_to_json,
    events_from_json,
)
from controller.match.events import (
    Beavered,
    Declined,
    DiceCorrected,
    Doubled,
    Dropped,
    Event,
    Flagged,
    GameAbandoned,
    GameEnded,
    IllegalPlayAccepted,
    MatchStarted,
    Observed,
    OpeningRolled,
    OrientationConfirmed,
    Played,
    PositionEdited,
    ResignAccepted,
    Resigned,
    ResignRefused,
    Rolled,
    Taken,
)
from controller.rules import START, Rules, WinKind, flip

EVERY_EVENT: list[Event] = [
    MatchStarted(("Alice", "Bob Smith"), Rules(match_length=7)),
    MatchStarted(("A", "B"), Rules(jacoby=True, beavers=True, automatic_doubles=True)),
    OpeningRolled((3, 1)),
    OpeningRolled((4, 4)),
    Rolled(1, (6, 5)),
    Played(0, (3, 1), "8/5 6/5", START),
    Played(1, (6, 6), "", START),
    IllegalPlayAccepted(0, (2, 1), START, flip(START)),
    Observed(START),
    Flagged(1, START, "must use both dice"),
    PositionEdited(START, "checker misplaced"),
    PositionEdited(START),
    Doubled(0, 2),
    Taken(1),
    Dropped(0),
    Beavered(1, 4),
    GameEnded(1, 6, WinKind.BACKGAMMON),
    GameEnded(0, 2, dropped=True),
]


@pytest.mark.parametrize("event", EVERY_EVENT, ids=lambda e: type(e).__name__)
def test_every_event_round_trips_through_json(event: Event) -> None:
    text = event_to_json(event)
    assert json.loads(text)["v"] == FORMAT_VERSION
    assert event_from_json(text) == event
    assert event_from_dict(event_to_dict(event)) == event


EVERY_KIND: list[Event] = [
    *EVERY_EVENT,
    MatchStarted(("Ann", "Bob"), Rules(3), "jacquet-versailles"),
    Declined(1),
    DiceCorrected(0, (6, 2)),
    GameAbandoned("board knocked"),
    GameAbandoned(),
    OrientationConfirmed(far=True, colour_b=False),
    Resigned(0, WinKind.GAMMON),
    ResignAccepted(1),
    ResignRefused(0),
    GameEnded(0, 2, WinKind.GAMMON, resigned=True),
]


@pytest.mark.parametrize("event", EVERY_KIND, ids=lambda e: type(e).__name__)
def test_a_vouched_event_reads_back_the_same_without_its_checks(
    event: Event, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A vouched row (a chained journal's, its checksum holding) was written from an event
    checked when it was made: it is read back equal, defaults included, without running
    the checks again (a third of a long journal's resume was reading its events)."""
    data = event_to_dict(event)
    checked: list[Event] = []

    def check(made: Event) -> None:
        checked.append(made)

    monkeypatch.setattr(type(event), "__post_init__", check)
    assert event_from_dict(data, vouched=True) == event
    assert event_from_json(event_to_json(event), vouched=True) == event
    assert checked == []
    assert event_from_dict(data) == event and checked == [event]  # unvouched: checked


def test_many_lines_read_back_in_order_vouched_or_not() -> None:
    texts = [event_to_json(event) for event in EVERY_KIND]
    for vouched in (True, False):
        assert list(events_from_json(texts, vouched=vouched)) == EVERY_KIND
    spoiled = iter(events_from_json([*texts[:2], "{oops", texts[3]], vouched=True))
    assert [next(spoiled), next(spoiled)] == EVERY_KIND[:2]  # read alone, up to the fault
    with pytest.raises(InvalidEventError, match=r"invalid event '\{oops': not JSON"):
        next(spoiled)


@pytest.mark.parametrize("text", ["[" * 100_000, '{"v": 1, "player": ' + "9" * 5000 + "}"])
def test_a_line_json_cannot_decode_is_an_invalid_event_in_one_line(text: str) -> None:
    """Nested deeper than the decoder recurses, or an integer too long to convert: not a
    RecursionError or a bare ValueError out of a saved match's reading, and the line is
    shown clipped."""
    for vouched in (True, False):
        with pytest.raises(InvalidEventError, match="not JSON") as caught:
            list(events_from_json([event_to_json(EVERY_KIND[0]), text], vouched=vouched))
        assert len(str(caught.value)) < 400


def test_a_vouched_event_still_needs_a_known_version_type_and_fields() -> None:
    """Vouching spares the checks of the values, not the reading of the form."""
    for data, message in [
        ({"v": 2, "type": "taken", "player": 0}, "unknown format version 2"),
        ({"v": 1, "type": "conceded", "player": 0}, "unknown type 'conceded'"),
        ({"v": 1, "type": "taken"}, "missing field 'player'"),
        ({"v": 1, "type": "taken", "player": 0, "extra": 1}, "unexpected fields ['extra']"),
    ]:
        with pytest.raises(InvalidEventError, match="invalid event") as caught:
            event_from_dict(data, vouched=True)
        assert message in str(caught.value)


def test_json_form_is_plain_and_named() -> None:
    assert event_to_dict(Played(0, (3, 1), "8/5 6/5", START)) == {
        "v": 1,
        "type": "played",
        "player": 0,
        "dice": [3, 1],
        "notation": "8/5 6/5",
        "board": list(START),
    }
    assert event_to_dict(GameEnded(1, 2, WinKind.GAMMON))["kind"] == "gammon"


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"v": 2, "type": "taken", "player": 0}, "unknown format version 2, this reader knows 1"),
        ({"type": "taken", "player": 0}, "unknown format version None"),
        ({"v": 1, "type": "conceded", "player": 0}, "unknown type 'conceded'"),
        ({"v": 1, "type": ["taken"], "player": 0}, "unknown type ['taken']"),  # a TypeError
        ({"v": 1, "type": "taken"}, "missing field 'player'"),
        ({"v": 1, "type": "taken", "player": 0, "extra": 1}, "unexpected fields ['extra']"),
        ({"v": 1, "type": "taken", "player": 2}, "a player is 0 or 1, got 2"),
        ({"v": 1, "type": "rolled", "player": 0, "dice": [7, 1]}, "dice are two numbers"),
        ({"v": 1, "type": "doubled", "player": 0, "value": 3}, "a power of two from 2, got 3"),
        ({"v": 1, "type": "observed", "board": [1] * 26}, "more than 15"),
        ({"v": 1, "type": "game_ended", "winner": 0, "points": 1, "kind": "huge"}, "kind is"),
        (
            {"v": 1, "type": "match_started", "names": ["a", "b"], "rules": {"match_length": -1}},
            "the match length is a number of points",
        ),
        ([1, 2], "an event is a JSON object"),
    ],
)
def test_bad_json_events_are_refused_with_the_reason(data: object, message: str) -> None:
    with pytest.raises(InvalidEventError, match="invalid event") as caught:
        event_from_dict(data)
    assert message in str(caught.value)


def test_text_that_is_not_json_is_named() -> None:
    with pytest.raises(InvalidEventError, match=r"invalid event '\{oops': not JSON"):
        event_from_json("{oops")


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: MatchStarted(("", "Bob"), Rules(3)), "a name is 1 to 31 printable"),
        (lambda: MatchStarted(("A:B", "Bob"), Rules(3)), "without ':'"),
        (lambda: MatchStarted(("x" * 32, "Bob"), Rules(3)), "got 'xxxx"),
        (lambda: Played(0, (3, 1), "8/5 6/5", (0,) * 25), "the board: a board is 26 integers"),
        (lambda: GameEnded(0, 2, WinKind.GAMMON, dropped=True), "a dropped double wins a single"),
        (lambda: GameEnded(0, 0), "at least 1 point, got 0"),
        (lambda: Rolled(True, (1, 2)), "a player is 0 or 1, got True"),
    ],
)
def test_events_validate_on_construction(build: object, message: str) -> None:
    with pytest.raises(InvalidEventError, match="invalid ") as caught:
        build()  # type: ignore[operator]
    assert message in str(caught.value)


def test_a_refused_name_is_echoed_in_short() -> None:
    """The page's new match passes names on as typed: its refusal must not echo 5,000."""
    with pytest.raises(InvalidEventError) as caught:
        MatchStarted(("x" * 5000, "Bob"), Rules(3))
    assert str(caught.value).endswith(", got " + repr("x" * 5000)[:40] + "...")
