"""The plain records: the text export a player reads (the JSON lines are tested with Jacquet)."""

from __future__ import annotations

import random

from controller.record import replay
from controller.record.plain import write_text
from controller.rules import Rules
from controller.simulated.players import jacquet_record_events
from tests.record.matches import scripted_cube_events

THREE_DROPS = [
    ["play", "double", "take", "play", "double", "drop"],
    ["resign", "refuse", "play", "resign", "accept"],
    ["double", "drop"],
    ["double", "drop"],
]
"""A 3-point match: a redouble dropped, the Crawford game resigned, two doubles dropped."""


def _not_plays(text: str) -> list[str]:
    """The lines of ``text`` that are neither a throw nor a play (their notation varies)."""
    moves = (" threw ", " played ", "first throw ")
    return [line for line in text.splitlines() if not any(word in line for word in moves)]


def test_every_cube_action_and_resignation_is_in_the_text() -> None:
    text = write_text(replay(scripted_cube_events(0, Rules(3), THREE_DROPS)))
    assert _not_plays(text) == [
        "Alice - Bob, backgammon, 3-point match",
        "",
        "Game 1 (score 0-0)",
        "  Bob doubled to 2",
        "  Alice took",
        "  Alice doubled to 4",
        "  Bob dropped",
        "  Alice wins 2 points",
        "",
        "Game 2 (score 2-0, Crawford game)",
        "  Bob resigned a single game",
        "  Alice refused the resignation",
        "  Alice resigned a single game",
        "  Bob accepted the resignation",
        "  Bob wins 1 point",
        "",
        "Game 3 (score 2-1)",
        "  Bob doubled to 2",
        "  Alice dropped",
        "  Bob wins 1 point",
        "",
        "Game 4 (score 2-2)",
        "  Bob doubled to 2",
        "  Alice dropped",
        "  Bob wins 1 point",
        "",
        "Alice - Bob, 3-point match, score 2-3: the match is over, Bob won it",
    ]


def test_a_beaver_and_a_gammon_resigned_in_money_play() -> None:
    script = [["double", "beaver", "take", "resign-gammon", "accept"]]
    text = write_text(replay(scripted_cube_events(0, Rules(beavers=True), script)))
    assert _not_plays(text)[3:8] == [
        "  Alice doubled to 2",
        "  Bob beavered to 4",
        "  Alice took",
        "  Alice resigned a gammon",
        "  Bob accepted the resignation",
    ]
    assert "  Bob wins 8 points (a gammon)\n" in text


def test_a_jacquet_double_win_is_named_as_jacquet_names_it() -> None:
    events = list(jacquet_record_events(Rules(3), random.Random(0), games=2))
    results = [line for line in write_text(replay(events)).splitlines() if " wins " in line]
    assert results == ["  Black wins 1 point", "  Black wins 2 points (a double win)"]
