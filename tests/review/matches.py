"""The matches the review's tests judge: simulated ones, and one with a known blunder."""

from __future__ import annotations

import random

from controller.record import (
    Event,
    MatchStarted,
    OpeningRolled,
    Played,
    Rolled,
    Taken,
)
from controller.rules import START, Rules, legal_plays
from controller.simulated.players import GameWon, SimulatedPlayer, play_match, record_events
from tests.record.matches import selfplay_events

NAMES = ("Alice", "Bob")


def short_match() -> list[Event]:
    """A simulated 3-point match of two games: a double dropped, then one taken."""
    return selfplay_events(0, 3)


def money_record() -> list[Event]:
    """The first simulated money game with a double taken (cut after its result)."""
    for seed in range(100):
        rng = random.Random(seed)
        players = (SimulatedPlayer(rng, aggression=0.9),) * 2
        events = []
        for event in play_match(Rules(), rng, players):
            events.append(event)
            if isinstance(event, GameWon):
                break
        recorded = list(record_events(events, Rules(), NAMES))
        if any(isinstance(event, Taken) for event in recorded):
            return recorded
    raise AssertionError("no simulated money game with a double taken")


def play_of(board: tuple[int, ...], player: int, dice: tuple[int, int], notation: str) -> Played:
    """The record event of ``player`` playing ``notation``."""
    play = next(p for p in legal_plays(board, player, dice) if p.notation == notation)
    return Played(player, dice, notation, play.result)


def blunder_record() -> list[Event]:
    """Money: Alice opens 31 with 13/9 (a known blunder: 8/5 6/5 makes the 5-point)."""
    first = play_of(START, 0, (3, 1), "13/9")
    reply = play_of(first.board, 1, (6, 4), "24/14")
    return [
        MatchStarted(NAMES, Rules()),
        OpeningRolled((3, 1)),
        first,
        Rolled(1, (6, 4)),
        reply,
    ]
